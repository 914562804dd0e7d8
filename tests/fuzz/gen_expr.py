"""Typed expressions: scalars (int, float, bool, complex) and NumPy array
expressions, each built only from what the scope holds, so that every
expression is well typed, and only of forms on which CPython + NumPy 1.24 and
Kiln are meant to agree.

Rules that keep the two sides comparable (each a documented difference, not
a bug to find):
- A NumPy scalar never enters scalar arithmetic: an element or a reduction
  is converted first (int(a[i]), float(np.sum(a))), since np.int8 arithmetic
  wraps at 8 bits and np.int64 // 0 gives 0 where Kiln's int64 is a Python int.
- math.sqrt / log / exp / sin / cos follow Numba (nan and inf instead of
  ValueError and OverflowError), so their arguments are kept in their domain; a float `**` is
  generated on scalars only as a whole power of a bounded base (CPython's OverflowError against inf).
- int() of a float is not generated (Kiln gives INT64_MIN for NaN).
- np.min and np.max of a float array are followed by + 0.0: which zero they
  pick from 0.0 and -0.0 depends on NumPy's loop order.
- np.log1p takes the absolute value of its argument: near its pole at -1 an
  ulp of difference in the argument becomes -inf against a finite number, and
  the two sides' float32 np.tanh differ by an ulp (NumPy's is not correctly
  rounded, Kiln's is), so np.log1p(np.tanh(x)) showed such a difference.
- np.exp of an array takes np.minimum(x, 5.0): NumPy's float64 exp is not
  correctly rounded either (exp(14.949) an ulp above glibc's, which Kiln
  calls), and a later `% 2` of a result in the millions turned that ulp
  into a difference of 4e-9 (mismatch_1345_1568); below e**5 an ulp stays
  under the comparison's tolerance.
- A runtime scalar meets an array only where NumPy 1.24's value-based casting
  cannot depend on its value (Kiln types the scalar statically, as NEP 50
  does): ints with int64, float64 and bool arrays (not float32: an int of
  65536 or more makes a float32 array's result float64 there), floats with
  integer, bool and float64 arrays, bools with any. Literals go anywhere:
  Kiln casts them by value as NumPy 1.24 does.
- Integers may overflow on purpose (large arguments, `*`, `**`, `<<`): the
  reference wraps every int result to 64 bits (reference.py), as Kiln does."""
import warnings

import numpy as np

from .gen_types import (BOOL, CPLX, DEPTH, FLOAT, INT, KNOWN_DTYPES, Arr, Dct, Elem, Func, Lst, St, npname,
                        broadcast, kind)

INT_LITERALS = [0, 1, 2, 3, 5, 7, -1, -4, 10, 100, 255, 2**31, 2**62 + 3, -2**63 + 1, 6_000_000_007]
FLOAT_LITERALS = ["0.5", "1.0", "-2.25", "3.0", "0.0", "1e10", "-1e-3", "7.5"]
CPLX_LITERALS = ["1j", "(1+2j)", "(-0.5+0.25j)", "(3-1j)"]
CMP = ["<", "<=", "==", "!=", ">", ">="]


def witness(dtype):
    return np.ones(2, dtype=dtype)


