"""Shrinking a failing program to a small reproducer, by greedy delta
debugging over its syntax tree: keep only the argument set that fails, then
repeatedly remove a statement, replace a branch or loop by its body, drop an
item of the returned tuples, or replace an expression by one of its parts,
keeping each change after which the program still fails the same way (same
kind, same exception or reason). Every try runs in the worker pool, so a
program that crashes the interpreter shrinks too."""
import ast
import copy
import time

BODIES = ("body", "orelse")


def same_failure(a, b):
    return a["kind"] == b["kind"] and a.get("sig") == b.get("sig")


def _stmt_lists(tree):
    """(node, field) of every statement list inside the functions."""
    out = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name != "ARGS":
            for node in ast.walk(fn):
                for field in BODIES:
                    stmts = getattr(node, field, None)
                    if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                        out.append((node, field))
    return out


def _fills(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "fill")


def _edits(tree):
    """Functions that each make one change to (a copy of) tree, in the order
    they are tried: big cuts first."""
    edits = []
    lists = _stmt_lists(tree)
    for li, (node, field) in enumerate(lists):
        stmts = getattr(node, field)
        for i, stmt in enumerate(stmts):
            # np.empty's garbage must not become a mismatch, nor a function's last return or
            # raise go (its function would return None, which Kiln refuses where it is used)
            ends_function = isinstance(node, ast.FunctionDef) and i == len(stmts) - 1 and isinstance(stmt, (ast.Return, ast.Raise))
            if not _fills(stmt) and not ends_function:
                edits.append(("drop", li, i))
            if isinstance(getattr(node, field)[i], (ast.If, ast.For, ast.While)):
                edits.append(("inline", li, i))
    # helpers removed whole
    for i, fn in enumerate(tree.body):
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("helper"):
            edits.append(("module_drop", i, 0))
    # one item of every returned tuple of a function
    for i, fn in enumerate(tree.body):
        if isinstance(fn, ast.FunctionDef) and fn.name != "ARGS":
            widths = {len(n.value.elts) for n in ast.walk(fn) if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)}
            for w in widths:
                for k in range(w):
                    edits.append(("ret_item", i, (w, k)))
    entry = _entry(tree)
    if entry is not None:
        for k in range(len(entry.args.args)):
            edits.append(("param", k, 0))
    args = _args_fn(tree)
    if args is not None:
        for j, node in enumerate(ast.walk(args)):
            if isinstance(node, ast.List) and len(node.elts) > 1:
                edits.append(("args_list", j, 0))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "asfortranarray":
                edits.append(("args_list", j, 1))
    n_expr = sum(1 for fn in tree.body if isinstance(fn, ast.FunctionDef) and fn.name != "ARGS"
                 for _ in ast.walk(fn))
    for j in range(n_expr):
        for part in range(3):
            edits.append(("expr", j, part))
    return edits


def _wraps_an_index(node):
    """`i % a.shape[k]`: the generator's way of keeping an index in bounds,
    which Kiln (as Numba, without boundscheck=True) does not check."""
    r = node.right
    return (isinstance(node.op, ast.Mod) and isinstance(r, ast.Subscript) and isinstance(r.value, ast.Attribute)
            and r.value.attr == "shape")


def _parts(node):
    if isinstance(node, ast.BinOp):
        return [] if _wraps_an_index(node) else [node.left, node.right]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Name)
            and node.func.id not in ("float", "int", "bool")):   # the conversions keep NumPy scalars out
        return list(node.args)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("copy", "conjugate"):
        return [node.func.value]
    return []


