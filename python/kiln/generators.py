"""Generators in compiled code: a kiln generator function (one whose body
yields) runs where a compiled for loop iterates it, `for v in gen(n): ...`,
by writing its body into the loop's place. The front end (jit/frontend/generators.c)
hands each function's ast to `inline` before it reads it. The statements
`items = list(gen(n))`, `total = sum(gen(n))` and `items = [f(v) for v in
gen(n)]` are first written as such loops; the same consumers inside a
statement (`return sum(gen(n)) / n`, and `max(gen(n))`, `min`, `sorted`
of the list of items) are first computed on lines of their own, when the
statement would run them before anything else with an effect.

In the rewritten code the generator's body runs once, inside a one-pass
`while True: ... break` (the "run" loop); each `yield e` becomes
`v = e` followed by a copy of the for loop's body. Its names are renamed
`gen.name` (`gen#2.name` for a second loop over it in the same function),
so that they keep apart from the caller's and from another run's. What
Python does with jumps, this does with `break` and two flags:
- the loop body's `continue` leaves the copy of the body: the copy then sits
  in a one-pass loop of its own, whose `break` it becomes;
- the loop body's `break` and the generator's `return` end the run: they
  set the flag `gen.<stop>` and break, and after every loop of the generator
  that holds one, `if gen.<stop>: break` goes on outwards to the run loop;
- the for loop's `else` runs after the run unless the body broke out
  (the flag `gen.<broke>`).
Python evaluates a generator's body lazily, one item per `next`; the body
here runs interleaved with the loop's body in the same order, so the
results are the same. Kiln's own for loop never holds a generator object.

The generator's code is its own source, so the names it reads must mean in
the caller what they mean in its module (they are checked), and the
inlined statements carry the for loop's line, where a typing error in
them is shown."""
import ast
import copy
import functools
import inspect
import linecache
import textwrap
import types

from . import types as kt


class Refused(Exception):
    """A generator loop Kiln does not compile: node is where, in the
    calling function's ast; hint, what to do instead."""

    def __init__(self, node, message, hint=None):
        super().__init__(message)
        self.lineno = getattr(node, "lineno", 0)
        self.col_offset = getattr(node, "col_offset", 0)
        self.message = message
        self.hint = hint


def _yields(node):
    """Whether node's own code (not a function nested in it) yields."""
    stack = [node]
    while stack:
        n = stack.pop()
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.Yield, ast.YieldFrom)):
                return True
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)
    return False


def _is_generator_def(node):
    return isinstance(node, ast.FunctionDef) and _yields(node)


