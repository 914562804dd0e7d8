"""The generator's types, and the scope a function body is generated in.

An array's type carries symbolic dimensions ('n0', 'n0-1', '3', ...): two
arrays whose dimension labels are equal have equal lengths on every input
set, which is what lets the generator combine them without a broadcasting
error. A label is only a name; 'n0-1' of an empty axis is 0, not -1, but it
stays equal to itself, which is all the generator relies on."""
from collections import namedtuple

import numpy as np

INT, FLOAT, BOOL, CPLX = "int", "float", "bool", "complex"
# a recursive helper's depth parameter: an int its callers give as a small
# literal and its own calls as depth - 1, under its `if depth <= 0: return`
DEPTH = "depth"



def _type(name, fields):
    """A namedtuple equal only to one of its own kind (Lst(INT) != St(INT))."""
    base = namedtuple(name, fields)
    return type(name, (base,), {
        "__slots__": (),
        "__eq__": lambda a, b: type(a) is type(b) and tuple.__eq__(a, b),
        "__ne__": lambda a, b: not (type(a) is type(b) and tuple.__eq__(a, b)),
        "__hash__": lambda a: hash((name, tuple(a))),
    })


Arr = _type("Arr", "dtype dims")          # dtype: a NumPy dtype name
Tup = _type("Tup", "items")
Lst = _type("Lst", "elem")                # a list of INT or FLOAT
Dct = _type("Dct", "key val")             # INT keys, INT or FLOAT values
St = _type("St", "elem")                  # a set of INT
Opt = _type("Opt", "arr")                 # None or the array type arr (arguments only)
Elem = _type("Elem", "dtype")             # a NumPy scalar from iterating an array
Func = _type("Func", "params ret")        # a function: [(name, type, default)], result type
LstA = _type("LstA", "dtype ndim")        # a list of arrays of one dtype and ndim
DctA = _type("DctA", "dtype ndim")        # a dict of INT keys to arrays of one dtype and ndim

ARRAY_DTYPES = ["int8", "int32", "int64", "uint8", "float32", "float64", "bool"]
# result dtypes Kiln and NumPy 1.24 share; float16 (NumPy's answer to np.sqrt
# of an int8 array) and the complex arrays are left out
KNOWN_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64"}


def kind(dtype):
    return np.dtype(dtype).kind


def same_kiln_type(a, b):
    """Whether Kiln gives both the same type (an array's dims are values)."""
    if isinstance(a, Arr) and isinstance(b, Arr):
        return a.dtype == b.dtype and len(a.dims) == len(b.dims)
    if isinstance(a, Tup) and isinstance(b, Tup):
        return len(a.items) == len(b.items) and all(same_kiln_type(x, y) for x, y in zip(a.items, b.items))
    return a == b


def broadcast(d1, d2):
    """NumPy's broadcasting of two shapes of labels, or None when the
    generator cannot be sure they broadcast."""
    out = []
    for i in range(1, max(len(d1), len(d2)) + 1):
        x = d1[-i] if i <= len(d1) else None
        y = d2[-i] if i <= len(d2) else None
        if x is None or x == y or y == "1":
            out.append(x if x is not None else y)
        elif y is None:
            out.append(x)
        elif x == "1":
            out.append(y)
        else:
            return None
    return tuple(reversed(out))


class Scope:
    """The variables a statement may read, with their types; a nested block
    gets a child scope, whose new names vanish when it ends (each name is
    fresh, so a name never changes type)."""

    def __init__(self, parent=None):
        self.parent = parent
        self.vars = {}
        self.index_of = {}    # int loop variable -> the dim label it indexes
        self.frozen = set()   # names that must not be rebound here (loop counters, prange outputs)

    def child(self):
        return Scope(self)

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None

    def all(self):
        out, s = {}, self
        chain = []
        while s is not None:
            chain.append(s)
            s = s.parent
        for s in reversed(chain):
            out.update(s.vars)
        return out

    def indices(self):
        out, s = {}, self
        while s is not None:
            for k, v in s.index_of.items():
                out.setdefault(k, v)
            s = s.parent
        return out

    def is_frozen(self, name):
        s = self
        while s is not None:
            if name in s.frozen:
                return True
            s = s.parent
        return False

    def set_type(self, name, t):
        """Rebinds an existing name (found in whichever scope owns it)."""
        s = self
        while s is not None:
            if name in s.vars:
                s.vars[name] = t
                return
            s = s.parent
        self.vars[name] = t

    def of(self, pred):
        return [(n, t) for n, t in self.all().items() if pred(t)]

    def dim_expr(self, label):
        """Source text giving the length a dim label stands for, or None."""
        if label.isdigit():
            return label
        for n, t in self.all().items():
            if isinstance(t, Arr) and label in t.dims:
                return f"{n}.shape[{t.dims.index(label)}]"
        return None


def npname(dtype):
    """The NumPy attribute naming dtype in source text."""
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"
