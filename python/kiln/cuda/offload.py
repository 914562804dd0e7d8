"""kiln.jit(target='cuda'): a function whose loops are maps or sums over
arrays, run as CUDA kernels, as seed 000's course describes it: "compile a
CUDA kernel, allocate GPU memory for the input, execute the kernel with the
correct dimensions, copy the result back and return it".

Each loop at the top of the function's body becomes a kernel:
  - a map, `for i in range(a, b): out[i] = f(x[i], ...)`, where each
    iteration writes only element i of the arrays it writes;
  - a sum, `for x in A: acc += g(x)` (or over a range), where the loop adds
    to (or subtracts from) a variable and reads it nowhere else: each thread
    sums its share and adds it to the total with cuda.atomic.add.
The loop's own lines become the kernel's body, at the same line numbers (in
a text of their own), so an error in them names the user's line. The rest
of the function runs on the host as Python, which launches the kernels with
a grid-stride loop over the range and a grid chosen from the device; NumPy
arrays are copied in and back at each launch, and the cell's footer shows
those copies against the kernels. A loop that is neither, or that cannot
run on a GPU (an iteration reading what another writes, a variable the code
after it needs), is refused at its line with the reason, when the function
is decorated."""
import ast
import copy
import functools
import linecache
import math

import _kiln
import numpy as np

from . import compiler

_BLOCK = 256
_SIM_MULTIPROCESSORS = 16   # the grid on the simulator, where more threads cost time and teach nothing
_counter = [0]


class _Refusal(Exception):
    def __init__(self, node, message, hint):
        super().__init__(message)
        self.node, self.message, self.hint = node, message, hint


