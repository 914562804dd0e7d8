"""Prints the optimised LLVM IR of functions that call every method of
lists, sets and dicts, with numbered names made alike, so that the IR of
two builds can be compared with diff (bench/jit_layout_RESULTS.md says how).
"""
import re, sys
import numpy as np
import kiln

def lists(n):
    a = [3, 1, 2]
    a.append(n); a.insert(0, n); a.extend([4, 5]); x = a.pop(); y = a.pop(1)
    b = a.copy(); b.reverse(); b.sort(reverse=True); a.sort()
    c = a.count(2) + a.index(2)
    b.clear()
    return a, b, c, x, y

def arrays_in_lists(n):
    l = [np.zeros(n)]
    l.append(np.ones(n)); l.insert(0, np.ones(n)); z = l.pop(); l.reverse()
    return l, z

def sets(n):
    s = {1, 2, n}
    s.add(4); s.discard(9); s.remove(1); s.update([7, 8], {9})
    u = s.union({10}, [11]); i = s.intersection([2, 4]); d = s.difference({2})
    x = s.symmetric_difference({4, 5})
    t = s.issubset(u), s.issuperset(i), s.isdisjoint(d)
    c = s.copy(); c.clear(); p = s.pop()
    return s, u, i, d, x, t, c, p

def dicts(n):
    d = {1: 1.5, 2: 2.5}
    d.setdefault(n, 3.5); d.update({4: 4.5})
    g = d.get(1, 0.0); h = d.get(9); p = d.pop(2); q = d.pop(7, 0.0)
    k = [x for x in d.keys()]; v = [x for x in d.values()]; it = [x for x in d.items()]
    e = d.copy(); e.clear(); last = d.popitem()
    return d, g, h, p, q, k, v, it, last

def arrays_in_dicts(n):
    d = {0: np.zeros(n)}
    a = d.pop(0); b = d.pop(1, np.ones(n)); d[2] = a; c = d.setdefault(3, b); e = d.popitem()
    return d, a, b, c, e

for f in (lists, arrays_in_lists, sets, dicts, arrays_in_dicts):
    j = kiln.njit(f)
    j(3)
    ir = j.inspect_llvm()
    text = ir if isinstance(ir, str) else "\n".join(ir.values())
    print(re.sub(r"\.\d+\b", "", text))