def _assigned_names(fdef):
    """The names a function's own code binds: its parameters and every
    name stored to (comprehension targets keep to their comprehension)."""
    names = {a.arg for a in fdef.args.args}
    stack = list(fdef.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
            continue
        if isinstance(n, (ast.Lambda, ast.comprehension, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return names


def _read_names(stmts):
    """Every name loaded in stmts (nested functions' included)."""
    out = set()
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
    return out


def _source_def(py_func):
    """The FunctionDef ast of a Python function, from its source."""
    code = py_func.__code__
    lines = linecache.getlines(code.co_filename)
    if not lines:
        raise OSError(f"no source for {code.co_filename}")
    block = inspect.getblock(lines[code.co_firstlineno - 1:])
    tree = ast.parse(textwrap.dedent("".join(block)))
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != code.co_name:
        raise OSError(f"line {code.co_firstlineno} of {code.co_filename} holds another function now")
    return fdef


def _constant(value):
    """An ast for a default value that is a constant, or None."""
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return ast.Constant(value)
    if isinstance(value, tuple):
        items = [_constant(v) for v in value]
        return None if any(i is None for i in items) else ast.Tuple(items, ast.Load())
    return None


def _same(a, b):
    """Whether two global values mean the same to compiled code."""
    if a is b:
        return True
    if type(a) is not type(b) or not isinstance(a, (bool, int, float, complex, str, tuple)):
        return False
    try:
        return bool(a == b)
    except Exception:   # a tuple holding arrays
        return False


_MISSING = object()


class _Renamer(ast.NodeTransformer):
    """Renames the given names (a generator's own, a comprehension's) by
    rename(name)."""

    def __init__(self, names, rename):
        self.names, self.rename = names, rename

    def visit_Name(self, node):
        if node.id in self.names:
            node.id = self.rename(node.id)
        return node


def _set_location(nodes, where, only_missing=False):
    """Gives the nodes under nodes where's location (only_missing: those
    made here, which have none)."""
    for root in nodes:
        for n in ast.walk(root):
            if "lineno" in n._attributes and not (only_missing and hasattr(n, "lineno")):
                n.lineno, n.col_offset = where.lineno, where.col_offset
                n.end_lineno, n.end_col_offset = where.end_lineno, where.end_col_offset


# Builtins that take all of a generator's items at once: computed on the
# list of them (`m = max(gen(n))` runs `items = list(gen(n)); m = max(items)`).
_WHOLE_CONSUMERS = ("max", "min", "sorted")


# Builtins whose call changes nothing and reads only its arguments: a
# generator's run may move ahead of them.
_PURE_BUILTINS = ("len", "abs", "min", "max", "float", "int", "bool", "round")


def _consumer(node, inliner):
    """Whether node consumes a generator in a form Kiln rewrites:
    list(gen(...)), sum(gen(...)[, start]), [e for v in gen(...) if c], or
    max/min/sorted(gen(...)), each builtin as Python's."""
    if isinstance(node, ast.ListComp):
        return (len(node.generators) == 1 and not node.generators[0].is_async and
                inliner.generator_of(node.generators[0].iter) is not None)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and
            not isinstance(node.args[0], ast.Starred)):
        return False
    name = node.func.id
    if name in ("list", "sum"):
        shape_ok = not node.keywords and len(node.args) <= (2 if name == "sum" else 1)
    elif name in _WHOLE_CONSUMERS:
        shape_ok = len(node.args) == 1
    else:
        return False
    return (shape_ok and inliner.lookup(name) is inliner.builtins.get(name) and
            inliner.generator_of(node.args[0]) is not None)


def _unconditional_consumers(expr, inliner):
    """The consumers in expr that may be computed before the rest of it, in
    Python's order of evaluation: those it evaluates in every case, with
    nothing before them but names, constants, attributes and operators (no
    call, subscript or assignment expression, whose effect or read a
    generator run ahead could change)."""
    found = []
    blocked = False

    def visit(node, conditional):
        nonlocal blocked
        if _consumer(node, inliner):
            if conditional or blocked:
                blocked = True
            else:
                found.append(node)
            return
        if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.ListComp)):
            # only a comprehension's first iterable runs right away
            if not isinstance(node, ast.Lambda):
                visit(node.generators[0].iter, conditional)
            blocked = True
            return
        if isinstance(node, ast.BoolOp):
            parts = [(node.values[0], conditional)] + [(v, True) for v in node.values[1:]]
        elif isinstance(node, ast.IfExp):
            parts = [(node.test, conditional), (node.body, True), (node.orelse, True)]
        elif isinstance(node, ast.Compare):
            parts = ([(node.left, conditional), (node.comparators[0], conditional)] +
                     [(c, True) for c in node.comparators[1:]])
        else:
            parts = [(child, conditional) for child in ast.iter_child_nodes(node)]
        for child, cond in parts:
            visit(child, cond)
        pure_call = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PURE_BUILTINS
                     and inliner.lookup(node.func.id) is inliner.builtins.get(node.func.id))
        if isinstance(node, (ast.Call, ast.Subscript, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)) and not pure_call:
            blocked = True

    visit(expr, False)
    return found


class _Replacer(ast.NodeTransformer):
    """Puts a name where a consumer (or its generator call) was computed."""

    def __init__(self, moved):
        self.moved = moved

    def generic_visit(self, node):
        if id(node) in self.moved:
            return ast.copy_location(ast.Name(self.moved[id(node)], ast.Load()), node)
        return super().generic_visit(node)


def _flag(name, value):
    return ast.Assign([ast.Name(name, ast.Store())], ast.Constant(value))


def _break_if(flag):
    return ast.If(ast.Name(flag, ast.Load()), [ast.Break()], [])


