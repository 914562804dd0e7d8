"""Corpus, part 8: sums, differences and products taken under a condition,
`if x > 0: s += x * x`, and in both branches, `else: s -= x`, which Kiln
lowers with the update after the join (jit/lower/lower_cond_accumulate.c), and
neighbours it must leave alone: a body that reads what it updates, + in
one branch and * in the other, a branch that sets what the other
updates, a body inside try, a target that may be unbound. Inputs hold NaN, infinities, signed zeros and negative
numbers; the sign of a zero result is checked too, since the identities
(-0.0 for +) must keep it."""
import math

import numpy as np

from jit_diff import case

V = np.array([1.5, -2.0, 0.0, -0.0, 3.25, -7.5, 4.0, 0.5])
SPECIAL = np.array([np.nan, 1.0, -np.inf, 2.0, np.inf, -1.0])
NEG = np.array([-1.0, -0.0, -3.0])
ARRAYS = [(V,), (V[::-1],), (V[::3],), (SPECIAL,), (NEG,), (np.zeros(0),)]


@case(*ARRAYS)
def positive_squares(a):
    s = 0.0
    for x in a:
        if x > 0:
            s += x * x
    return s


@case(*ARRAYS)
def sign_of_an_untouched_negative_zero(a):
    s = -0.0
    d = -0.0
    for x in a:
        if x > 100:
            s += x
        if x > 200:
            d -= x
    return math.copysign(1.0, s), math.copysign(1.0, d)


@case(*ARRAYS)
def mean_of_positives(a):
    s = 0.0
    n = 0
    for x in a:
        if x > 0:
            s += x
            n += 1
    return s / n if n else 0.0


@case(*ARRAYS)
def product_and_difference(a):
    p = 1.0
    d = 0.0
    for x in a:
        if x < 0 or x != x:
            p *= x
            d -= 2.0 * x
    return p, d


@case(*[(a.astype(np.float32),) for (a,) in ARRAYS])
def float32_sum_of_cubes(a):
    s = np.float32(0.0)
    for x in a:
        if x >= 0:
            s += x * x * x
    return s


@case(*ARRAYS)
def through_a_temporary(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] > 0:
            v = a[i] * i
            s += v
    return s


@case(*ARRAYS)
def body_reads_what_it_updates(a):
    s = 0.0
    t = 0.0
    for x in a:
        if x > 0:
            s += x
            t += s
    return s, t


@case(*ARRAYS)
def updates_inside_try(a):
    s = 0.0
    n = 0
    try:
        for x in a:
            if x < 0:
                s += x
                n += int(1.0 / (float(x) + 2.0) > 0)   # x == -2.0 divides by zero after s was updated
    except ZeroDivisionError:
        return s, -1
    return s, n


@case((np.array([1.0, -2.0]),), (np.array([-1.0, 2.0]),), (np.zeros(0),))
def target_maybe_unbound(a):
    for x in a:
        if x > 0:
            s += x   # noqa: F821  (unbound at the first positive: UnboundLocalError)
        s = 10.0
    return 0.0


@case((10,), (0,), (-4,))
def int_and_float_counts(n):
    odd = 0
    total = 0.0
    for i in range(n):
        if i % 2:
            odd += 1
            total += i / 3
    return odd, total


@case(*ARRAYS)
def absolute_sum(a):
    s = 0.0
    for x in a:
        if x > 0:
            s += x
        else:
            s -= x
    return s


@case(*ARRAYS)
def split_sums(a):
    pos = 0.0
    neg = -0.0
    n = 0
    for x in a:
        if x >= 0:
            pos += x
            n += 1
        else:
            neg += x
    return pos, math.copysign(1.0, neg), neg, n


@case(*ARRAYS)
def scaled_product(a):
    p = 1.0
    for x in a:
        if x > 1:
            p *= x
        else:
            p *= 0.5
    return p


@case(*ARRAYS)
def plus_in_one_branch_times_in_the_other(a):
    s = 1.0
    for x in a:
        if x > 0:
            s += x
        else:
            s *= 0.5
    return s


@case(*ARRAYS)
def elif_chain(a):
    s = 0.0
    for x in a:
        if x > 1:
            s += x
        elif x < -1:
            s -= 2 * x
        else:
            s += 0.25
    return s


@case(*ARRAYS)
def branches_set_what_the_other_updates(a):
    s = 0.0
    for x in a:
        if x > 0:
            s += x
        else:
            s = -1.0
    return s
