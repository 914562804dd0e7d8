"""Corpus, part 2: control flow, loops, tuples, calls between kiln
functions, recursion, returns of several types, exceptions."""
import math

import numpy as np

import kiln
from jit_diff import case

N = [(n,) for n in [0, 1, 2, 5, 10, 37, -3]]


@case(*N)
def if_elif_else(n):
    if n < 0:
        return -1
    elif n == 0:
        return 0
    elif n < 5:
        return 1
    else:
        return 2
BOOLS = [(x, y) for x in (True, False) for y in (True, False)]


@case(*BOOLS)
def tests_a_name_and_a_constant_decide(x, y):
    # `x or True` is true and `x and False` false whatever x is: CPython's compiler
    # drops code after `if x or True: return`; the others depend on the names
    hits = []
    if x or True:
        hits.append(1)
    if x and False:
        hits.append(2)
    if False or x:
        hits.append(3)
    if x and True:
        hits.append(4)
    if x or y or True:
        hits.append(5)
    if (x or True) and False:
        hits.append(6)
    if x or (y and False):
        hits.append(7)
    if x or True:
        return hits
    hits.append(99)   # never reached
    return hits


@case(*BOOLS)
def an_inner_def_after_an_if_that_always_raises(x, y):
    if x or True:
        raise ValueError("always")

    def never_made(a):
        return a + y
    return never_made(1)


@case(*N)
def while_sum(n):
    s = 0
    i = 0
    while i < n:
        s += i * i
        i += 1
    return s
@case(*N)
def while_break_else(n):
    i = 0
    while i < 100:
        if i * i > n:
            break
        i += 1
    else:
        return -1
    return i
@case(*N)
def for_range1(n):
    s = 0
    for i in range(n):
        s += i
    return s
@case(*[(a, b) for a in [-5, 0, 3] for b in [-2, 4, 10]])
def for_range2(a, b):
    s = 0
    for i in range(a, b):
        s = s * 3 + i
    return s
@case(*[(a, b, c) for a in [-5, 0, 10] for b in [-7, 4, 12] for c in [1, 2, -1, -3, 5]])
def for_range3(a, b, c):
    s = 0
    for i in range(a, b, c):
        s = s * 7 + i
    return s
