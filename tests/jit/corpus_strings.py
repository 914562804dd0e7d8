"""Corpus, part 7: strings passed in from Python, as Numba passes them:
compared with == and != and by `in` against a tuple of strings, their
len() in characters, joined with + and +=, formatted into f-strings,
kept in variables, tuples and defaults, and returned. A string kept while
many more f-strings are formatted must not change (they share buffers)."""
import kiln
from jit_diff import case

WORDS = ["linear", "nearest", "", "héllo wörld", "a" * 300, "cubic"]


@kiln.njit
def _scale(x, how="double"):
    if how == "double":
        return 2 * x
    if how == "negate":
        return -x
    raise ValueError(f"unknown scaling {how!s}")


@case(*[(w,) for w in WORDS])
def compare_and_measure(method):
    return method == "linear", method != "nearest", len(method), method in ("linear", "nearest"), \
        method not in ("cubic",), method in ()


@case(*[(x, how) for x in (3, -2.5) for how in ("double", "negate", "triple")])
def dispatch_on_a_string_argument(x, how):
    return _scale(x, how), _scale(x)


@case(*[(w, n) for w in WORDS[:4] for n in (0, 7, -12)])
def join_and_format(name, n):
    label = name + "#" + f"{n:03d}"
    label += "/" + name
    return label, len(label), f"[{label}]", label == name + "#" + f"{n:03d}" + "/" + name


@case(*[(w,) for w in WORDS[:4]])
def a_kept_string_survives_many_more_f_strings(name):
    first = f"<{name}>"
    last = ""
    for i in range(40):
        last = f"{i}:{name}"
    return first, last, (first, len(first))


@case(("a", 1), ("b", 2), ("", 0))
def strings_in_tuples(tag, k):
    pair = (tag, k)
    other, count = pair
    return pair, other + other, count * 2


@case(*[(w,) for w in WORDS[:4]])
def a_long_chain_of_joins(s):
    return s + "1" + s + "2" + s + "3" + s + "4" + s + "5" + s + "6" + s + "7" + s + "8" + s + "9" + s


@case((3, 2.5, True, "w"), (-7, float("inf"), False, ""), (2**62, -0.0, True, "héllo"), (0, 1e-7, False, "x"))
def str_of_numbers_and_strings(i, x, b, s):
    return str(i) + "|" + str(x) + "|" + str(b) + "|" + str(s), len(str(i)), str(x) == f"{x}"


TOO_MANY = "too many iterations"   # a module's message, as quantecon's newton raises it


@case(*[(x, m) for x in (5, 3, 2, 0) for m in ("custom", "")])
def raise_with_a_message_held_in_a_name(x, msg):
    if x > 3:
        raise RuntimeError(msg)
    if x > 2:
        raise ValueError(TOO_MANY)
    if x > 1:
        raise ValueError(x * 2.5)   # str() of a number
    return x