class _Inliner:
    def __init__(self, fdef, globals_, closure, builtins):
        self.globals, self.closure, self.builtins = globals_, closure, builtins
        self.inner = {s.name: s for s in fdef.body if _is_generator_def(s)}
        self.runs = {}         # generator name: loops over it so far (for the prefix)
        self.active = []       # generators being inlined, for recursion
        self.hoisted = 0       # consumers computed ahead of their statement so far

    def lookup(self, name):
        for scope in (self.closure, self.globals, self.builtins):
            if name in scope:
                return scope[name]
        return _MISSING

    # ---- the caller's statements ----

    def block(self, stmts):
        out = []
        for s in stmts:
            computed_first, s = self.hoist(s)
            out.extend(self.block(computed_first))
            collected = self.collecting_loop(s)
            if collected is not None:   # name = list(gen(n)), sum(gen(n)), [f(v) for v in gen(n)]
                out.append(collected[0])
                s = collected[1]
            if isinstance(s, ast.For):
                gen = self.generator_of(s.iter)
                if gen is not None:
                    s.body = self.block(s.body)
                    s.orelse = self.block(s.orelse)
                    out.extend(self.run(s, *gen))
                    continue
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self.block(getattr(s, field)))
            for h in getattr(s, "handlers", ()):
                h.body = self.block(h.body)
            out.append(s)
        return out

    def collecting_loop(self, s):
        """For `name = list(gen(...))`, `name = sum(gen(...)[, start])` or
        `name = [elt for target in gen(...) if ...]`: (the statement that
        starts name, the for loop that fills it), else None. The loop's
        names get a suffix, `v<item>`, as a comprehension keeps its names
        to itself."""
        if not (isinstance(s, ast.Assign) and self.statement_form(s)):
            return None
        name, value = s.targets[0].id, s.value
        if isinstance(value, ast.ListComp):
            comp = value.generators[0]
            call, target, elt, ifs = comp.iter, comp.target, value.elt, comp.ifs
        else:
            call, target, elt, ifs = value.args[0], ast.Name("item", ast.Store()), ast.Name("item", ast.Load()), []
        own = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        renamer = _Renamer(own, lambda n: n + "<item>")
        target, elt = renamer.visit(target), renamer.visit(elt)
        ifs = [renamer.visit(c) for c in ifs]
        if isinstance(value, ast.Call) and value.func.id == "sum":
            start = value.args[1] if len(value.args) == 2 else ast.Constant(0)
            begin = ast.Assign([ast.Name(name, ast.Store())], start)
            step = ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), elt)
        else:
            begin = ast.Assign([ast.Name(name, ast.Store())], ast.List([], ast.Load()))
            step = ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()), [elt], []))
        for cond in reversed(ifs):
            step = ast.If(cond, [step], [])
        loop = ast.For(target, call, [step], [])
        _set_location([begin, loop], s, only_missing=True)
        return begin, loop

    def hoist(self, s):
        """For generators consumed inside an expression, `return sum(gen(n))
        / n` or `m = max(gen(n))`: the statements that compute each
        consumer into a name of its own first, in the statement forms
        collecting_loop writes as loops, and s reading those names. Only
        consumers Python would run before anything with an effect or a read
        of memory move, so that nothing runs in another order; the rest
        stay and are refused as before."""
        if isinstance(s, (ast.Return, ast.Expr)) or (isinstance(s, ast.Assign) and not self.statement_form(s)):
            field = "value"
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):   # x += ...: x is read first
            field = "value"
        elif isinstance(s, ast.If):
            field = "test"
        elif isinstance(s, ast.For) and self.generator_of(s.iter) is None:
            field = "iter"
        else:
            return [], s
        expr = getattr(s, field)
        if expr is None:
            return [], s
        first = []
        moved = {}
        for node in _unconditional_consumers(expr, self):
            gen_call = node.args[0] if isinstance(node, ast.Call) else node.generators[0].iter
            self.hoisted += 1
            name = f"{gen_call.func.id}<value#{self.hoisted}>"
            if isinstance(node, ast.Call) and node.func.id in _WHOLE_CONSUMERS:   # max of the list of its items
                computed, value = gen_call, ast.Call(ast.Name("list", ast.Load()), [gen_call], [])
            else:
                computed, value = node, node
            first.append(ast.Assign([ast.Name(name, ast.Store())], value))
            moved[id(computed)] = name
        if not first:
            return [], s
        _set_location(first, s, only_missing=True)
        setattr(s, field, _Replacer(moved).visit(expr))
        return first, s

    def statement_form(self, s):
        """Whether s is `name = consumer`, which collecting_loop rewrites."""
        return (len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and
                _consumer(s.value, self) and not (isinstance(s.value, ast.Call) and
                                                  s.value.func.id in _WHOLE_CONSUMERS))

    def generator_of(self, node):
        """(its FunctionDef, the kiln generator's Python function or None
        for an inner def) when node calls a generator function, else None."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        name = node.func.id
        if name in self.inner:
            return self.inner[name], None
        value = self.lookup(name)
        if isinstance(value, GeneratorFunction):
            try:
                return _source_def(value.py_func), value.py_func
            except (OSError, SyntaxError, IndexError) as e:
                raise Refused(node, f"cannot read the source of the generator {name} ({e})",
                              "Define it in a file or a notebook cell.") from None
        if inspect.isgeneratorfunction(value):
            raise Refused(node, f"{name} is a Python generator function, which compiled code cannot run",
                          "Decorate it with @kiln.njit.")
        return None

    # ---- one loop over a generator ----

    def run(self, loop, fdef, py_func):
        name = fdef.name   # messages and names say what the def is called, not the caller
        if name in self.active:
            raise Refused(loop.iter, f"the generator {name} runs itself: recursive generators are not supported")
        self.runs[name] = self.runs.get(name, 0) + 1
        prefix = f"{name}." if self.runs[name] == 1 else f"{name}#{self.runs[name]}."
        fdef = copy.deepcopy(fdef)
        self.check_signature(loop.iter, fdef, name)
        own = _assigned_names(fdef)
        if py_func is not None:
            self.check_globals(loop.iter, fdef, own, py_func, name)
        params = self.bind(loop.iter, fdef, py_func, name)
        body = [_Renamer(own, lambda n: prefix + n).visit(s) for s in fdef.body]
        _set_location(body, loop)   # the generator's lines are in another block, or file
        stop, broke = prefix + "<stop>", prefix + "<broke>"   # no Python name looks like these
        site = _Site(loop, stop, broke, name)
        self.active.append(name)
        try:
            body = self.block(body)   # loops over other generators inside it
        finally:
            self.active.pop()
        body, _ = site.rewrite(body, 0)
        out = [ast.Assign([ast.Name(prefix + p, ast.Store())], arg) for p, arg in params]
        out += [_flag(stop, False)] if site.uses_stop else []
        out += [_flag(broke, False)] if loop.orelse else []
        out.append(ast.While(ast.Constant(True), body + [ast.Break()], []))
        if loop.orelse:
            out.append(ast.If(ast.UnaryOp(ast.Not(), ast.Name(broke, ast.Load())), loop.orelse, []))
        _set_location(out, loop, only_missing=True)
        return out

    def check_signature(self, where, fdef, name):
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise Refused(where, f"the generator {name} takes *args, **kwargs or keyword-only parameters, "
                                 "which Kiln does not inline", "Give it positional parameters.")
        for n in ast.walk(fdef):
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                raise Refused(where, f"the generator {name} declares {type(n).__name__.lower()} names")

    def check_globals(self, where, fdef, own, py_func, name):
        for read in sorted(_read_names(fdef.body) - own):
            mine = py_func.__globals__.get(read, _MISSING)
            if mine is _MISSING:
                mine = self.builtins.get(read, _MISSING)
            if not _same(mine, self.lookup(read)):
                raise Refused(where, f"the generator {name} reads {read!r}, which means something else (or "
                                     f"nothing) where it is looped over",
                              f"Give {read!r} the same meaning in both modules, or pass it as a parameter.")

    def bind(self, call, fdef, py_func, name):
        """(parameter, argument ast) for each parameter, in order."""
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise Refused(call, f"{name}(*...) and {name}(**...) are not supported for generators",
                          "Pass each argument by itself.")
        params = [a.arg for a in fdef.args.args]
        if len(call.args) > len(params):
            raise Refused(call, f"{name}() takes {len(params)} positional argument(s) but {len(call.args)} were given")
        given = dict(zip(params, call.args))
        for k in call.keywords:
            if k.arg not in params or k.arg in given:
                raise Refused(call, f"{name}() got an unexpected or repeated argument {k.arg!r}")
            given[k.arg] = k.value
        defaults = dict(zip(params[len(params) - len(fdef.args.defaults):], fdef.args.defaults))
        out = []
        for p in params:
            if p in given:
                out.append((p, given[p]))
                continue
            if p not in defaults:
                raise Refused(call, f"{name}() missing required argument {p!r}")
            value = defaults[p]
            if py_func is not None:   # the value Python computed when the def ran
                value = _constant(py_func.__defaults__[params.index(p) - (len(params) - len(py_func.__defaults__))])
            elif not isinstance(value, (ast.Constant, ast.Tuple)):
                value = None
            if value is None:
                raise Refused(call, f"the default of {name}'s parameter {p!r} is not a constant", "Pass it in the call.")
            out.append((p, value))
        return out


class _Site:
    """The rewriting of one generator body for the loop that runs it."""

    def __init__(self, loop, stop, broke, name):
        self.loop, self.stop, self.broke, self.name = loop, stop, broke, name
        self.uses_stop = False
        jumps = _top_jumps(loop.body)
        self.body_breaks, self.body_continues = "break" in jumps, "continue" in jumps

    def rewrite(self, stmts, depth):
        """stmts of the generator at `depth` loops inside the run loop, and
        whether they may break out of the loop around them to end the run,
        which that loop's own parent must then do too (at depth 0 that loop
        is the run loop, and breaking it is the end)."""
        out, leaves = [], False
        for s in stmts:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield):
                out.extend(self.item(s.value))
                leaves |= self.body_breaks and depth > 0
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.YieldFrom):
                raise Refused(self.loop.iter, f"yield from in the generator {self.name} is not supported",
                              "Loop over the inner generator and yield each item.")
            elif isinstance(s, ast.Return):
                if s.value is not None and not (isinstance(s.value, ast.Constant) and s.value.value is None):
                    raise Refused(self.loop.iter, f"the generator {self.name} returns a value, which a for loop drops",
                                  "Use a bare return.")
                if depth > 0:
                    self.uses_stop = True
                    out.append(_flag(self.stop, True))
                    leaves = True
                out.append(ast.Break())
            elif isinstance(s, (ast.For, ast.While)):
                s.body, body_leaves = self.rewrite(s.body, depth + 1)
                s.orelse, else_leaves = self.rewrite(s.orelse, depth)
                out.append(s)
                if body_leaves:
                    out.append(_break_if(self.stop))
                leaves |= else_leaves or (body_leaves and depth > 0)
            elif isinstance(s, ast.If):
                s.body, a = self.rewrite(s.body, depth)
                s.orelse, b = self.rewrite(s.orelse, depth)
                out.append(s)
                leaves |= a or b
            elif _yields(s):
                raise Refused(self.loop.iter, f"the generator {self.name} yields inside {type(s).__name__.lower()} "
                                              "or as part of an expression, which Kiln does not inline",
                              "Yield only as a statement of its own, outside try and with.")
            else:
                out.append(s)
        return out, leaves

    def item(self, y):
        """What `yield value` becomes: the loop's target set, a copy of its
        body; a break in the body leaves the loop of the generator around
        (with the stop flag set), or the one-pass loop around the copy and
        then, by the flag, that loop."""
        value = y.value if y.value is not None else ast.Constant(None)
        out = [ast.Assign([copy.deepcopy(self.loop.target)], value)]
        body = _rewrite_jumps(copy.deepcopy(self.loop.body), self)
        self.uses_stop |= self.body_breaks
        if self.body_continues:   # continue leaves the copy: a one-pass loop around it
            out.append(ast.While(ast.Constant(True), body + [ast.Break()], []))
            if self.body_breaks:
                out.append(_break_if(self.stop))
        else:
            out.extend(body)
        return out


def _top_jumps(stmts):
    """The jumps ("break", "continue") in stmts that leave them, not
    those of loops inside."""
    found = set()
    for s in stmts:
        if isinstance(s, ast.Break):
            found.add("break")
        elif isinstance(s, ast.Continue):
            found.add("continue")
        elif isinstance(s, (ast.For, ast.While)):
            found |= _top_jumps(s.orelse)
        elif not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                found |= _top_jumps(getattr(s, field, None) or [])
            for h in getattr(s, "handlers", ()):
                found |= _top_jumps(h.body)
    return found


def _rewrite_jumps(stmts, site):
    """The loop body's own break and continue, for its copy at a yield."""
    out = []
    for s in stmts:
        if isinstance(s, ast.Break):
            out.append(_flag(site.stop, True))
            if site.loop.orelse:
                out.append(_flag(site.broke, True))
            out.append(ast.Break())
        elif isinstance(s, ast.Continue):
            out.append(ast.Break())   # out of the one-pass loop around the copy
        else:
            if isinstance(s, (ast.For, ast.While)):
                s.orelse = _rewrite_jumps(s.orelse, site)
            elif not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "finalbody"):
                    if isinstance(getattr(s, field, None), list):
                        setattr(s, field, _rewrite_jumps(getattr(s, field), site))
                for h in getattr(s, "handlers", ()):
                    h.body = _rewrite_jumps(h.body, site)
            out.append(s)
    return out