def dtype_of(fn):
    """The dtype NumPy gives an operation, computed on small witnesses;
    None where it raises or gives a dtype the generator leaves out."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = fn()
    except Exception:   # NumPy refuses the combination: the generator does not write it
        return None
    name = np.asarray(r).dtype.name
    return name if name in KNOWN_DTYPES else None


def scalar_ok_with(scalar_type, dtype):
    """The runtime-scalar rule above."""
    k = kind(dtype)
    if scalar_type == BOOL:
        return True
    if scalar_type == INT:
        return dtype in ("int64", "float64", "bool")
    if scalar_type == FLOAT:
        return k in "iub" or dtype == "float64"
    return False

# the operator module's name of each binary operator the generator writes
OPERATOR_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod"}


class ExprGen:
    """Mixed into the program generator: needs self.r (random.Random) and
    self.helpers (name -> (params, ret)) of module-level kiln functions."""

    # ---- scalars -------------------------------------------------------
    def lit(self, t):
        r = self.r
        if t == INT:
            return str(r.choice(INT_LITERALS))
        if t == FLOAT:
            return r.choice(FLOAT_LITERALS)
        if t == BOOL:
            return r.choice(["True", "False"])
        return r.choice(CPLX_LITERALS)

    def element(self, scope, name, at):
        """Source text of one element of array `name`: an index per axis, a
        loop variable known to index that axis, else `k % n` (which raises
        ZeroDivisionError on both sides for an empty axis)."""
        idx = scope.indices()
        parts = []
        for axis, d in enumerate(at.dims):
            mine = [v for v, lab in idx.items() if lab == d]
            if mine and self.r.random() < 0.8:
                parts.append(self.r.choice(mine))
            else:
                k = self.small_int_leaf(scope)
                parts.append(f"({k}) % {name}.shape[{axis}]")
        return f"{name}[{', '.join(parts)}]"

    def convert(self, dtype, text):
        k = kind(dtype)
        if k == "b":
            return f"bool({text})"
        if k in "iu":
            return f"int({text})"
        return f"float({text})"

    def whole_reduction(self, fn, dtype):
        """fn, or np.sum for a float product in a parallel function: the pool
        multiplies its parts in another order than NumPy, and a product of
        twenty factors is big enough that sin or % of it turns its last bit
        into any value (the two orders are both right)."""
        return "np.sum" if fn == "np.prod" and self.parallel and kind(dtype) == "f" else fn

    def scalar_kind_of(self, dtype):
        k = kind(dtype)
        return BOOL if k == "b" else INT if k in "iu" else FLOAT

    def small_int_leaf(self, scope):
        ints = [n for n, t in scope.all().items() if t == INT]
        if ints and self.r.random() < 0.6:
            return self.r.choice(ints)
        return str(self.r.choice([0, 1, 2, 3, -1, 5, 9]))

    def scalar_leaf(self, scope, t):
        r = self.r
        opts = [lambda: self.lit(t)]
        vs = [n for n, vt in scope.all().items() if vt == t]
        if vs:
            opts += [lambda: r.choice(vs)] * 4
        arrs = [(n, a) for n, a in scope.all().items() if isinstance(a, Arr) and self.scalar_kind_of(a.dtype) == t]
        if arrs:
            def from_array():
                n, a = r.choice(arrs)
                return self.convert(a.dtype, self.element(scope, n, a))
            opts += [from_array] * 2
        elems = [n for n, vt in scope.all().items() if isinstance(vt, Elem) and self.scalar_kind_of(vt.dtype) == t]
        if elems:
            def elem():
                n = r.choice(elems)
                return self.convert(scope.lookup(n).dtype, n)
            opts += [elem] * 2
        funcs = [(n, f) for n, f in self.callables(scope) if f.ret == t]
        if funcs and not getattr(self, "in_call", False):   # no calls inside a call's arguments
            opts.append(lambda: self.call(scope, *r.choice(funcs)))
        if t == INT:
            shaped = [(n, a) for n, a in scope.all().items() if isinstance(a, Arr)]
            if shaped:
                def shape_of():
                    n, a = r.choice(shaped)
                    return f"{n}.shape[{r.randrange(len(a.dims))}]"
                opts.append(shape_of)
            lists = [n for n, vt in scope.all().items() if isinstance(vt, (Lst, Dct, St))]
            if lists:
                opts.append(lambda: f"len({r.choice(lists)})")
            ilists = [n for n, vt in scope.all().items() if vt in (Lst(INT), St(INT))]
            if ilists:
                opts.append(lambda: f"sum({r.choice(ilists)})")
        if t in (INT, FLOAT) and arrs:
            def reduce_():
                n, a = r.choice(arrs)
                fn = self.whole_reduction(r.choice(["np.sum", "np.sum", "np.max", "np.min", "np.prod"] +
                                                   (["np.mean"] if t == FLOAT else [])), a.dtype)
                if fn in ("np.max", "np.min") and kind(a.dtype) == "f":
                    # which of 0.0 and -0.0 an extremum picks is NumPy's loop order's (its SIMD
                    # reduction keeps either): + 0.0 gives both sides 0.0 (mismatch 81053, in copysign)
                    return f"({self.convert(a.dtype, f'{fn}({n})')} + 0.0)"
                return self.convert(a.dtype, f"{fn}({n})")
            opts.append(reduce_)
        if t == FLOAT:
            flists = [n for n, vt in scope.all().items() if vt == Lst(FLOAT)]
            if flists:   # CPython's sum of an empty list is the int 0, Kiln's (of a float list) 0.0
                opts.append(lambda: f"(0.0 + sum({r.choice(flists)}))")
            cs = [n for n, vt in scope.all().items() if vt == CPLX]
            if cs:
                opts.append(lambda: f"{r.choice(cs)}.{r.choice(['real', 'imag'])}")
            fa = [(n, a) for n, a in scope.all().items() if isinstance(a, Arr) and a.dtype != "bool"]
            if fa:
                def mean_():
                    n, a = r.choice(fa)
                    if kind(a.dtype) == "f" and r.random() < 0.25:   # NaN skipped, of an expression too
                        fn = r.choice(["np.nanmean", "np.nansum", "np.nanmax", "np.nanmin"])
                        x = r.choice([n, f"({n} * 2)", f"np.abs({n})", f"({n} - 1)"])
                        return f"float({fn}({x}))"
                    return f"float(np.mean({n}))"
                opts.append(mean_)
        if t == BOOL:
            # lists of ints compared as Python compares them (of floats, a NaN item is equal to
            # itself in CPython by identity: test_found.py's mismatch_6942_482)
            ils = [n for n, vt in scope.all().items() if vt == Lst(INT)]
            if ils:
                opts.append(lambda: f"({r.choice(ils)} {r.choice(['==', '!=', '<', '<=', '>', '>='])} {r.choice(ils)})")
            ba = [(n, a) for n, a in scope.all().items() if isinstance(a, Arr)]
            if ba:
                def any_all():
                    n, a = r.choice(ba)
                    if r.random() < 0.15:   # decided by the type
                        return f"np.{r.choice(['iscomplexobj', 'isrealobj', 'isscalar'])}({n})"
                    return f"bool(np.{r.choice(['any', 'all'])}({n}))"
                opts.append(any_all)
        return r.choice(opts)()

    def binary(self, a, op, b):
        """a op b, now and then written as the operator module's function: operator.add(a, b)."""
        if self.r.random() < 0.1:
            return f"operator.{OPERATOR_NAMES[op]}({a}, {b})"
        return f"({a} {op} {b})"

    def expr(self, scope, t, depth=2):
        """A scalar expression of type t."""
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            return self.scalar_leaf(scope, t)
        d = depth - 1
        if t == INT:
            c = r.randrange(9)
            if c <= 2:
                a, op = self.expr(scope, INT, d), r.choice(['+', '-', '*', '*'])
                return self.binary(a, op, self.expr(scope, INT, d))
            if c == 3:
                return f"({self.expr(scope, INT, d)} {r.choice(['//', '%'])} {self.expr(scope, INT, d)})"
            if c == 4:
                op = r.choice(["&", "|", "^", "<<", ">>", "**"])
                if op in ("<<", ">>"):
                    return f"({self.expr(scope, INT, d)} {op} {r.randrange(64)})"
                if op == "**":
                    return f"({self.expr(scope, INT, d)} ** {r.randrange(5)})"
                return f"({self.expr(scope, INT, d)} {op} {self.expr(scope, INT, d)})"
            if c == 5:
                return r.choice([f"(-{self.expr(scope, INT, d)})", f"abs({self.expr(scope, INT, d)})"])
            if c == 6:
                return f"{r.choice(['min', 'max'])}({self.expr(scope, INT, d)}, {self.expr(scope, INT, d)})"
            if c == 7:
                return f"({self.expr(scope, INT, d)} if {self.expr(scope, BOOL, d)} else {self.expr(scope, INT, d)})"
            if r.random() < 0.3:
                return f"len({self.list_expr(scope, INT, d)})"
            if r.random() < 0.05:   # read from NumPy when compiling
                return f"np.iinfo(np.{r.choice(['int8', 'int16', 'int32', 'uint8'])}).{r.choice(['max', 'min'])}"
            if r.random() < 0.1:   # a step of 0 raises ValueError on both sides; bounds kept small, since
                # CPython's OverflowError past 2**63 - 1 items would make the program invalid
                step = r.choice(["", ", 1", ", -1", ", 3", ", -7", f", ({self.expr(scope, INT, d)}) % 5 - 2"])
                return (f"len(range(({self.expr(scope, INT, d)}) % 1000, ({self.expr(scope, INT, d)}) % 1000"
                        f"{step}))")
            return self.scalar_leaf(scope, INT)
        if t == FLOAT:
            c = r.randrange(9)
            if c <= 2:
                a = self.expr(scope, r.choice([FLOAT, FLOAT, INT]), d)
                op = r.choice(['+', '-', '*', '/'])
                return self.binary(a, op, self.expr(scope, FLOAT, d))
            if c == 3:
                return f"({self.expr(scope, FLOAT, d)} {r.choice(['//', '%', '/'])} {self.expr(scope, r.choice([FLOAT, INT]), d)})"
            if c == 4:
                x = self.expr(scope, FLOAT, d)
                # CPython's sin and cos of inf raise ValueError, Kiln's give nan (as Numba's): x % 6.25 is nan there
                return r.choice([f"math.sqrt(abs({x}))", f"math.sin({x} % 6.25)", f"math.cos({x} % 6.25)", f"math.atan({x})",
                                 f"math.tanh({x})", f"math.exp(-abs({x}))", f"math.log(abs({x}) + 1.0)",
                                 f"math.hypot({x}, {self.expr(scope, FLOAT, d)})",
                                 f"math.atan2({x}, {self.expr(scope, FLOAT, d)})",
                                 f"math.copysign({x}, {self.expr(scope, FLOAT, d)})", f"math.fabs({x})",
                                 # a whole constant power of a bounded base (no OverflowError): multiplied out
                                 f"(math.tanh({x}) * 3.0) ** {r.choice(['2', '3', '4', '5.0', '6', '6.0', '11', '16'])}",
                                 # NumPy's ufuncs of numbers: NaN kept or ignored, NumPy's remainder
                                 f"float(np.{r.choice(['maximum', 'minimum', 'fmax', 'fmin', 'remainder', 'fmod'])}"
                                 f"({x}, {self.expr(scope, FLOAT, d)}))"])
            if c == 5:
                floats = [n for n, tt in scope.all().items() if tt == FLOAT]
                if floats and r.random() < 0.2:   # a float's own type called: float(v)
                    return f"type({r.choice(floats)})({self.expr(scope, INT, d)})"
                return r.choice([f"(-{self.expr(scope, FLOAT, d)})", f"abs({self.expr(scope, FLOAT, d)})",
                                 f"float({self.expr(scope, INT, d)})", f"abs({self.expr(scope, CPLX, d)})"])
            if c == 6:
                return f"{r.choice(['min', 'max'])}({self.expr(scope, FLOAT, d)}, {self.expr(scope, FLOAT, d)})"
            if c == 7:
                return f"({self.expr(scope, FLOAT, d)} if {self.expr(scope, BOOL, d)} else {self.expr(scope, FLOAT, d)})"
            return self.scalar_leaf(scope, FLOAT)
        if t == BOOL:
            c = r.randrange(7)
            if c <= 2:
                k = r.choice([INT, FLOAT, INT])
                return f"({self.expr(scope, k, d)} {r.choice(CMP)} {self.expr(scope, r.choice([k, k, FLOAT]), d)})"
            if c == 3:
                return f"({self.expr(scope, BOOL, d)} {r.choice(['and', 'or'])} {self.expr(scope, BOOL, d)})"
            if c == 4:
                return f"(not {self.expr(scope, BOOL, d)})"
            if c == 5:
                conts = [(n, vt) for n, vt in scope.all().items() if isinstance(vt, (Lst, Dct, St))]
                if conts:
                    n, vt = r.choice(conts)
                    k = vt.key if isinstance(vt, Dct) else vt.elem
                    return f"({self.expr(scope, k, d)} in {n})"
                return f"math.{r.choice(['isnan', 'isnan', 'isinf', 'isfinite'])}({self.expr(scope, FLOAT, d)})"
            if c == 6 and r.random() < 0.5:
                return f"({self.expr(scope, INT, d)} {r.choice(CMP)} {self.expr(scope, INT, d)} {r.choice(CMP)} {self.expr(scope, INT, d)})"
            return self.scalar_leaf(scope, BOOL)
        # complex
        c = r.randrange(5)
        if c == 0:
            return f"complex({self.expr(scope, FLOAT, d)}, {self.expr(scope, FLOAT, d)})"
        if c == 1:
            return f"({self.expr(scope, CPLX, d)} {r.choice(['+', '-', '*', '/'])} {self.expr(scope, CPLX, d)})"
        if c == 2:
            return f"({self.expr(scope, CPLX, d)} * {self.expr(scope, FLOAT, d)})"
        if c == 3:
            return f"{self.expr(scope, CPLX, d)}.conjugate()"
        return self.scalar_leaf(scope, CPLX)

    def list_expr(self, scope, elem, depth=1):
        """A list display or comprehension (a new list each time)."""
        r = self.r
        if r.random() < 0.5:
            return f"[{', '.join(self.expr(scope, elem, depth) for _ in range(r.randrange(1, 4)))}]"
        v = self.fresh("c")
        inner = scope.child()
        inner.vars[v] = INT
        bound = f"({self.small_int_leaf(scope)}) % {r.randrange(1, 7)}"
        cond = f" if {self.expr(inner, BOOL, 1)}" if r.random() < 0.3 else ""
        return f"[{self.expr(inner, elem, depth)} for {v} in range({bound}){cond}]"

    # ---- calls of helpers and inner defs ----------------------------------
    def callables(self, scope):
        out = [(n, f) for n, f in scope.all().items() if isinstance(f, Func)]
        return out + [(n, f) for n, f in self.helpers.items() if f.ret in (INT, FLOAT, BOOL, CPLX)]

    def call(self, scope, name, f):
        """A call with arguments by position and by keyword; parameters
        with defaults are sometimes left out."""
        r = self.r
        pos, kw = [], []
        by_kw = False
        self.in_call = True
        for i, (p, pt, default) in enumerate(f.params):
            if default is not None and r.random() < 0.35:
                by_kw = True    # once one is skipped, the rest go by keyword
                continue
            if pt == DEPTH:   # its own call goes one level down; others start a few levels up
                val = f"{p} - 1" if name == getattr(self, "recursing", None) else str(r.randrange(0, 5))
            elif isinstance(pt, Arr):
                val = self.array_arg(scope, pt)
            else:
                val = self.expr(scope, pt, 1)
            if by_kw or (i > 0 and r.random() < 0.3):
                by_kw = True
                kw.append(f"{p}={val}")
            else:
                pos.append(val)
        r.shuffle(kw)
        self.in_call = False
        return f"{name}({', '.join(pos + kw)})"

    def array_arg(self, scope, pt):
        """An array of dtype and ndim pt (any dims) for a helper's parameter."""
        got = [n for n, t in scope.all().items() if isinstance(t, Arr) and t.dtype == pt.dtype and len(t.dims) == len(pt.dims)]
        if got and self.r.random() < 0.8:
            n = self.r.choice(got)
            return self.r.choice([n, n, f"{n}[::-1]", f"{n}.copy()"])
        shape = ", ".join(str(self.r.randrange(0, 4)) for _ in pt.dims)
        return f"np.ones(({shape},), dtype={npname(pt.dtype)})"

    # ---- arrays ----------------------------------------------------------
    def some_array(self, scope):
        """(name, type) of a random array in scope, or None when there is none."""
        vs = self.arrays(scope)
        return self.r.choice(vs) if vs else None

    def arrays(self, scope, pred=lambda a: True):
        return [(n, t) for n, t in scope.all().items() if isinstance(t, Arr) and pred(t)]

    def shape_text(self, scope, dims):
        parts = [scope.dim_expr(d) for d in dims]
        if any(p is None for p in parts):
            return None
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def arr_leaf(self, scope, dims=None):
        """An array variable (of the given dims, or broadcasting to them), or
        a new array made for them."""
        r = self.r
        if dims is None:
            cands = self.arrays(scope)
        else:
            cands = self.arrays(scope, lambda a: broadcast(a.dims, dims) == tuple(dims))
        if cands and r.random() < 0.85:
            n, t = r.choice(cands)
            return n, t
        if dims is None:
            if not cands:
                return None
            return r.choice(cands)
        shape = self.shape_text(scope, dims)
        if shape is None:
            return None
        dt = r.choice(["float64", "int64", "int32", "float32", "bool", "uint8", "int8"])
        c = r.randrange(4)
        if c == 0:
            return f"np.zeros({shape}, dtype={npname(dt)})", Arr(dt, tuple(dims))
        if c == 1:
            return f"np.ones({shape}, dtype={npname(dt)})", Arr(dt, tuple(dims))
        if c == 2 and len(dims) == 1:
            if dt != "bool" and r.random() < 0.4:   # the dtype by position, as np.arange(start, stop, step, dtype)
                return f"np.arange(0, {shape[1:-2]}, 1, {npname(dt)})", Arr(dt, tuple(dims))
            return f"np.arange({shape[1:-2]})", Arr("int64", tuple(dims))
        v = self.lit(FLOAT if kind(dt) == "f" else INT) if dt != "bool" else "True"
        if kind(dt) == "u":
            v = "7"
        return f"np.full({shape}, {v}, dtype={npname(dt)})", Arr(dt, tuple(dims))

    def arr_expr(self, scope, depth=2, dims=None):
        """(text, Arr) of an array expression (broadcasting to dims when
        given), or None when the scope holds nothing to build one from."""
        got = self._arr_expr(scope, depth, dims)
        if got is not None and dims is not None and broadcast(got[1].dims, dims) != tuple(dims):
            return self.arr_leaf(scope, dims)
        return got

    def _arr_expr(self, scope, depth, dims):
        r = self.r
        base = self.arr_leaf(scope, dims)
        if base is None:
            return None
        if depth <= 0 or r.random() < 0.25:
            return base
        d = depth - 1
        c = r.randrange(8)
        if c <= 2:   # array op array
            other = self.arr_expr(scope, d, base[1].dims)
            if other is None:
                return base
            (ta, a), (tb, b) = base, other
            if r.random() < 0.5:
                (ta, a), (tb, b) = (tb, b), (ta, a)
            dims2 = broadcast(a.dims, b.dims)
            if dims2 is None:
                return base
            op = r.choice(["+", "-", "*", "/", "//", "%", "<", "==", ">=", "&", "|", "np.maximum", "np.minimum",
                           "np.where"])
            if op == "np.where":
                cond = self.bool_arr(scope, dims2)
                if cond is None:
                    return base
                dt = dtype_of(lambda: np.where(witness("bool"), witness(a.dtype), witness(b.dtype)))
                if dt is None:
                    return base
                return f"np.where({cond}, {ta}, {tb})", Arr(dt, dims2)
            if op.startswith("np."):
                dt = dtype_of(lambda: getattr(np, op[3:])(witness(a.dtype), witness(b.dtype)))
                text = f"{op}({ta}, {tb})"
            else:
                if op in ("&", "|") and (kind(a.dtype) not in "biu" or kind(b.dtype) not in "biu"):
                    return base
                if op == "-" and a.dtype == b.dtype == "bool":
                    return base   # NumPy refuses bool - bool
                dt = dtype_of(lambda: eval(f"x {op} y", {"x": witness(a.dtype), "y": witness(b.dtype)}))
                text = f"({ta} {op} {tb})"
            if dt is None:
                return base
            return text, Arr(dt, dims2)
        ta, a = base
        if c == 3:   # array op scalar (literal, or a variable under the runtime-scalar rule)
            op = r.choice(["+", "-", "*", "/", "//", "%", "**", ">", "<=", "!="])
            if op == "**":
                val = r.choice(["2", "3", "0", "1"]) if kind(a.dtype) in "iub" else r.choice(["2", "0.5", "3"])
                wit = eval(val)
            elif r.random() < 0.5:
                st = r.choice([INT, FLOAT, BOOL])
                vs = [n for n, t in scope.all().items() if t == st]
                if not vs or not scalar_ok_with(st, a.dtype) or (st == BOOL and op in ("-", "/", "//", "%")):
                    return base
                val = r.choice(vs)
                wit = {INT: 5, FLOAT: 0.5, BOOL: True}[st]
            else:
                lit = r.choice(["2", "3", "-1", "0", "0.5", "-2.5", "300", "7"])
                val, wit = lit, eval(lit)
            if a.dtype == "bool" and op in ("-",):
                return base
            dt = dtype_of(lambda: eval(f"x {op} y", {"x": witness(a.dtype), "y": wit}))
            if dt is None:
                return base
            if r.random() < 0.3 and op != "**":   # the scalar on the left
                dt = dtype_of(lambda: eval(f"y {op} x", {"x": witness(a.dtype), "y": wit}))
                return (f"({val} {op} {ta})", Arr(dt, a.dims)) if dt else base
            return f"({ta} {op} {val})", Arr(dt, a.dims)
        if c == 4:   # unary ufunc
            fn = r.choice(["np.sqrt", "np.exp", "np.sin", "np.abs", "np.abs", "np.floor", "np.negative",
                           "np.square", "np.tanh", "np.log1p", "np.isnan", "np.sign"])
            if a.dtype == "bool" and fn in ("np.negative", "np.sign", "np.abs", "np.square", "np.log1p"):
                return base
            # log1p away from its pole at -1, exp kept below e**5 (the module's rules)
            text, bound = {"np.log1p": ("np.abs({})", np.abs),
                           "np.exp": ("np.minimum({}, 5.0)", lambda x: np.minimum(x, 5.0))}.get(fn, ("{}", None))
            ta = text.format(ta)
            dt = dtype_of(lambda: getattr(np, fn[3:])(bound(witness(a.dtype)) if bound else witness(a.dtype)))
            if dt is None:
                return base
            return f"{fn}({ta})", Arr(dt, a.dims)
        if c == 5:   # a view
            if a.dims and not ta.startswith("np."):
                return self.view(ta, a)
            return base
        if c == 6 and kind(a.dtype) == "b":
            return f"(~{ta})", a
        if c == 7 and kind(a.dtype) in "iuf":
            lo, hi = (0, 5) if kind(a.dtype) in "iu" else (-1.5, 2.0)
            return f"np.clip({ta}, {lo}, {hi})", Arr(dtype_of(lambda: np.clip(witness(a.dtype), lo, hi)) or a.dtype, a.dims)
        return base

    def view(self, ta, a):
        """A view of an array expression: (text, type)."""
        r = self.r
        nd = len(a.dims)
        if nd == 1 and r.random() < 0.15:   # the same elements, contiguous
            return f"np.ravel({ta})", a
        c = r.randrange(5)
        if c == 0:
            return f"{ta}[::-1]", a
        if c == 1:
            return f"{ta}[::2]", Arr(a.dtype, (f"h({a.dims[0]})",) + a.dims[1:])
        if c == 2:
            return f"{ta}[1:]", Arr(a.dtype, (f"{a.dims[0]}-1",) + a.dims[1:])
        if c == 3 and nd >= 2:
            return f"{ta}.T", Arr(a.dtype, tuple(reversed(a.dims)))
        if nd >= 2:
            return f"{ta}[:, ::-1]", a
        return f"{ta}[::-2]", Arr(a.dtype, (f"h({a.dims[0]})",))

    def bool_arr(self, scope, dims):
        """A boolean array of the given dims (a comparison)."""
        x = self.arr_expr(scope, 1, dims)
        if x is None:
            return None
        tx, a = x
        if broadcast(a.dims, dims) != tuple(dims):
            return None
        if a.dtype == "bool":
            return tx
        return f"({tx} {self.r.choice(['>', '<', '>=', '!='])} {self.r.choice(['0', '1', '2'])})"