def _function_node(py_func):
    """(the def's ast node, the file's lines, its name), from linecache."""
    code = py_func.__code__
    lines = linecache.getlines(code.co_filename, py_func.__globals__)
    if not lines:
        raise TypeError(f"kiln.jit(target='cuda'): the source of {py_func.__qualname__} cannot be found, and "
                        f"its loops are compiled from it; define it in a file or a notebook cell")
    for node in ast.walk(ast.parse("".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name and \
                min([node.lineno] + [d.lineno for d in node.decorator_list]) == code.co_firstlineno:
            return node, lines, code.co_filename
    raise TypeError(f"kiln.jit(target='cuda'): the definition of {py_func.__qualname__} is not at line "
                    f"{code.co_firstlineno} of {code.co_filename}")


def _names(node, ctx):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def _is_index(node, index):
    """Whether an element index is the iteration's own: i, or a row i[, ...]."""
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]
    return index is not None and isinstance(node, ast.Name) and node.id == index


class _Loop:
    """One offloaded loop: its kernel's text and how the host calls it."""

    def __init__(self, loop, host_locals, lines, py_func, number):
        self.name = f"{py_func.__name__}_loop{number}"   # in the footer's launch lines
        self.loop = loop
        self.element = None   # `for x in A`: (x, A)
        self.index = None     # `for i in range(...)`: i
        self.bounds = []      # range(...)'s arguments, evaluated on the host
        self._shape(loop, host_locals)
        if loop.orelse:
            raise _Refusal(loop, "a GPU loop cannot have an else: block", "Move the else: block after the loop.")
        if loop.body[0].lineno == loop.lineno:
            raise _Refusal(loop, "kiln.jit(target='cuda') compiles a loop's body from its own lines, and this "
                           "body is on the for line", "Write the loop's body on the lines below the for.")
        self.sums = self._sums(loop, host_locals)   # the names the loop sums into
        self._check_writes(loop, host_locals)
        read = _names(loop, ast.Load) - set(self.sums)
        self.params = sorted((read & host_locals) - self._own_names(loop))
        self.source = self._kernel_source(loop, lines)

    def _shape(self, loop, host_locals):
        it = loop.iter
        if not isinstance(loop.target, ast.Name):
            raise _Refusal(loop.target, "a GPU loop takes one variable", "Loop over range(n) or over an array.")
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords:
            if len(it.args) == 3:
                raise _Refusal(it, "a GPU loop runs over range(stop) or range(start, stop), one step at a time",
                               "Drop the step: each GPU thread takes its own elements.")
            self.index = loop.target.id
            self.bounds = it.args
        elif isinstance(it, ast.Name) and it.id in host_locals:
            self.element = (loop.target.id, it.id)
        else:
            raise _Refusal(it, "a GPU loop runs over range(...) or over an array the function holds",
                           "Loop over range(n) or over an array argument.")

    @staticmethod
    def _own_names(loop):
        """Names the loop binds for itself (its variable, its temporaries)."""
        return _names(loop, ast.Store)

    def _sums(self, loop, host_locals):
        """The names of the function's variables the loop sums into."""
        sums = {}   # name -> its += and -= statements
        for node in ast.walk(loop):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id in host_locals:
                if not isinstance(node.op, (ast.Add, ast.Sub)):
                    raise _Refusal(node, f"{node.target.id} is updated by another operation than += or -=: on a "
                                   f"GPU, only sums are combined across threads",
                                   "Compute this loop on the host (kiln.njit), or write it as a sum.")
                sums.setdefault(node.target.id, []).append(node)
        self.updates = sums
        for name, nodes in sums.items():
            targets = {id(node.target) for node in nodes}
            others = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == name and id(n) not in targets]
            if others:
                raise _Refusal(others[0], f"the loop reads {name}, which it sums into: each iteration would see "
                               f"the others' additions (a loop-carried dependence that is not a reduction)",
                               f"Only add to {name} in the loop (+= or -=), and use it after the loop.")
        return list(sums)

    def _check_writes(self, loop, host_locals):
        summed = set(self.sums)
        written = set()
        for node in ast.walk(loop):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
            if isinstance(node, (ast.Break, ast.Return)):
                raise _Refusal(node, f"a GPU loop cannot {'stop early' if isinstance(node, ast.Break) else 'return'}:"
                               f" its iterations run at once, on different threads",
                               "Compute this loop on the host (kiln.njit).")
            for t in targets:
                for leaf in ast.walk(t):
                    if isinstance(leaf, ast.Name) and isinstance(leaf.ctx, ast.Store) and node is not loop and \
                            leaf.id == loop.target.id:
                        raise _Refusal(leaf, f"the loop assigns its own variable {leaf.id}: each GPU thread owns "
                                       f"the iteration it was given, and writes only that iteration's elements",
                                       "Compute another index under a name of its own, and read with it only.")
                    if isinstance(leaf, ast.Name) and isinstance(leaf.ctx, ast.Store) and leaf.id in host_locals \
                            and leaf.id not in summed and node is not loop:
                        raise _Refusal(leaf, f"the loop assigns {leaf.id}, a variable of the function: each GPU "
                                       f"thread has a copy of its own, so no value would come out of the loop",
                                       f"Give the loop's temporaries names of their own, or sum into {leaf.id} "
                                       f"with +=.")
                    if isinstance(leaf, ast.Subscript) and isinstance(leaf.ctx, ast.Store):
                        if not _is_index(leaf.slice, self.index):
                            raise _Refusal(leaf, "the loop writes an element other than the one its iteration "
                                           "owns: GPU threads would write each other's elements",
                                           "Write only a[i], i being the loop's index, in a GPU loop.")
                        if isinstance(leaf.value, ast.Name):
                            written.add(leaf.value.id)
        self.written = written   # arrays the loop writes: checked against the others for overlap at launch
        for node in ast.walk(loop):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
                    isinstance(node.value, ast.Name) and node.value.id in written and \
                    not _is_index(node.slice, self.index):
                raise _Refusal(node, f"the loop reads {node.value.id}[{ast.unparse(node.slice)}], which another "
                               f"iteration writes: a loop-carried dependence, which GPU threads running at once "
                               f"cannot keep", "Compute this loop on the host (kiln.njit).")

    def _kernel_source(self, loop, lines):
        """The kernel, its body the loop's own lines at their own line numbers."""
        indent = " " * loop.col_offset
        sums = self.sums
        params = [f"__total_{s}" for s in sums] + self.params + ["__start", "__stop"] + sums
        if self.element:
            x, array = self.element
            header = f"{indent}for {x} in {array}[cuda.grid(1)::cuda.gridsize(1)]:\n"
        else:
            header = f"{indent}for {self.index} in range(__start + cuda.grid(1), __stop, cuda.gridsize(1)):\n"
        text = ["\n"] * (loop.lineno - 2) + [f"def {self.name}({', '.join(params)}):\n", header]
        text += ["\n"] * (loop.body[0].lineno - loop.lineno - 1)   # the rest of a for header written over lines
        text += lines[loop.body[0].lineno - 1:loop.end_lineno]
        if not text[-1].endswith("\n"):
            text[-1] += "\n"
        text += [f"{indent}cuda.atomic.add(__total_{s}, 0, {s})\n" for s in sums]
        return "".join(text)