def _apply(tree, edit):
    t = copy.deepcopy(tree)
    kind, a, b = edit
    if kind in ("drop", "inline"):
        node, field = _stmt_lists(t)[a]
        stmts = getattr(node, field)
        if b >= len(stmts):
            return None
        if kind == "drop":
            del stmts[b]
            if not stmts and field == "body":
                stmts.append(ast.Pass())
        else:
            inner = stmts[b].body
            stmts[b:b + 1] = inner
        return t
    if kind == "module_drop":
        name = t.body[a].name
        del t.body[a]
        for stmt in t.body:   # and its entry in JIT
            if isinstance(stmt, ast.Assign) and stmt.targets[0].id == "JIT":
                keep = [i for i, k in enumerate(stmt.value.keys) if k.value != name]
                stmt.value.keys = [stmt.value.keys[i] for i in keep]
                stmt.value.values = [stmt.value.values[i] for i in keep]
        return t
    if kind == "ret_item":
        w, k = b
        fn = t.body[a]
        hit = False
        for n in ast.walk(fn):
            if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple) and len(n.value.elts) == w:
                del n.value.elts[k]
                hit = True
        return t if hit else None
    if kind == "param":   # a parameter of the entry, and its value in every argument set
        fn = _entry(t)
        if a >= len(fn.args.args):
            return None
        name = fn.args.args[a].arg
        del fn.args.args[a]
        for call in _args_fn(t).body[-1].value.elts:
            pos, kw = call.elts
            if a < len(pos.elts):
                del pos.elts[a]
            else:
                keep = [i for i, k in enumerate(kw.keys) if k.value != name]
                kw.keys = [kw.keys[i] for i in keep]
                kw.values = [kw.values[i] for i in keep]
        return t
    if kind == "args_list":   # the values of an argument array made plain, or its layout C
        node = list(ast.walk(_args_fn(t)))[a]
        if b == 0:
            first = node.elts[0]
            plain = "True" if isinstance(first, ast.Constant) and isinstance(first.value, bool) else "1"
            if all(isinstance(e, ast.Constant) and repr(e.value) == plain for e in node.elts):
                return None
            node.elts = [ast.parse(plain, mode="eval").body for _ in node.elts]
            return t
        return _replace(t, node, node.args[0])
    # an expression replaced by one of its parts
    nodes = [n for fn in t.body if isinstance(fn, ast.FunctionDef) and fn.name != "ARGS" for n in ast.walk(fn)]
    if a >= len(nodes):
        return None
    target = nodes[a]
    parts = _parts(target)
    if b >= len(parts):
        return None
    return _replace(t, target, parts[b])


def _entry(tree):
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and stmt.targets[0].id == "ENTRY":
            name = stmt.value.value
            return next(fn for fn in tree.body if isinstance(fn, ast.FunctionDef) and fn.name == name)
    return None


def _args_fn(tree):
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "ARGS":
            return fn
    return None


def _replace(tree, target, new):
    """tree with the node target replaced by new, or None."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, new)
                return tree
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is target:
                        value[i] = new
                        return tree
    return None


def keep_argset(source, k):
    """The program with only its k-th argument set."""
    tree = ast.parse(source)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "ARGS":
            ret = fn.body[-1]
            ret.value.elts = [ret.value.elts[k]]
    return ast.unparse(tree) + "\n"


def shrink(source, failure, pool, budget_s=90, max_tries=600):
    """The smallest program found that fails as `failure` does."""
    cand = keep_argset(source, failure.get("set") or 0)
    if same_failure(pool.run_one(cand), failure):
        source = cand
    start, tries = time.monotonic(), 0
    pos, changed = 0, False
    while time.monotonic() - start < budget_s and tries < max_tries:
        tree = ast.parse(source)
        edits = _edits(tree)
        if pos >= len(edits):
            if not changed:
                break
            pos, changed = 0, False   # another pass: a cut may have made others possible
            continue
        first, batch = pos, []
        while pos < len(edits) and len(batch) < len(pool.workers):
            t = _apply(tree, edits[pos])
            pos += 1
            if t is not None:
                text = ast.unparse(t) + "\n"
                if text != source:
                    batch.append(text)
        if not batch:
            continue
        tries += len(batch)
        results = dict(pool.run(batch))
        good = [batch[j] for j in sorted(results) if same_failure(results[j], failure)]
        if good:
            source = min(good, key=len)
            changed = True
            pos = first   # the edits from here on now name the smaller tree's nodes
    return source
