"""Argument values, written as source text so that a kept reproducer holds
them: numbers with their edge cases (negative, zero, int64's ends, NaN,
inf, -0.0), and arrays whose lengths come from the program's dim labels,
empty ones included, in C, Fortran, strided, reversed and transposed
layouts."""
import math

from .gen_types import BOOL, FLOAT, INT, Arr, Lst, Opt, npname

EDGE_INTS = [0, -1, 1, 2**63 - 1, -2**63, 2**62, 3037000500, -2**31, 2**32 + 1]
EDGE_FLOATS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e300, -1e-300, 0.5]


def fmt_float(x):
    if math.isnan(x):
        return "np.nan"
    if math.isinf(x):
        return "np.inf" if x > 0 else "-np.inf"
    return repr(x)


class InputGen:
    def __init__(self, r):
        self.r = r

    def scalar(self, t):
        r = self.r
        if t == INT:
            if r.random() < 0.25:
                return str(r.choice(EDGE_INTS))
            return str(r.randint(-6, 20))
        if t == FLOAT:
            if r.random() < 0.2:
                return fmt_float(r.choice(EDGE_FLOATS))
            return repr(round(r.gauss(0, 8), 3))
        if t == BOOL:
            return r.choice(["True", "False"])
        return f"complex({fmt_float(round(r.gauss(0, 3), 2))}, {fmt_float(round(r.gauss(0, 3), 2))})"

    def python_list(self, t):
        """A Python list of 1 to 5 items of Lst t: passed in, it comes back with what the call
        did to it. No NaN: `x in xs` of a NaN item is True in CPython by identity (a known
        difference, test_found.py's mismatch_6942_482)."""
        items = []
        while len(items) < self.r.randint(1, 5):
            v = self.scalar(t.elem)
            if "nan" not in v:
                items.append(v)
        return f"[{', '.join(items)}]"

    def element(self, dtype, special):
        r = self.r
        if dtype == "bool":
            return r.choice(["True", "False"])
        if dtype == "int8":
            return str(r.choice([r.randint(-128, 127), r.randint(-9, 9), 127, -128]))
        if dtype == "uint8":
            return str(r.choice([r.randint(0, 255), r.randint(0, 9), 255]))
        if dtype == "int32":
            return str(r.choice([r.randint(-2**31, 2**31 - 1), r.randint(-50, 50)]))
        if dtype == "int64":
            if special and r.random() < 0.15:
                return str(r.choice(EDGE_INTS))
            return str(r.randint(-50, 50))
        if special and r.random() < 0.15:
            return fmt_float(r.choice(EDGE_FLOATS))
        return repr(round(r.gauss(0, 10), 3))

    def array(self, t, lengths):
        """Source text of an array of type t with the given dim lengths, in
        a layout picked at random."""
        r = self.r
        shape = [lengths[d] for d in t.dims]
        layout = r.choice(["C", "C", "F", "strided", "reversed", "T"])
        if layout in ("F", "T") and len(shape) < 2:
            layout = "C"
        base = list(shape)
        if layout == "strided":
            base[0] *= 2
        if layout == "T":
            base = base[::-1]
        n = 1
        for s in base:
            n *= s
        special = r.random() < 0.4
        vals = ", ".join(self.element(t.dtype, special) for _ in range(n))
        text = f"np.array([{vals}], dtype={npname(t.dtype)}).reshape({tuple(base)})"
        if layout == "F":
            return f"np.asfortranarray({text})"
        if layout == "strided":
            return f"{text}[::{r.choice(['2', '-2'])}]"
        if layout == "reversed":
            return f"{text}[::-1]"
        if layout == "T":
            return f"{text}.T"
        return text

    def argsets(self, params, labels, n_sets):
        """[(positional texts, keyword texts)] for the entry's parameters
        [(name, type)]."""
        r = self.r
        sets = []
        for k in range(n_sets):
            lengths = {lab: r.randint(1, 5) for lab in labels}
            if k == 2 and labels:
                lengths[r.choice(labels)] = 0        # an empty array
            elif k == 3:
                lengths = {lab: r.choice([1, 1, 6]) for lab in labels}
            vals = []
            for name, t in params:
                if isinstance(t, Opt):
                    vals.append("None" if r.random() < 0.4 else self.array(t.arr, lengths))
                elif isinstance(t, Arr):
                    vals.append(self.array(t, lengths))
                elif isinstance(t, Lst):
                    vals.append(self.python_list(t))
                else:
                    vals.append(self.scalar(t))
            n_kw = r.choice([0, 0, 0, 1, 2]) if len(params) > 1 else 0
            pos = vals[:len(vals) - n_kw]
            kw = [f"{name}={v}" for (name, _), v in zip(params[len(vals) - n_kw:], vals[len(vals) - n_kw:])]
            sets.append((pos, kw))
        return sets
