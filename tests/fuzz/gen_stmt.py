"""Statements: each feature of the subset is one method that writes a few
lines over the scope it is given and declares what it binds. A nested block
gets a child scope; what it binds is gone when it ends.

Rules that keep CPython and Kiln comparable (documented differences):
- A name keeps one type: fresh names for new values, rebinding only to the
  same type (Kiln, as Numba, makes a variable that holds an int and a float a
  float). An array rebound inside a branch or loop keeps its dims, so that
  what the generator knows of its length holds on every path.
- Indices are in range by construction (a loop variable over that axis, or
  `k % n`): boundscheck is off in Kiln, as in Numba.
- A set is iterated only through sorted(): Kiln's sets iterate in insertion
  order, CPython's in hash order.
- An element store puts a value of the array's own kind (NumPy casts floats
  to ints by truncation and refuses out-of-range Python ints); `+=` on an
  array only where NumPy's same_kind casting allows it.
- In a prange loop each iteration writes only its own element of a new
  array, or adds into a scalar (a float sum may differ in rounding: the
  campaign compares such programs with a tolerance). A float sum starts at
  0.0: the pool adds a start of 1e10 to the parts' total, a serial loop to
  each term in turn, and a later `% m` of that total turns the difference in
  its last bits into one above the tolerance (both orders are right)."""

import numpy as np

from .gen_expr import ExprGen, dtype_of, witness
from .gen_types import (BOOL, CPLX, FLOAT, INT, Arr, Dct, DctA, Elem, Func, Lst, LstA, St, Tup, broadcast, kind,
                        npname, same_kiln_type)

AUG = {INT: ["+=", "-=", "*="], FLOAT: ["+=", "-=", "*=", "/="], CPLX: ["+=", "*="]}


