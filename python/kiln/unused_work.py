"""Work a compiled function throws away: jit/engine/unused_loops.c gives an
"unused" remark to each loop of a function returning None that the
optimizer removed, since nothing it computed was kept (seed 000's
average_sqrt, or a kiln.cuda kernel that writes nothing). Each
specialization with one warns when it is compiled or loaded, and the cell's footer repeats it (kiln.magics.cell_footer), so a
%timeit of it is not read as a speed-up."""
import warnings


class UnusedWorkWarning(UserWarning):
    """A loop of a compiled function was removed: nothing it computed is used."""


_told = []   # (function, line, message) since the last take()


def tell(py_func, remarks):
    """Warns of each loop that a compile's remarks (a Specialization's, a
    CUDA kernel's) say the optimizer removed as unused."""
    for remark in remarks:
        if remark["kind"] == "unused":
            # the footer's line follows the warning filters as the warning does: "ignore" silences both
            with warnings.catch_warnings(record=True) as shown:
                warnings.warn_explicit(remark["message"], UnusedWorkWarning, py_func.__code__.co_filename,
                                       remark["line"])
            for w in shown:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
                _told.append((py_func.__qualname__, remark["line"], remark["message"]))


def take():
    """[(function, line, message)] told since the last take(), forgotten after."""
    told = list(_told)
    del _told[:len(told)]
    return told