@case((3, 5, 0))
def for_range_zero_step(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s
@case(*N)
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    return s
@case(*N)
def for_else(n):
    for i in range(n):
        if i == 7:
            break
    else:
        return -1
    return i
@case(*N)
def loop_var_after(n):
    i = -1
    for i in range(n):
        pass
    return i
@case(*N)
def nested_loops(n):
    s = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 2:
                s += i * j
    return s
@case(*N)
def nested_break(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count
@case(*N)
def primes_count(n):
    count = 0
    for num in range(2, n * 10):
        prime = True
        for i in range(2, (num // 2) + 1):
            if (num % i) == 0:
                prime = False
                break
        if prime:
            count += 1
    return count
@case(*N)
def collatz_steps(n):
    x = abs(n) + 1
    steps = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps
@case(*N)
def multiple_returns_unify(n):
    if n > 3:
        return n
    return n / 2
@case(*N)
def return_optional(n):
    if n > 3:
        return n
    return None
@case(*N)
def returns_nothing(n):
    x = n + 1
    x += 1
@case(*N)
def var_widens_to_float(n):
    x = 0
    for i in range(n):
        x = x + 0.5
    return x
@case(*N)
def tuple_build_index(n):
    t = (n, n * 2.5, -n)
    return t[0] + t[1] + t[-1]
@case(*N)
def tuple_unpack(n):
    a, b = n, n + 1
    a, b = b, a
    return a * 10 + b
@case(*N)
def tuple_return_mixed(n):
    return n, float(n) / 4, n > 2
@case(*N)
def tuple_loop(n):
    s = 0
    for x in (1, 2, 3, n):
        s = s * 10 + x
    return s
@case(*N)
def tuple_loop_mixed(n):
    s = 0.0
    for x in (1, 2.5, n):
        s += x
    return s
@case(*[(n, k) for n in [1, 5] for k in [0, 1, 2, -1]])
def tuple_var_index(n, k):
    t = (n, n + 1, n + 2)
    return t[k]
@case(*[((1, 2.5), 3), ((4, -1.0), 0)])
def tuple_argument(t, k):
    a, b = t
    return a * k + b
@case(*[((1, 2, 3),), ((5, -5, 0),)])
def uniform_tuple_len_loop(t):
    s = 0
    for i in range(len(t)):
        s += t[i] * i
    return s
@case(*N)
def enumerate_range(n):
    s = 0
    for i, v in enumerate(range(n)):
        s += i * v
    return s
@case(*N)
def enumerate_start(n):
    s = 0
    for i, v in enumerate(range(3, n + 3), 10):
        s += i - v
    return s
@case(*N)
def zip_ranges(n):
    s = 0
    for a, b in zip(range(n), range(n, 0, -1)):
        s += a * b
    return s
@case(*N)
def divide_by_zero_inside(n):
    return 10 // (n - n)
@case(*N)
def float_divide_by_zero(n):
    return 1.0 / (n * 0.0)
@case(*N)
def raise_value_error(n):
    if n > 4:
        raise ValueError("n must be at most 4")
    return n
@case(*N)
def raise_class_only(n):
    if n < 0:
        raise IndexError
    return n
@case(*N)
def assert_positive(n):
    assert n >= 0, "n is negative"
    return n


@kiln.jit
def _square(x):
    return x * x


@kiln.jit
def _norm(x, y):
    return math.sqrt(_square(x) + _square(y))


@kiln.jit
def _fib(n):
    if n < 2:
        return n
    return _fib(n - 1) + _fib(n - 2)


@kiln.jit
def _gcd(a, b):
    if b == 0:
        return a
    return _gcd(b, a % b)


@case(*N)
def calls_kiln_function(n):
    return _norm(n, n + 1.0)
@case(*[(n,) for n in [0, 1, 2, 10, 20]])
def calls_recursive(n):
    return _fib(n)
@case(*[(a, b) for a in [12, 35, 7] for b in [8, 14, 0]])
def calls_recursive_two_args(a, b):
    return _gcd(a, b)
@case(*N)
def short_circuit_avoids_division(n):
    return n != 0 and 10 // n > 1
@case(*N)
def int_overflow_wraps(n):
    x = 2**62
    for i in range(abs(n)):
        x = x * 3 + 1
    return x
@case(*N)
def shadow_builtin_name(n):
    total = 0
    for max_ in range(n):
        total += max_
    return total
@case(*N)
def while_true_break(n):
    i = 0
    while True:
        i += 1
        if i > n:
            break
    return i
@case(*N)
def conditional_loop_accumulate(n):
    evens = 0
    odds = 0
    for i in range(-n, n):
        if i % 2 == 0:
            evens += i
        else:
            odds -= i
    return evens, odds
@case(*N)
def nested_ifexp_boolop(n):
    return (n > 2 and n < 8) or (n == -3 if n < 0 else False)
@case(*N)
def optional_used_as_value(n):
    x = None
    if n > 2:
        x = n
    if x is not None:
        return x * 2 + abs(x) + (x > 3)
    return -1


@kiln.jit
def _checked_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return math.sqrt(x)


@case(*N)
def calls_function_that_raises(n):
    total = 0.0
    for k in range(n, -5, -1):
        total += _checked_sqrt(k)
    return total
@case(*N)
def exception_inside_nested_loops(n):
    s = 0
    for i in range(n):
        for j in range(n):
            s += 100 // (j - 3)
    return s


@kiln.jit
def _checked_root(x):
    if x < 0:
        raise ValueError("negative")
    if x == 0:
        raise ZeroDivisionError("zero")
    return math.sqrt(x)


@case(*N)
def try_except_else(n):
    try:
        r = _checked_root(n)
    except ValueError:
        r = -1.0
    except (ZeroDivisionError, OverflowError):
        r = -2.0
    else:
        r += 100
    return r
@case(*N)
def try_catches_builtin_errors(n):
    try:
        return 10 // (n - 2)
    except Exception:
        return -1
@case(*N)
def bare_except_in_loop_with_continue(n):
    s = 0
    for i in range(-3, 4):
        try:
            s += n // i + _checked_root(i + 3) // 1
        except:
            s += 1000
            continue
        s += 1
    return s
@case(*N)
def nested_try_inner_does_not_match(n):
    try:
        try:
            return _checked_root(n - 1)
        except ZeroDivisionError:
            return 0.5
    except ValueError:
        return -0.5
@case(*N)
def uncaught_exception_goes_on(n):
    try:
        _checked_root(n - 2)
    except ZeroDivisionError:
        pass
    return 1
@case(*N)
def raise_in_handler_reaches_python(n):
    try:
        if n > 3:
            raise IndexError("big")
        x = n
    except IndexError:
        raise ValueError("handled, then raised")
    return x
@case(*N)
def try_finally_runs_on_both_paths(n):
    log = 0
    try:
        try:
            log += 1
            r = _checked_root(n - 2)
            log += 10
        except ValueError:
            log += 100
            r = -1.0
        finally:
            log += 1000
        log += 10000
    except ZeroDivisionError:
        r = -2.0
    return r, log
@case(*N)
def finally_then_exception_reaches_python(n):
    x = 0
    try:
        x = _checked_root(n - 1)
    finally:
        x += 1
    return x
@case(*N)
def except_as_name_ignored_or_reraised(n):
    try:
        r = _checked_root(n - 2)
    except ValueError as err:
        if n < -1:
            raise err
        r = -1.0
    except ZeroDivisionError as err:
        raise
    return r
@case(*N)
def bare_raise_reraises_through_nested_handlers(n):
    total = 0
    for i in range(3):
        try:
            try:
                total += _checked_root(n - i) // 1
            except ValueError:
                total += 10
                if i == 2:
                    raise
        except ValueError as outer:
            if n == -3:
                raise outer
            total += 1000
    return total
@case(*N)
def reraise_keeps_an_f_string_message(n):
    try:
        if n % 2 == 1:
            raise KeyError(f"odd {n}")
        return n
    except KeyError as e:
        raise e



# ---- locals a path reaches before they are assigned: UnboundLocalError, as in CPython ----

@case(*N)
def loop_variable_after_the_loop(n):
    for i in range(n):
        pass
    return i
@case(*N)
def assigned_in_one_branch(n):
    if n > 2:
        y = n * 1.5
    return y
@case(*N)
def assigned_in_a_while_body(n):
    t = 0
    while t < n:
        last = t * t
        t += 1
    return last
@case(*N)
def augmented_before_any_assignment(n):
    for i in range(n):
        s = i
    s += 1
    return s
@case(*N)
def array_assigned_in_one_branch(n):
    if n > 0:
        a = np.ones(n)
    return a.sum()
@case(*N)
def assigned_after_the_raise_point(n):
    try:
        if n > 1:
            raise ValueError("big")
        v = n
    except ValueError:
        pass
    return v
@case(*N)
def read_in_the_next_iteration(n):
    total = 0
    for i in range(n):
        if i > 0:
            total += prev
        prev = i * 3
    return total
@case(*N)
def assigned_before_break(n):
    while True:
        x = n * 2
        if x > 3:
            break
        n += 1
    return x
@case(*N)
def assigned_on_every_path(n):
    if n > 0:
        z = 1
    else:
        z = -1
    for k in range(n):
        z += k
    return z
@case(*[(n, np.arange(n % 5) * 1.5) for n in (0, 1, 7, -3)])
def reversed_loops(n, a):   # reversed() of a range (any step), an array, a list, and under enumerate
    out = []
    for i in reversed(range(n)):
        out.append(i)
    for i in reversed(range(1, n, 3)):
        out.append(i * 10)
    for i in reversed(range(n, -2, -2)):
        out.append(-i)
    s = 0.0
    for x in reversed(a):
        s = s * 2 + x
    for i, x in enumerate(reversed([1.5, 2.5, n])):
        s += i * x
    return out, s, [x * 2 for x in reversed(a)], list(reversed(range(n)))
@case((100,), (2,), (200_003,))
def sieve_count(n):
    # range with a step known at run time, over more than one poll chunk
    # (65,536 items) for the smallest primes of n = 200,003
    is_p = np.ones(n + 1, np.bool_)
    is_p[:2] = False
    i = 2
    while i * i <= n:
        if is_p[i]:
            for j in range(i * i, n + 1, i):
                is_p[j] = False
        i += 1
    return is_p.sum()
@case((2**62, 2**63 - 1, 2**61), (-2**63, -2**63 + 10, 3), (2**63 - 1, -2**63, -2**62))
def range_steps_to_the_int64_ends(a, b, c):
    # the item after the last would overflow; it is never used
    s = 0
    n = 0
    for i in range(a, b, c):
        s += i % 1000
        n += 1
    return s, n
@case((1,), (0,))
def raises_when_true_decides_an_or(x):
    # `True or x` is True without reading x: nothing after the raise runs,
    # an inner def and its call included
    if True or x:
        raise ValueError("always")
    def g(p):
        return p
    return g(x)
@case((1,), (0,))
def false_decides_an_and(x):
    if False and x:
        return -1
    if x and False:   # x is read first: not decided by the constant
        return -2
    return x + 1


@kiln.jit
def _always_raises(x):
    raise IndexError("no item")
    return x


@case((0,), (1,), (3,))
def loops_over_comprehensions_whose_item_always_raises(n):
    # each comprehension raises at its first item; run no times, it leaves a list,
    # set or dict nothing was put in, and every loop over it runs no times
    l = [_always_raises(i) for i in range(n)]
    s = {_always_raises(i) for i in range(n)}
    d = {i: _always_raises(i) for i in range(n)}
    t = 0
    for x in l:
        t += 1
    for i, x in enumerate(l):
        t += 10
    else:
        t += 100
    for x, y in zip(l, range(4)):
        t += 1000
    for x in sorted(s):
        t += 10000
    for k in d:
        t += 100000
    for k, v in d.items():
        t += 1000000
    return t, len(l), len(s), len(d), sorted(s)


@case((0,), (2,))
def loop_over_an_empty_list_literal(n):
    t = n
    for x in []:
        t += x
    for x in reversed([]):
        t -= x
    return t


@case((1,), (-2,))
def code_after_a_try_that_always_leaves(n):
    # the body raises and the handler returns: CPython drops what follows, the def included
    try:
        raise KeyError("always")
    except KeyError:
        return n * 2

    def g(p):
        return p
    while n < 0:
        n = g(n)
    return n


@case((1,), (-2,))
def code_after_an_if_whose_branches_both_leave(n):
    if n > 0:
        return 1
    else:
        raise ValueError("not positive")

    def g(p):
        return p
    return g(n)


@kiln.jit
def _noted(hits, i, x):
    hits[i] = x
    return x > 0


@case((1,), (-2,))
def a_call_before_the_deciding_constant_still_runs(n):
    # `f(x) and False` is false and `f(x) or True` true whatever f returns, as CPython's compiler
    # knows when it drops what follows (generator seed 2259, program 1006); f still runs
    hits = np.zeros(3)
    if not (_noted(hits, 0, n) and False):
        hits[1] = 5
    else:
        return hits
    if _noted(hits, 2, n) or True:
        return hits

    def g(p):
        return p
    return g(hits)
