"""Kiln's type objects, with Numba's names: int8..uint64, intp, float32/64,
f4/f8, complex64/128, boolean, void; arrays by slicing (f8[:, :], f4[::1]);
Tuple and UniTuple; signatures by calling a type (float64(int32, int32)) or
as strings ('Tuple((float64[:], float64))(float64[:,:])').

Each type is a thin wrapper of a *spec*, the plain-tuple form the C compiler
reads (see jit/core/types.h)."""
import _kiln

__all__ = ["Type", "Array", "Signature", "Tuple", "UniTuple", "BaseTuple", "Optional", "Number", "Integer", "Float",
           "Complex", "Boolean", "NoneType", "from_spec", "parse_signature", "normalize_signature"]


class Type:
    """A Kiln type; equal types have equal specs."""
    __slots__ = ("spec", "name")

    def __init__(self, spec):
        self.spec = spec
        self.name = _kiln.type_name(spec)

    def __eq__(self, other):
        return isinstance(other, Type) and other.spec == self.spec

    def __hash__(self):
        return hash(self.spec)

    def __repr__(self):
        return self.name

    __str__ = __repr__

    # Numba's attributes, for code that looks at types (kiln.extending.overload's factories)
    @property
    def ndim(self):
        return self._part("array", 2)

    @property
    def layout(self):
        return self._part("array", 3)

    @property
    def dtype(self):
        """An array's element type, or a UniTuple's."""
        if self.spec[0] == "tuple" and self.spec[1] and len(set(self.spec[1])) == 1:
            return Type(self.spec[1][0])
        return Type(self._part("array", 1))

    @property
    def bitwidth(self):
        if self.spec[0] not in ("int", "float", "complex"):
            raise AttributeError(f"{self.name} has no bitwidth")
        return self.spec[1]

    @property
    def signed(self):
        return self._part("int", 2)

    @property
    def types(self):
        return tuple(Type(s) for s in self._part("tuple", 1))

    @property
    def count(self):
        return len(self._part("tuple", 1))

    @property
    def type(self):
        """An Optional's type."""
        return Type(self._part("optional", 1))

    def _part(self, kind, i):
        if self.spec[0] != kind:
            raise AttributeError(f"{self.name} is not {'an' if kind[0] in 'aio' else 'a'} {kind}")
        return self.spec[i]

    def __call__(self, *args):
        """float64(int32, int32) is a signature; float64(3) converts 3."""
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1 and self.spec[0] in ("int", "float", "complex", "bool"):
            import numpy as np
            return np.dtype(_NUMPY_NAMES[self.name]).type(args[0])
        raise TypeError(f"{self.name}(...) takes types (a signature) or one number (a conversion)")

    def __getitem__(self, index):
        """f8[:] is a 1-d array of any layout, f8[:, ::1] a C-contiguous 2-d one,
        f8[::1, :] an F-contiguous one."""
        if not isinstance(index, tuple):
            index = (index,)
        if not index or not all(isinstance(s, slice) for s in index):
            raise TypeError("array types are written with slices: f8[:], f8[:, :], f8[:, ::1]")
        if self.spec[0] not in ("int", "float", "complex", "bool"):
            raise TypeError(f"{self.name} cannot be an array element")
        steps = [s.step for s in index]
        if any(st not in (None, 1) for st in steps) or any(s.start is not None or s.stop is not None for s in index):
            raise TypeError("array types take only ':' and '::1'")
        layout = "A"
        if steps[-1] == 1 and all(st is None for st in steps[:-1]):
            layout = "C"
        elif steps[0] == 1 and all(st is None for st in steps[1:]):
            layout = "F"
        return Array(self, len(index), layout)


class _Kind(type):
    """A class of Kiln types by their kind, as Numba has them for code that
    looks at types (kiln.extending.overload's factories): isinstance(t,
    Float). Calling Array, Tuple, UniTuple or Optional makes such a type."""

    def __instancecheck__(cls, t):
        return isinstance(t, Type) and cls.holds(t.spec)


class Number(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] in ("int", "float", "complex"))


class Integer(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "int")


class Float(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "float")


class Complex(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "complex")


class Boolean(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "bool")


class NoneType(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "none")


class Array(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "array")

    def __new__(cls, dtype, ndim, layout="A", readonly=False):
        return Type(("array", dtype.spec, ndim, layout, readonly))


class BaseTuple(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "tuple")


class Tuple(metaclass=_Kind):
    """Tuple((float64, int64)): a tuple of these element types. As in Numba,
    isinstance(t, Tuple) holds for tuples of mixed types, UniTuple for the rest."""
    holds = staticmethod(lambda spec: spec[0] == "tuple" and len(set(spec[1])) > 1)

    def __new__(cls, types):
        return Type(("tuple", tuple(t.spec for t in types)))


class UniTuple(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "tuple" and len(set(spec[1])) <= 1)

    def __new__(cls, dtype, count):
        return Type(("tuple", tuple(dtype.spec for _ in range(count))))


class Optional(metaclass=_Kind):
    holds = staticmethod(lambda spec: spec[0] == "optional")

    def __new__(cls, t):
        return Type(("optional", t.spec))


class Signature:
    """return_type(*args); return_type None means: infer it."""
    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    def __repr__(self):
        inner = ", ".join(map(str, self.args))
        return f"{self.return_type}({inner})" if self.return_type is not None else f"({inner})"

    def __eq__(self, other):
        return isinstance(other, Signature) and (self.return_type, self.args) == (other.return_type, other.args)

    def __hash__(self):
        return hash((self.return_type, self.args))


def from_spec(spec):
    return Type(spec)


def _int(bits, signed=True):
    return Type(("int", bits, signed))


int8, int16, int32, int64 = (_int(b) for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (_int(b, False) for b in (8, 16, 32, 64))
float32, float64 = Type(("float", 32)), Type(("float", 64))
complex64, complex128 = Type(("complex", 64)), Type(("complex", 128))
boolean = Type(("bool",))
none = Type(("none",))
void = none
intp, uintp = int64, uint64
i1, i2, i4, i8 = int8, int16, int32, int64
u1, u2, u4, u8 = uint8, uint16, uint32, uint64
f4, f8 = float32, float64
c8, c16 = complex64, complex128
b1 = bool_ = boolean
int_, float_, double, single = int64, float64, float64, float32

_NUMPY_NAMES = {"bool": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
                "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
                "float32": "float32", "float64": "float64", "complex64": "complex64",
                "complex128": "complex128"}

NAMES = {name: value for name, value in globals().items() if isinstance(value, Type)}
NAMES.update(Tuple=Tuple, UniTuple=UniTuple, Optional=Optional, Array=Array)


def parse_signature(text):
    """'float64(int32, int32)' -> Signature; '(f8[:], f8)' -> a tuple of types."""
    try:
        value = eval(text, {"__builtins__": {}}, dict(NAMES))  # only type names are in scope
    except Exception as exc:
        raise TypeError(f"kiln: cannot read the signature {text!r}: {exc}") from None
    return value


def normalize_signature(sig):
    """(args, return_type or None) from a Signature, a tuple/list of types or a string."""
    if isinstance(sig, str):
        sig = parse_signature(sig)
    if isinstance(sig, Signature):
        return sig.args, sig.return_type
    if isinstance(sig, Type):
        return (sig,), None
    if isinstance(sig, (tuple, list)) and all(isinstance(t, Type) for t in sig):
        return tuple(sig), None
    raise TypeError(f"kiln: not a signature: {sig!r} (write float64(int32, int32), "
                    f"a tuple of types, or a string such as 'float64(int32, int32)')")
