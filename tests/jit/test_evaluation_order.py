"""Compiled code evaluates what Python evaluates in Python's order: a
method's container before its arguments, operands left to right, a call's
arguments in turn. C leaves the order of a C call's arguments open, so a
lowering that lowers two operands as two arguments of one C call gets it
wrong; these tests log the order with calls that note it."""
import numpy as np

import kiln


@kiln.njit
def noted(log, k, x):
    log.append(k)
    return x


def test_a_method_call_evaluates_its_container_before_its_arguments():
    """As Python does: f().append(g()) calls f first."""
    @kiln.njit
    def order(n):
        log = [0]
        log.pop()
        rows = [[0]]
        noted(log, 1, rows[0]).append(noted(log, 2, n))
        noted(log, 3, {0}).add(noted(log, 4, n))
        noted(log, 5, {0: 1}).setdefault(noted(log, 6, n), 1)
        return log
    assert order(7) == [1, 2, 3, 4, 5, 6]   # CPython's order (py_func cannot pass lists to noted)


def test_operands_and_arguments_are_evaluated_left_to_right():
    """C leaves the order of a call's arguments open; compiled code keeps Python's."""
    @kiln.njit
    def order(n):
        log = [0]
        log.pop()
        u = noted(log, 1, {1}) | noted(log, 2, {2})
        same = noted(log, 3, {1}) == noted(log, 4, {2})
        xs = np.linspace(noted(log, 5, 0.0), noted(log, 6, 1.0), noted(log, 7, n), endpoint=noted(log, 8, True))
        a = np.zeros((n, n))
        noted(log, 9, a).fill(noted(log, 10, 2.0))
        d = noted(log, 11, a).diagonal(noted(log, 12, 0))
        s = noted(log, 13, "a") == noted(log, 14, "b")
        return log, len(u), same, xs.size, d.sum(), s
    log, nu, same, size, total, s = order(3)
    assert log == list(range(1, 15))   # CPython's order (py_func cannot pass lists to noted)
    assert (nu, same, size, total, s) == (2, False, 3, 6.0, False)