def _refuse(py_func, filename, lines, refusal):
    node = refusal.node
    line = lines[node.lineno - 1].rstrip("\n") if node.lineno <= len(lines) else ""
    return _kiln.UnsupportedError(
        f"in function '{py_func.__qualname__}' ({filename}, line {node.lineno}, col {node.col_offset}):\n"
        f"    {line.strip()}\n    {' ' * (node.col_offset - (len(line) - len(line.lstrip())))}^\n"
        f"kiln.jit(target='cuda') cannot run this loop on the GPU: {refusal.message}\nHint: {refusal.hint}")


def _int_valued(node, loop, values):
    """Whether expression `node` of `loop` is an integer whatever runs, given
    the values of the loop's parameters; False where it cannot tell."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, ast.Name):
        if node.id in values:
            return isinstance(values[node.id], (int, np.integer))
        if node.id == loop.index:
            return True
        if loop.element and node.id == loop.element[0]:
            return values[loop.element[1]].dtype.kind in "iub"
        return False   # a temporary of the loop: its type is the kernel's to infer
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in values:
        return getattr(values[node.value.id], "dtype", np.dtype(float)).kind in "iub"
    if isinstance(node, ast.BinOp):
        return not isinstance(node.op, ast.Div) and _int_valued(node.left, loop, values) and \
            _int_valued(node.right, loop, values)
    if isinstance(node, ast.UnaryOp):
        return _int_valued(node.operand, loop, values)
    if isinstance(node, ast.IfExp):
        return _int_valued(node.body, loop, values) and _int_valued(node.orelse, loop, values)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in ("int", "len"):
            return True
        if node.func.id in ("abs", "min", "max"):
            return all(_int_valued(a, loop, values) for a in node.args)
    return False


class _Launcher:
    """Runs one loop's kernel for the host: the grid from the device and the
    range, one total per sum (added to the host's value)."""

    def __init__(self, loop, py_func):
        self.loop = loop
        self.py_func = py_func
        self.kernel = None
        _counter[0] += 1   # a text of its own, even where a cell defines the function again
        self.filename = f"<kiln.jit(target='cuda') {py_func.__qualname__}: {loop.name}, {_counter[0]}>"
        linecache.cache[self.filename] = (len(loop.source), None, loop.source.splitlines(True), self.filename)
        # the kernel's errors name the user's function and file: its lines are theirs
        self.where = (f"in function '{loop.name}' ({self.filename},",
                      f"in function '{py_func.__qualname__}' ({py_func.__code__.co_filename},")

    def _kernel(self):
        """The kernel, made at the first launch: its globals are the module's
        then, helpers defined after the function included (and then fixed,
        as a compiled function's are)."""
        if self.kernel is None:
            namespace = dict(self.py_func.__globals__)
            namespace["cuda"] = _cuda()
            exec(compile(self.loop.source, self.filename, "exec"), namespace)
            self.kernel = compiler.CUDAKernel(namespace[self.loop.name], None,
                                              {"boundscheck": False, "fastmath_flags": 0})
        return self.kernel

    def _check_overlap(self, values):
        """A written array that shares memory with another array the loop
        reads (a view of it) would let threads read what others write."""
        for name in self.loop.written:
            for other, value in values.items():
                if other != name and isinstance(value, np.ndarray) and value is not values[name] and \
                        np.shares_memory(values[name], value):
                    raise ValueError(f"{self.py_func.__qualname__}: the GPU loop writes {name} and reads {other}, "
                                     f"which share memory: GPU threads would read elements that others write. "
                                     f"Pass a copy ({other}.copy()).")

    def __call__(self, bounds, sums, params):
        values = dict(zip(self.loop.params, params))
        if self.loop.element:
            n = len(values[self.loop.element[1]])
            start, stop = 0, n
        else:
            start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
            n = max(stop - start, 0)
            if start < 0 and self.loop.written:
                raise ValueError(f"{self.py_func.__qualname__}: the GPU loop's range starts at {start}: a negative "
                                 f"index wraps to the array's end, so two iterations could write one element")
        if n == 0:
            return sums
        self._check_overlap(values)
        # an integer total where the sum starts as one and adds integers only; else float64
        totals = [np.zeros(1, np.int64 if isinstance(s, (int, np.integer)) and all(
            _int_valued(u.value, self.loop, values) for u in self.loop.updates[name]) else np.float64)
            for name, s in zip(self.loop.sums, sums)]
        grid = max(1, min(math.ceil(n / _BLOCK), 32 * _multiprocessors()))
        identities = [t.dtype.type(0) for t in totals]
        try:
            self._kernel()[grid, _BLOCK](*totals, *params, start, stop, *identities)
        except Exception as e:
            if self.where[0] not in str(e):
                raise
            raise type(e)(str(e).replace(*self.where)) from None
        return tuple(s + t[0].item() for s, t in zip(sums, totals))   # -= made the threads' totals negative


def _cuda():
    from .. import cuda
    return cuda


@functools.lru_cache(maxsize=None)
def _multiprocessors():
    """The GPU's multiprocessors: the grid fills each 32 blocks deep."""
    cuda = _cuda()
    return cuda.gpus[0].MULTIPROCESSOR_COUNT if cuda.is_available() else _SIM_MULTIPROCESSORS


def _tuple(items):
    return "(" + "".join(f"{item}, " for item in items) + ")"


def _host_function(py_func, fn_node, loops, filename):
    """py_func with each offloaded loop replaced by its launch, at the loop's
    line: `avg, = __kiln_launch_0((), (avg, ), (Mat, ))`."""
    node = copy.deepcopy(fn_node)
    node.decorator_list = []
    body, k = [], 0
    for stmt in node.body:
        if not isinstance(stmt, ast.For):
            body.append(stmt)
            continue
        loop = loops[k]
        call = (f"__kiln_launch_{k}({_tuple(ast.unparse(b) for b in loop.bounds)}, {_tuple(loop.sums)}, "
                f"{_tuple(loop.params)})")
        target = f"{_tuple(loop.sums)} = " if loop.sums else ""
        launch = ast.parse(target + call).body[0]
        for part in ast.walk(launch):
            ast.copy_location(part, stmt)
        body.append(launch)
        k += 1
    node.body = body
    # made inside a function that takes the launchers, so that they are its
    # closure and its globals are the module's own, live (helpers defined later)
    launchers = [f"__kiln_launch_{k}" for k in range(len(loops))]
    maker = ast.FunctionDef(name="__kiln_make", args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=name) for name in launchers], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=fn_node.name, ctx=ast.Load()))], decorator_list=[])
    ast.copy_location(maker, fn_node)
    module = ast.fix_missing_locations(ast.Module(body=[maker], type_ignores=[]))
    made = {}
    exec(compile(module, filename, "exec"), py_func.__globals__, made)
    return made["__kiln_make"](*(_Launcher(loop, py_func) for loop in loops))