def _uses_generators(code, globals_, closure):
    """Whether code (or code nested in it) reads a kiln generator or
    defines a generator: a look at names, before any ast is walked."""
    for name in code.co_names + code.co_freevars:
        if isinstance(closure.get(name, globals_.get(name)), GeneratorFunction):
            return True
    return any(isinstance(k, types.CodeType) and (k.co_flags & inspect.CO_GENERATOR or
                                                  _uses_generators(k, globals_, closure))
               for k in code.co_consts)


def inline(fdef, py_func, globals_, closure, builtins):
    """The FunctionDef ast fdef of py_func with each for loop over a kiln
    generator (or a generator def of its own) running the generator's body:
    fdef itself where it has none, else a rewritten copy (fdef is the front
    end's parse of the file, which later compiles read again). Raises
    Refused."""
    closure = closure or {}
    if not _uses_generators(py_func.__code__, globals_, closure):
        return fdef
    fdef = copy.deepcopy(fdef)
    inliner = _Inliner(fdef, globals_, closure, builtins)
    fdef.body = inliner.block(fdef.body)
    for n in ast.walk(ast.Module(fdef.body, [])):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and isinstance(inliner.lookup(n.id), GeneratorFunction):
            raise Refused(n, f"the kiln generator {n.id} is used other than by a for loop over it, or by list(), "
                             "sum(), max(), min(), sorted() or a list comprehension that its statement runs first: "
                             "compiled code runs a generator only there",
                          f"Loop over it, for v in {n.id}(...), or take what it yields on a line of its own: "
                          f"items = list({n.id}(...)), total = sum({n.id}(...)), or items = [... for v in {n.id}(...)].")
    if inliner.inner:
        used = _read_names(fdef.body)
        for name, node in inliner.inner.items():
            if name in used:
                raise Refused(node, f"the generator {name} is used other than by a for loop over it",
                              f"Loop over it: for v in {name}(...).")
        fdef.body = [s for s in fdef.body if not (isinstance(s, ast.FunctionDef) and s.name in inliner.inner)]
    return fdef