class StmtGen(ExprGen):
    """Needs self.r, self.helpers, self.fresh(prefix), self.parallel, self.ret,
    self.avoid (the constructs of known open bugs to leave out)."""

    FEATURES = [   # (method, weight)
        ("s_scalar", 6), ("s_aug", 4), ("s_rebind", 2), ("s_swap", 3), ("s_tuple", 3),
        ("s_array_new", 5), ("s_array_expr", 6), ("s_array_rebind", 3), ("s_array_write", 4),
        ("s_overlap", 3), ("s_reduce", 4), ("s_np_func", 5), ("s_if", 5), ("s_for_range", 5), ("s_for_iter", 3),
        ("s_while", 2), ("s_try", 3), ("s_list", 3), ("s_dict", 3), ("s_set", 2), ("s_raise", 1),
        ("s_array_container", 3), ("s_inner_def", 2), ("s_call_helper", 2), ("s_prange", 12),
    ]

    def block(self, scope, ind, n, ctx):
        """n statements at indentation ind."""
        lines = []
        names = [f for f, _ in self.FEATURES]
        weights = [w for _, w in self.FEATURES]
        tries = 0
        while n > 0 and tries < 4 * n + 10:
            tries += 1
            f = self.r.choices(names, weights)[0]
            got = getattr(self, f)(scope, ind, ctx)
            if got:
                lines += got
                n -= 1
        if ctx.get("loop") and self.r.random() < 0.4:
            lines += self.loop_exit(scope, ind)
        return lines or [("    " * ind) + "pass"]

    def nested(self, scope, ind, ctx, **more):
        sub = dict(ctx, depth=ctx.get("depth", 0) + 1, **more)
        return self.block(scope.child(), ind, self.r.randrange(1, 4), sub)

    def deep(self, ctx):
        return ctx.get("depth", 0) >= 2

    def new(self, scope, prefix, t):
        name = self.fresh(prefix)
        scope.vars[name] = t
        return name

    # ---- scalars ---------------------------------------------------------
    def s_scalar(self, scope, ind, ctx):
        t = self.r.choices([INT, FLOAT, BOOL, CPLX], [4, 4, 2, 1])[0]
        e = self.expr(scope, t, 3)
        return [f"{'    ' * ind}{self.new(scope, 'x', t)} = {e}"]

    def rebindable(self, scope, pred):
        return [(n, t) for n, t in scope.all().items() if pred(t) and not scope.is_frozen(n)]

    def s_aug(self, scope, ind, ctx):
        vs = self.rebindable(scope, lambda t: t in AUG)
        if not vs:
            return None
        n, t = self.r.choice(vs)
        return [f"{'    ' * ind}{n} {self.r.choice(AUG[t])} {self.expr(scope, t, 2)}"]

    def s_rebind(self, scope, ind, ctx):
        vs = self.rebindable(scope, lambda t: t in (INT, FLOAT, BOOL, CPLX))
        if not vs:
            return None
        n, t = self.r.choice(vs)
        return [f"{'    ' * ind}{n} = {self.expr(scope, t, 2)}"]

    def s_swap(self, scope, ind, ctx):
        """u, v = v, u of any kind of value; in a nested block only between
        arrays of equal dims."""
        vs = self.rebindable(scope, lambda t: not isinstance(t, (Func, Elem)))
        nested = ctx.get("depth", 0) > 0
        pairs = [(a, b) for i, a in enumerate(vs) for b in vs[i + 1:]
                 if same_kiln_type(a[1], b[1]) and (not nested or a[1] == b[1])]
        if not pairs:
            return None
        (u, tu), (v, tv) = self.r.choice(pairs)
        scope.set_type(u, tv)
        scope.set_type(v, tu)
        return [f"{'    ' * ind}{u}, {v} = {v}, {u}"]

    def s_tuple(self, scope, ind, ctx):
        r = self.r
        items, texts = [], []
        for _ in range(r.randrange(2, 4)):
            if r.random() < 0.3:
                got = self.arrays(scope)
                if got:
                    n, t = r.choice(got)
                    items.append(t)
                    texts.append(n)
                    continue
            t = r.choice([INT, FLOAT, BOOL])
            items.append(t)
            texts.append(self.expr(scope, t, 1))
        tv = self.new(scope, "t", Tup(tuple(items)))
        sp = "    " * ind
        lines = [f"{sp}{tv} = ({', '.join(texts)},)"]
        c = r.randrange(3)
        if c == 0:
            names = [self.new(scope, "u", t) for t in items]
            lines.append(f"{sp}{', '.join(names)} = {tv}")
        elif c == 1:
            k = r.randrange(len(items))
            lines.append(f"{sp}{self.new(scope, 'u', items[k])} = {tv}[{k}]")
        elif all(not isinstance(t, Arr) for t in items):   # a constant slice of a tuple of numbers
            bounds = [r.choice(["", str(r.randrange(-4, 5))]) for _ in range(2)]
            step = r.choice(["", "", "-1", "2", "-2"])
            text = ":".join(bounds) + (f":{step}" if step else "")
            taken = tuple(eval(f"items[{text}]", {"items": items}))
            if taken:
                lines.append(f"{sp}{self.new(scope, 't', Tup(taken))} = {tv}[{text}]")
            if r.random() < 0.5:   # joined with a tuple display, on either side
                extra = [r.choice([INT, FLOAT, BOOL]) for _ in range(r.randrange(0, 3))]
                display = "(" + "".join(f"{self.expr(scope, t, 1)}, " for t in extra) + ")"
                plain = display[1:-1].rstrip(", ")
                if r.random() < 0.5:
                    joined = Tup(tuple(items) + tuple(extra))
                    text = r.choice([f"{tv} + {display}", f"(*{tv}, {plain})" if plain else f"(*{tv},)"])
                else:
                    joined = Tup(tuple(extra) + tuple(items))
                    text = r.choice([f"{display} + {tv}", f"({plain}, *{tv})" if plain else f"(*{tv},)"])
                lines.append(f"{sp}{self.new(scope, 't', joined)} = {text}")
        return lines

    # ---- arrays ----------------------------------------------------------
    def s_array_new(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        src = self.arrays(scope)
        c = r.randrange(9)
        dt = r.choice(["float64", "int64", "int32", "float32", "bool", "uint8", "int8"])
        if src and c <= 3:
            n, t = r.choice(src)
            fn = ["copy", "np.zeros_like", "np.ones_like", "np.empty_like"][c]
            if fn == "copy":
                return [f"{sp}{self.new(scope, 'a', t)} = {n}.copy()"]
            fill = self.store_value(scope, t.dtype)   # before the new name exists: empty holds garbage
            v = self.new(scope, "a", t)
            out = [f"{sp}{v} = {fn}({n})"]
            if fn == "np.empty_like":
                out.append(f"{sp}{v}.fill({fill})")
            return out
        dims = None
        if src and r.random() < 0.8:
            n, t = r.choice(src)
            dims = t.dims[:r.randrange(1, len(t.dims) + 1)] if r.random() < 0.3 else t.dims
            shape = self.shape_text(scope, dims)
        else:
            k = r.randrange(0, 5)
            dims = (str(k),)
            shape = f"({k},)"
        if c == 4:
            return [f"{sp}{self.new(scope, 'a', Arr(dt, dims))} = np.zeros({shape}, dtype={npname(dt)})"]
        if c == 5:
            fill = self.store_value(scope, dt)
            v = self.new(scope, "a", Arr(dt, dims))
            return [f"{sp}{v} = np.empty({shape}, dtype={npname(dt)})", f"{sp}{v}.fill({fill})"]
        if c == 6 and len(dims) == 1:
            if r.random() < 0.5:
                return [f"{sp}{self.new(scope, 'a', Arr('int64', dims))} = np.arange({shape[1:-2]})"]
            lo, hi = r.choice([("0.0", "1.0"), ("-2.5", "4.0"), ("1", "10")])
            return [f"{sp}{self.new(scope, 'a', Arr('float64', dims))} = np.linspace({lo}, {hi}, {shape[1:-2]})"]
        if c == 7:
            val = self.store_value(scope, dt, literal=True)
            return [f"{sp}{self.new(scope, 'a', Arr(dt, dims))} = np.full({shape}, {val}, dtype={npname(dt)})"]
        if r.random() < 0.5:   # np.array of nested lists: a row per inner list
            rows, cols = r.randrange(1, 4), r.randrange(1, 4)
            text = ", ".join("[" + ", ".join(self.store_value(scope, dt) for _ in range(cols)) + "]"
                             for _ in range(rows))
            return [f"{sp}{self.new(scope, 'a', Arr(dt, (str(rows), str(cols))))} = np.array([{text}], dtype={npname(dt)})"]
        return [f"{sp}{self.new(scope, 'a', Arr(dt, dims))} = np.ones({shape}, dtype={npname(dt)})"]

    def store_value(self, scope, dtype, literal=False):
        """A scalar NumPy stores into an array of dtype as Kiln does: the
        array's own kind, and for the narrow ints a literal in range."""
        k = kind(dtype)
        if k == "b":
            return self.expr(scope, BOOL, 1) if not literal else "True"
        if k == "f":
            return self.expr(scope, FLOAT, 1) if not literal and dtype == "float64" else self.r.choice(["1.5", "-0.25", "3.0"])
        if dtype == "int64" and not literal:
            return self.expr(scope, INT, 2)
        return str(self.r.choice([0, 1, 7, 100] + ([-3, -100] if k == "i" else [200])))

    def s_array_expr(self, scope, ind, ctx):
        got = self.arr_expr(scope, 3)
        if got is None:
            return None
        text, t = got
        return [f"{'    ' * ind}{self.new(scope, 'a', t)} = {text}"]

    def s_array_rebind(self, scope, ind, ctx):
        """An array name (an argument too) bound to a new value: in nested
        blocks of the same dtype and dims."""
        vs = self.rebindable(scope, lambda t: isinstance(t, Arr))
        if not vs:
            return None
        n, t = self.r.choice(vs)
        top = ctx.get("depth", 0) == 0
        if top and self.r.random() < 0.4:
            text, nt = self.view(n, t)
            scope.set_type(n, nt)
            return [f"{'    ' * ind}{n} = {text}"]
        got = self.arr_expr(scope, 2, t.dims)
        if got is None or got[1].dtype != t.dtype or got[1].dims != t.dims:
            if self.r.random() < 0.5:
                return [f"{'    ' * ind}{n} = {n}[::-1]"] if len(t.dims) == 1 else None
            return [f"{'    ' * ind}{n} = {n}.copy()"]
        return [f"{'    ' * ind}{n} = {got[0]}"]

    def s_array_write(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        picked = self.some_array(scope)
        if not picked:
            return None
        n, t = picked
        c = r.randrange(4)
        if c == 0:
            # now and then two elements at once (`a[i] = a[j] = v`: v once, then the targets left to right)
            targets = [self.element(scope, n, t) for _ in range(1 if r.random() < 0.7 else 2)]
            return [f"{sp}{' = '.join(targets)} = {self.store_value(scope, t.dtype)}"]
        if c == 1:
            sl = r.choice(["[::2]", "[1:]", "[:]", "[::-1]", "[...]"])
            if sl != "[...]" and r.random() < 0.2:   # the slice as an object first: s = slice(None, None, 2)
                name = self.fresh("sl")
                bounds = {"[::2]": "None, None, 2", "[1:]": "1, None", "[:]": "None", "[::-1]": "None, None, -1"}[sl]
                return [f"{sp}{name} = slice({bounds})",
                        f"{sp}{n}[{name}] = {self.store_value(scope, t.dtype, literal=True)}"]
            return [f"{sp}{n}{sl} = {self.store_value(scope, t.dtype, literal=True)}"]
        got = self.arr_expr(scope, 2, t.dims)
        if got is None or broadcast(got[1].dims, t.dims) != t.dims:
            return None
        text, g = got
        if c == 2:
            if not np.can_cast(g.dtype, t.dtype, "safe"):
                return None
            return [f"{sp}{n}[...] = {text}"]
        if kind(t.dtype) == "b":
            return None
        op = r.choice(["+=", "-=", "*="])
        res = dtype_of(lambda: eval(f"x {op[0]} y", {"x": witness(t.dtype), "y": witness(g.dtype)}))
        if res is None or not np.can_cast(res, t.dtype, "same_kind"):
            return None
        return [f"{sp}{n} {op} {text}"]

    def s_overlap(self, scope, ind, ctx):
        """A write into an array of a value computed from another view of the
        same array (NumPy computes it as if from a copy)."""
        r = self.r
        sp = "    " * ind
        vs = self.arrays(scope, lambda a: a.dtype != "bool")
        if not vs:
            return None
        n, t = r.choice(vs)
        nd = len(t.dims)
        op = r.choice(["+", "-", "*"])
        lit = r.choice(["1", "2", "3"])
        forms = [(f"{n}[::-1]", f"{n}"), (f"{n}", f"{n}[::-1]"), (f"{n}[1:]", f"{n}[:-1]"), (f"{n}[:-1]", f"{n}[1:]")]
        if nd >= 2:
            forms += [(f"{n}[:, ::-1]", f"{n}"), (f"{n}[1:, :]", f"{n}[:-1, :]"), (f"{n}[:, 1:]", f"{n}[:, :-1]")]
            if t.dims[0] == t.dims[1] and nd == 2:
                forms += [(f"{n}", f"{n}.T"), (f"{n}.T", f"{n}")]
        target, source = r.choice(forms)
        if r.random() < 0.5 and not target.endswith(".T"):   # `a.T += b` would set the attribute T
            return [f"{sp}{target} {op}= {source}"]
        dt = dtype_of(lambda: eval(f"x {op} y * {lit}", {"x": witness(t.dtype), "y": witness(t.dtype)}))
        if dt is None or not np.can_cast(dt, t.dtype, "safe"):
            return [f"{sp}{target}[...] = {source}"]
        return [f"{sp}{target}[...] = {source} {op} {source} * {lit}"]

    def s_reduce(self, scope, ind, ctx):
        r = self.r
        picked = self.some_array(scope)
        if not picked:
            return None
        n, t = picked
        if r.random() < 0.3:   # a reduction of an expression: Kiln fuses it into one pass
            got = self.arr_expr(scope, 2, t.dims)
            if got is not None and got[1].dims == t.dims:
                n, t = got
        sp = "    " * ind
        fn = r.choice(["np.sum", "np.prod", "np.min", "np.max", "np.mean", "np.argmax", "np.argmin", "np.any",
                       "np.all"])
        if len(t.dims) >= 2 and r.random() < 0.6:
            ax = r.randrange(len(t.dims))
            if r.random() < 0.5:
                ax_text = f"axis={ax}"
            else:
                ax_text = str(ax)
            dt = dtype_of(lambda: getattr(np, fn[3:])(np.ones((2,) * len(t.dims), t.dtype), axis=ax))
            if dt is None:
                return None
            dims = t.dims[:ax] + t.dims[ax + 1:]
            return [f"{sp}{self.new(scope, 'a', Arr(dt, dims))} = {fn}({n}, {ax_text})"]
        fn = self.whole_reduction(fn, t.dtype)
        dt = dtype_of(lambda: getattr(np, fn[3:])(witness(t.dtype)))
        if dt is None:
            return None
        st = self.scalar_kind_of(dt)
        if fn in ("np.argmax", "np.argmin"):
            st = INT
        return [f"{sp}{self.new(scope, 'x', st)} = {self.convert(dt, f'{fn}({n})')}"]

    def s_np_func(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        picked = self.some_array(scope)
        if not picked:
            return None
        n, t = picked
        nd = len(t.dims)
        c = r.randrange(9)
        if c == 0:
            dt = dtype_of(lambda: np.cumsum(witness(t.dtype)))
            if dt is None:
                return None
            return [f"{sp}{self.new(scope, 'a', Arr(dt, ('*'.join(t.dims),)))} = np.cumsum({n})"]
        if c == 1:
            return [f"{sp}{self.new(scope, 'a', t)} = np.sort({n})"]
        if c == 2 and nd == 1:
            others = self.arrays(scope, lambda a: a.dims == t.dims and a.dtype != "bool")
            if t.dtype == "bool" or not others:
                return None
            m, u = r.choice(others)
            dt = dtype_of(lambda: np.dot(witness(t.dtype), witness(u.dtype)))
            if dt is None:
                return None
            return [f"{sp}{self.new(scope, 'x', self.scalar_kind_of(dt))} = {self.convert(dt, f'np.dot({n}, {m})')}"]
        if c == 3 and nd == 2 and t.dtype != "bool":
            others = self.arrays(scope, lambda a: len(a.dims) == 2 and a.dims[0] == t.dims[1] and a.dtype != "bool")
            if not others:
                return None
            m, u = r.choice(others)
            dt = dtype_of(lambda: np.dot(np.ones((2, 2), t.dtype), np.ones((2, 2), u.dtype)))
            if dt is None:
                return None
            return [f"{sp}{self.new(scope, 'a', Arr(dt, (t.dims[0], u.dims[1])))} = np.dot({n}, {m})"]
        if c == 4 and nd == 1:
            others = self.arrays(scope, lambda a: len(a.dims) == 1)
            m, u = r.choice(others)
            dt = dtype_of(lambda: np.concatenate((witness(t.dtype), witness(u.dtype))))
            if dt is None:
                return None
            return [f"{sp}{self.new(scope, 'a', Arr(dt, (t.dims[0] + '+' + u.dims[0],)))} = np.concatenate(({n}, {m}))"]
        if c == 5 and nd == 1 and t.dtype != "bool":
            dt = dtype_of(lambda: np.diff(witness(t.dtype)))
            return [f"{sp}{self.new(scope, 'a', Arr(dt, (t.dims[0] + '-1',)))} = np.diff({n})"] if dt else None
        if c == 6:
            return [f"{sp}{self.new(scope, 'a', t)} = np.flip({n})"] if nd == 1 else None
        if c == 7 and kind(t.dtype) in "iuf":
            lo, hi = (0, 9) if kind(t.dtype) in "iu" else (-0.5, 0.5)
            dt = dtype_of(lambda: np.clip(witness(t.dtype), lo, hi))
            return [f"{sp}{self.new(scope, 'a', Arr(dt, t.dims))} = np.clip({n}, {lo}, {hi})"] if dt else None
        if c == 8 and nd >= 2:
            return [f"{sp}{self.new(scope, 'a', Arr(t.dtype, tuple(reversed(t.dims))))} = {n}.T.copy()"]
        return None

    # ---- control flow ----------------------------------------------------
    def s_if(self, scope, ind, ctx):
        if self.deep(ctx):
            return None
        r = self.r
        sp = "    " * ind
        cond = self.expr(scope, BOOL, 2)
        lines = [f"{sp}if {cond}:"]
        if r.random() < 0.25:
            lines += [f"{sp}    return {self.ret_expr(scope)}"]
        else:
            lines += self.nested(scope, ind + 1, ctx)
        for _ in range(r.choice([0, 0, 1, 2])):
            lines += [f"{sp}elif {self.expr(scope, BOOL, 2)}:"] + self.nested(scope, ind + 1, ctx)
        if r.random() < 0.5:
            lines += [f"{sp}else:"] + self.nested(scope, ind + 1, ctx)
        return lines

    def s_raise(self, scope, ind, ctx):
        exc = self.r.choice(["ValueError", "IndexError", "ZeroDivisionError", "KeyError"])
        sp = "    " * ind
        cond = self.expr(scope, BOOL, 2)
        return [f"{sp}if {cond}:", f"{sp}    raise {exc}(\"generated {self.fresh('e')}\")"]

    def s_try(self, scope, ind, ctx):
        """try / except around a block that may raise (a raise statement, or
        a division, a missing key, a pop of an empty list): the exception
        is caught in compiled code, with what the block allocated alive."""
        if self.deep(ctx):
            return None
        r = self.r
        sp = "    " * ind
        excs = ["ValueError", "ZeroDivisionError", "KeyError", "IndexError"]
        caught = r.sample(excs, r.choice([1, 1, 2]))
        body = self.nested(scope, ind + 1, ctx)
        risky = r.randrange(3)
        if risky == 0:
            body += [f"{sp}    if {self.expr(scope, BOOL, 1)}:", f"{sp}        raise {r.choice(caught)}(\"caught {self.fresh('e')}\")"]
        elif risky == 1:
            body += [f"{sp}    {self.new(scope.child(), 'x', INT)} = {self.expr(scope, INT, 1)} // {self.expr(scope, INT, 1)}"]
        else:
            body += self.nested(scope, ind + 1, ctx)
        handler = f"except ({', '.join(caught)},):" if len(caught) > 1 else f"except {caught[0]}:"
        return [f"{sp}try:"] + body + [sp + handler] + self.nested(scope, ind + 1, ctx)

    def loop_exit(self, scope, ind):
        sp = "    " * ind
        return [f"{sp}if {self.expr(scope, BOOL, 1)}:", f"{sp}    {self.r.choice(['break', 'continue'])}"]

    def s_for_range(self, scope, ind, ctx):
        if self.deep(ctx):
            return None
        r = self.r
        sp = "    " * ind
        i = self.fresh("i")
        inner = scope.child()
        inner.vars[i] = INT
        inner.frozen.add(i)
        arrs = self.arrays(scope)
        if arrs and r.random() < 0.7:
            n, t = r.choice(arrs)
            ax = r.randrange(len(t.dims))
            inner.index_of[i] = t.dims[ax]
            head = f"for {i} in range({n}.shape[{ax}]):"
            if r.random() < 0.2:
                head = f"for {i} in range({n}.shape[{ax}] - 1, -1, -1):"
        else:
            head = f"for {i} in range({self.small_int_leaf(scope)} % {r.randrange(1, 9)}):"
        body = self.block(inner, ind + 1, r.randrange(1, 4), dict(ctx, depth=ctx.get("depth", 0) + 1, loop=True))
        return [sp + head] + body

    def s_for_iter(self, scope, ind, ctx):
        if self.deep(ctx):
            return None
        r = self.r
        sp = "    " * ind
        inner = scope.child()
        x = self.fresh("x")
        opts = []
        for n, t in scope.all().items():
            if isinstance(t, Arr) and len(t.dims) == 1:
                opts.append((f"for {x} in {n}:", {x: Elem(t.dtype)}))
            elif isinstance(t, Lst):
                k = self.fresh("k")
                opts.append((f"for {x} in {n}:", {x: t.elem}))
                opts.append((f"for {k}, {x} in enumerate({n}):", {x: t.elem, k: INT}))
            elif isinstance(t, Dct):
                k = self.fresh("k")
                opts.append((f"for {k} in {n}:", {k: INT}))
                opts.append((f"for {k}, {x} in {n}.items():", {k: INT, x: t.val}))
            elif isinstance(t, St):
                opts.append((f"for {x} in sorted({n}):", {x: INT}))
        if not opts:
            return None
        head, binds = r.choice(opts)
        inner.vars.update(binds)
        inner.frozen.update(binds)
        inner.frozen.update(n for n in scope.all() if f" {n}" in head or f"({n})" in head)   # not grown while iterated
        body = self.block(inner, ind + 1, r.randrange(1, 3), dict(ctx, depth=ctx.get("depth", 0) + 1, loop=True))
        return [sp + head] + body

    def s_while(self, scope, ind, ctx):
        if self.deep(ctx):
            return None
        sp = "    " * ind
        k = self.new(scope, "w", INT)
        scope.frozen.add(k)
        inner = scope.child()
        bound = f"{self.small_int_leaf(scope)} % {self.r.randrange(1, 8)}"
        body = self.block(inner, ind + 1, self.r.randrange(1, 3), dict(ctx, depth=ctx.get("depth", 0) + 1, loop=True))
        return [f"{sp}{k} = 0", f"{sp}while {k} < {bound}:", f"{sp}    {k} += 1"] + body

    # ---- containers ------------------------------------------------------
    def s_list(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        mine = self.rebindable(scope, lambda t: isinstance(t, Lst))
        if mine and r.random() < 0.5:
            n, t = r.choice(mine)
            c = r.randrange(5)
            if c == 0:
                return [f"{sp}{n}.append({self.expr(scope, t.elem, 2)})"]
            if c == 1:
                return [f"{sp}{self.new(scope, 'x', t.elem)} = {n}.pop()"]
            if c == 2:
                fn = r.choice(["max", "min", "sum"])
                text = f"(0.0 + sum({n}))" if fn == "sum" and t.elem == FLOAT else f"{fn}({n})"   # as above
                return [f"{sp}{self.new(scope, 'x', t.elem)} = {text}"]
            if c == 3:
                return self.list_method(scope, sp, n, t)
            return [f"{sp}{self.new(scope, 'l', t)} = sorted({n})"]
        elem = r.choice([INT, FLOAT])
        v = self.fresh("l")
        if r.random() < 0.5:
            lines = [f"{sp}{v} = {self.list_expr(scope, elem, 2)}"]
        else:
            i = self.fresh("i")
            inner = scope.child()
            inner.vars[i] = INT
            lines = [f"{sp}{v} = [{self.expr(scope, elem, 1)}]",
                     f"{sp}for {i} in range({self.small_int_leaf(scope)} % {r.randrange(1, 9)}):",
                     f"{sp}    {v}.append({self.expr(inner, elem, 2)})"]
        scope.vars[v] = Lst(elem)
        return lines

    def list_method(self, scope, sp, n, t):
        """A call of one of the other methods of list n. Searching and
        sorting only lists of ints: CPython finds a NaN by identity, and
        sorts around NaNs in an order of its own algorithm."""
        r = self.r
        ints = t.elem == INT
        c = r.choice(["insert", "extend", "copy", "reverse", "pop_at"] + ["remove", "count", "index", "sort"] * ints)
        if c == "insert":
            return [f"{sp}{n}.insert({self.expr(scope, INT, 1)}, {self.expr(scope, t.elem, 2)})"]
        if c == "extend":
            return [f"{sp}{n}.extend({self.list_expr(scope, t.elem, 1)})"]
        if c == "copy":
            return [f"{sp}{self.new(scope, 'l', t)} = {n}.copy()"]
        if c == "reverse":
            return [f"{sp}{n}.reverse()"]
        if c == "pop_at":   # IndexError where the list is empty or the index past its end, in both
            i = self.expr(scope, INT, 1)
            return [f"{sp}{self.new(scope, 'x', t.elem)} = {n}.pop({i} % 5 - 2)"]
        if c == "sort":
            return [f"{sp}{n}.sort(reverse={self.expr(scope, BOOL, 1)})"]
        e = self.expr(scope, INT, 1)   # before x is in scope, to be read
        x = self.new(scope, "x", INT)
        lines = [f"{sp}{x} = {e} % 4"]
        if c == "remove":   # ValueError where absent, in both
            return lines + [f"{sp}{n}.remove({x})"]
        if c == "count":
            return lines + [f"{sp}{self.new(scope, 'x', INT)} = {n}.count({x})"]
        return lines + [f"{sp}{self.new(scope, 'x', INT)} = {n}.index({x}) if {x} in {n} else -1"]

    def s_dict(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        mine = self.rebindable(scope, lambda t: isinstance(t, Dct))
        if mine and r.random() < 0.5:
            n, t = r.choice(mine)
            c = r.randrange(6)
            k = self.expr(scope, INT, 1)
            if c == 0:
                return [f"{sp}{n}[{k}] = {self.expr(scope, t.val, 2)}"]
            if c == 1:
                return [f"{sp}{self.new(scope, 'x', t.val)} = {n}.get({k}, {self.lit(t.val)})"]
            if c == 2:
                return [f"{sp}{self.new(scope, 'x', t.val)} = {n}.pop({k}, {self.lit(t.val)})"]
            if c == 3:
                v = self.expr(scope, t.val, 2)
                return [f"{sp}{self.new(scope, 'x', t.val)} = {n}.setdefault({k}, {v})"]
            if c == 4:
                return [f"{sp}{self.new(scope, 'd', t)} = {n}.copy()"]
            return [f"{sp}{self.new(scope, 'x', t.val)} = {n}[{k}]"]
        val = r.choice([INT, FLOAT])
        v = self.fresh("d")
        i = self.fresh("i")
        inner = scope.child()
        inner.vars[i] = INT
        bound = f"{self.small_int_leaf(scope)} % {r.randrange(1, 9)}"
        if r.random() < 0.4:
            lines = [f"{sp}{v} = {{{self.expr(inner, INT, 1)}: {self.expr(inner, val, 1)} for {i} in range({bound})}}"]
        else:
            key = f"{self.expr(inner, INT, 1)} % {r.randrange(1, 6)}"
            upd = (f"{v}.get({key}, {self.lit(val)}) + {self.expr(inner, val, 1)}" if r.random() < 0.5
                   else self.expr(inner, val, 2))
            lines = [f"{sp}{v} = {{}}", f"{sp}for {i} in range({bound}):",
                     f"{sp}    {v}[{key}] = {upd}"]
            lines = [f"{sp}{v} = {{{self.lit(INT)}: {self.lit(val)}}}"] + lines[1:] if r.random() < 0.3 else lines
        scope.vars[v] = Dct(INT, val)
        return lines

    def s_set(self, scope, ind, ctx):
        r = self.r
        sp = "    " * ind
        mine = self.rebindable(scope, lambda t: isinstance(t, St))
        if mine and r.random() < 0.5:
            n, t = r.choice(mine)
            c = r.randrange(4)
            if c == 0:
                return [f"{sp}{n}.{r.choice(['add', 'discard', 'remove'])}({self.expr(scope, INT, 2)})"]
            other = (r.choice(mine)[0] if r.random() < 0.5
                     else f"{{{self.expr(scope, INT, 1)} % 4, {self.expr(scope, INT, 1)} % 4}}")
            if c == 1:
                m = r.choice(["union", "intersection", "difference", "symmetric_difference"])
                return [f"{sp}{self.new(scope, 's', t)} = {n}.{m}({other})"]
            if c == 2:
                m = r.choice(["issubset", "issuperset", "isdisjoint"])
                return [f"{sp}{self.new(scope, 'x', BOOL)} = {n}.{m}({other})"]
            return [f"{sp}{n}.update({other})"]
        v = self.fresh("s")
        i = self.fresh("i")
        inner = scope.child()
        inner.vars[i] = INT
        bound = f"{self.small_int_leaf(scope)} % {r.randrange(1, 9)}"
        if r.random() < 0.5:
            lines = [f"{sp}{v} = {{{self.expr(inner, INT, 1)} % {r.randrange(1, 6)} for {i} in range({bound})}}"]
        else:
            lines = [f"{sp}{v} = set()", f"{sp}for {i} in range({bound}):",
                     f"{sp}    {v}.add({self.expr(inner, INT, 2)})"]
        scope.vars[v] = St(INT)
        return lines

    def s_array_container(self, scope, ind, ctx):
        """Lists and dicts holding arrays (each holds a reference on its
        arrays): made, grown, read, and rebound. Their arrays are all new
        (C order): Kiln's containers hold arrays of one layout (documented)."""
        r = self.r
        sp = "    " * ind
        mine = self.rebindable(scope, lambda t: isinstance(t, (LstA, DctA)))
        if mine and r.random() < 0.6:
            n, t = r.choice(mine)
            same = self.arrays(scope, lambda a: a.dtype == t.dtype and len(a.dims) == t.ndim)
            c = r.randrange(3)
            if c == 0 and same:
                m, _ = r.choice(same)
                val = r.choice([f"{m}.copy()", f"{m} * 2" if t.dtype != "bool" else f"~{m}"])
                if isinstance(t, LstA):
                    return [f"{sp}{n}.append({val})"]
                return [f"{sp}{n}[{self.expr(scope, INT, 1)} % 4] = {val}"]
            pick = (f"{n}[{self.small_int_leaf(scope)} % len({n})]" if isinstance(t, LstA)
                    else f"{n}[{r.choice(list(range(4)))}]")
            if c == 1:
                return [f"{sp}{self.new(scope, 'x', FLOAT)} = float(np.sum({pick}))"]
            return [f"{sp}{self.new(scope, 'x', INT)} = len({n})"]
        arrs = self.arrays(scope)
        if not arrs:
            return None
        m, a = r.choice(arrs)
        v = self.fresh("l")
        if r.random() < 0.5:
            i = self.fresh("i")
            lines = [f"{sp}{v} = [{m}.copy()]", f"{sp}for {i} in range({self.small_int_leaf(scope)} % 4):",
                     f"{sp}    {v}.append({m}.copy())"]
            scope.vars[v] = LstA(a.dtype, len(a.dims))
        else:
            lines = [f"{sp}{v} = {{0: {m}.copy(), 1: {m}.copy(), 2: {m}.copy(), 3: {m}.copy()}}"]
            scope.vars[v] = DctA(a.dtype, len(a.dims))
        return lines

    # ---- functions -------------------------------------------------------
    def s_inner_def(self, scope, ind, ctx):
        """An inner def reading the enclosing function's variables."""
        if ctx.get("fn") != "entry" or ctx.get("depth", 0) > 0:
            return None
        r = self.r
        sp = "    " * ind
        name = self.fresh("g")
        ret = r.choice([INT, FLOAT, FLOAT, BOOL])
        params = []
        inner = scope.child()
        for _ in range(r.randrange(1, 3)):
            p = self.fresh("p")
            pt = r.choice([INT, FLOAT])
            params.append((p, pt, None))   # Kiln refuses defaults of inner defs (documented)
            inner.vars[p] = pt
        sig = ", ".join(p for p, _, _ in params)
        lines = [f"{sp}def {name}({sig}):"]
        if r.random() < 0.4:
            e = self.expr(inner, FLOAT, 2)
            lines.append(f"{sp}    {self.new(inner, 'q', FLOAT)} = {e}")
        lines.append(f"{sp}    return {self.expr(inner, ret, 2)}")
        scope.vars[name] = Func(tuple(params), ret)
        return lines

    def s_call_helper(self, scope, ind, ctx):
        hs = [(n, f) for n, f in self.helpers.items()]
        if not hs:
            return None
        n, f = self.r.choice(hs)
        t = f.ret if not isinstance(f.ret, Arr) else Arr(f.ret.dtype, (self.fresh("r"),) * len(f.ret.dims))
        if isinstance(t, Arr) and len(t.dims) > 1:
            t = Arr(t.dtype, tuple(self.fresh("r") for _ in t.dims))
        text = self.call(scope, n, f)
        return [f"{'    ' * ind}{self.new(scope, 'h', t)} = {text}"]

    def s_prange(self, scope, ind, ctx):
        """Independent iterations: each writes its own element of a new
        array, or adds into a new scalar."""
        if not self.parallel or ctx.get("depth", 0) > 0:
            return None
        r = self.r
        sp = "    " * ind
        arrs = self.arrays(scope)
        if not arrs:
            return None
        n, t = r.choice(arrs)
        i = self.fresh("i")
        inner = scope.child()
        inner.vars[i] = INT
        inner.frozen.add(i)
        inner.index_of[i] = t.dims[0]
        if r.random() < 0.5:
            kindt = r.choice([FLOAT, INT])
            dt = "float64" if kindt == FLOAT else "int64"
            out = self.fresh("o")
            lines = [f"{sp}{out} = np.zeros({n}.shape[0], dtype={npname(dt)})",
                     f"{sp}for {i} in prange({n}.shape[0]):",
                     f"{sp}    {out}[{i}] = {self.expr(inner, kindt, 3)}"]
            scope.vars[out] = Arr(dt, (t.dims[0],))
            scope.frozen.add(out)
            return lines
        kindt = r.choice([FLOAT, INT])
        s = self.fresh("x")
        start = "0.0" if kindt == FLOAT else self.lit(kindt)
        lines = [f"{sp}{s} = {start}", f"{sp}for {i} in prange({n}.shape[0]):",
                 f"{sp}    {s} += {self.expr(inner, kindt, 2)}"]
        scope.vars[s] = kindt
        return lines

    # ---- returns ---------------------------------------------------------
    def ret_expr(self, scope):
        return ", ".join(self.value_of(scope, t) for t in self.ret)

    def value_of(self, scope, t):
        """An expression of type t (Kiln's type: an array of any dims)."""
        r = self.r
        if t in (INT, FLOAT, BOOL, CPLX):
            return self.expr(scope, t, 2)
        got = [n for n, vt in scope.all().items() if same_kiln_type(vt, t)]
        if got and r.random() < 0.85:
            return r.choice(got)
        if isinstance(t, Arr):
            return f"np.zeros(({', '.join('2' for _ in t.dims)},), dtype={npname(t.dtype)})"
        if isinstance(t, Lst):
            return f"[{self.expr(scope, t.elem, 1)}]"
        if isinstance(t, Dct):
            return f"{{{self.lit(INT)}: {self.expr(scope, t.val, 1)}}}"
        if isinstance(t, St):
            return f"{{{self.expr(scope, INT, 1)}}}"
        if isinstance(t, LstA):
            return f"[np.zeros(({', '.join('2' for _ in range(t.ndim))},), dtype={npname(t.dtype)})]"
        if isinstance(t, DctA):
            return f"{{7: np.ones(({', '.join('2' for _ in range(t.ndim))},), dtype={npname(t.dtype)})}}"
        return "(" + ", ".join(self.value_of(scope, x) for x in t.items) + ",)"
