"""The CPython side of a program, with Kiln's integers: Kiln's ints are
int64 and wrap (as Numba's), CPython's grow. The reference is the same
source with every arithmetic result that is a Python int wrapped to 64
bits, so that overflow can be generated on purpose (large arguments, `*`,
`**`, `<<`) and the two sides still agree on every later `//`, `%`,
comparison and index. Floats, bools and NumPy values pass through
untouched."""
import ast
import operator

WRAPPED_CALLS = {"abs", "sum", "int", "min", "max", "len"}


def wrap64(x):
    """x wrapped to int64 when it is a Python int (not a bool)."""
    if type(x) is int:
        x &= (1 << 64) - 1
        return x - (1 << 64) if x >= 1 << 63 else x
    return x


IN_PLACE = {"Add": operator.iadd, "Sub": operator.isub, "Mult": operator.imul, "Div": operator.itruediv,
            "FloorDiv": operator.ifloordiv, "Mod": operator.imod, "Pow": operator.ipow,
            "BitAnd": operator.iand, "BitOr": operator.ior, "BitXor": operator.ixor,
            "LShift": operator.ilshift, "RShift": operator.irshift}


def augmented(op, target, value):
    """`target op= value` as Python does it (in place for an array or a
    list), the result wrapped when it is an int."""
    return wrap64(IN_PLACE[op](target, value))


class _Wrap(ast.NodeTransformer):
    def _call(self, node):
        return ast.copy_location(ast.Call(ast.Name("_wrap64", ast.Load()), [node], []), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self._call(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return self._call(node) if isinstance(node.op, ast.USub) else node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in WRAPPED_CALLS:
            return self._call(node)
        # operator.mul(a, b) and the rest: the operators they are (gen_expr.py writes them)
        if (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "operator"):
            return self._call(node)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node   # an array element or slice: NumPy's own arithmetic
        load = ast.Name(node.target.id, ast.Load())
        op = ast.Constant(type(node.op).__name__)
        value = ast.Call(ast.Name("_augmented", ast.Load()), [op, load, node.value], [])
        return ast.copy_location(ast.Assign([node.target], value), node)


def reference_code(source, filename):
    """The code object of the wrapped module."""
    tree = _Wrap().visit(ast.parse(source, filename))
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")