def _check_loop_names_stay_inside(fn_node, host_locals):
    """A name a GPU loop binds (its variable, a temporary) has no value after
    the loop: refuse the statements that read one."""
    for loop in (s for s in fn_node.body if isinstance(s, ast.For)):
        own = _names(loop, ast.Store) - host_locals
        for stmt in fn_node.body:
            if stmt is loop:
                continue
            # another loop binding the same name (both `for i in ...`) has its own
            elsewhere = own - (_names(stmt, ast.Store) if isinstance(stmt, ast.For) else set())
            read = next((n for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                         and n.id in elsewhere), None)
            if read is not None:
                raise _Refusal(read, f"{read.id} is set inside the GPU loop at line {loop.lineno} and read here: no "
                               f"value comes out of a GPU loop but its sums",
                               f"Sum into a variable set before the loop, or compute {read.id} here.")


def offload(py_func):
    """The host function that runs py_func's loops as kernels; raises
    kiln.UnsupportedError at a loop that cannot run on a GPU."""
    if py_func.__code__.co_freevars:
        raise TypeError(f"kiln.jit(target='cuda'): {py_func.__qualname__} uses variables of an enclosing "
                        f"function ({', '.join(py_func.__code__.co_freevars)}); pass them as arguments")
    fn_node, lines, filename = _function_node(py_func)
    host_locals = {a.arg for a in fn_node.args.args} | {
        n for stmt in fn_node.body if not isinstance(stmt, ast.For) for n in _names(stmt, ast.Store)}
    loops = []
    try:
        for stmt in fn_node.body:
            if isinstance(stmt, ast.For):
                loops.append(_Loop(stmt, host_locals, lines, py_func, len(loops)))
                continue
            inner = next((n for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.While))), None)
            if inner is not None:
                raise _Refusal(inner, "only the for loops at the top of the function's body run on the GPU, "
                               "and this one is inside another statement (or a while loop)",
                               "Move the loop to the top level of the function, or compute it on the host "
                               "(kiln.njit).")
        _check_loop_names_stay_inside(fn_node, host_locals)
    except _Refusal as refusal:
        raise _refuse(py_func, filename, lines, refusal) from None
    if not loops:
        raise _kiln.UnsupportedError(
            f"kiln.jit(target='cuda'): {py_func.__qualname__} has no loop at the top of its body to run on the "
            f"GPU\nHint: Write its work as a for loop over range(n) or over an array, or use kiln.cuda.jit.")
    host = _host_function(py_func, fn_node, loops, filename)
    return functools.update_wrapper(host, py_func)