class GeneratorFunction:
    """What kiln.jit makes of a generator function. Compiled code runs it
    where a for loop iterates it (above). Called from Python, it runs
    compiled to its end at the call, collecting what it yields in a list,
    and gives an iterator over that: Numba's generator object resumes the
    compiled code at each next() instead, so a generator that never ends
    only works from compiled code here."""

    def __init__(self, py_func, options, sigs=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self._kiln_options = options
        # Signatures (Numba's compile ahead of the first call) give the argument types of calls from
        # Python, compiled now; what a signature says it returns is not checked: a generator's
        # items have the type its yields give. Where compiled code loops over it, it compiles
        # for the types it gets there.
        self._sigs = [tuple(kt.normalize_signature(s)[0]) for s in sigs] if sigs else None
        self._collect = None
        if self._sigs:
            self.collector()

    def __call__(self, *args, **kwargs):
        try:
            bound = inspect.signature(self.py_func).bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.py_func.__qualname__}(): {e}") from None
        bound.apply_defaults()
        return iter(self.collector()(*bound.args))

    def __repr__(self):
        return f"<kiln generator {self.py_func.__qualname__}>"

    def collector(self):
        """A kiln function of the generator's parameters that loops over it
        and returns the list of its items."""
        if self._collect is None:
            from .dispatcher import _make
            self._collect = _make(_collector_function(self), self._sigs, self._kiln_options)
        return self._collect


def _collector_function(gen):
    """The Python function `collect(params): return [what gen(params)
    yields]`, reading the generator from its closure and everything else
    from the generator's module, as the generator does. Its source goes to
    linecache, where the front end reads sources."""
    code = gen.py_func.__code__
    params = ", ".join(code.co_varnames[:code.co_argcount])
    filename = f"<kiln: {gen.py_func.__qualname__} called from Python>"
    source = (f"def make(__kiln_generator):\n"
              f"    def {code.co_name}({params}):\n"
              f"        __kiln_items = []\n"
              f"        for __kiln_item in __kiln_generator({params}):\n"
              f"            __kiln_items.append(__kiln_item)\n"
              f"        return __kiln_items\n"
              f"    return {code.co_name}\n")
    lines = source.splitlines(True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    make_code = next(c for c in compile(source, filename, "exec").co_consts if isinstance(c, types.CodeType))
    return types.FunctionType(make_code, gen.py_func.__globals__)(gen)
