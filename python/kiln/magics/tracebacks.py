"""Tracebacks in IPython and the Kiln kernel show the user's frames, not
Kiln's: an error in a call of a kiln function, or in a cell timed by
%timeit, ends at the user's line, since Kiln's frames say nothing the
message does not. kiln.config.SHOW_KILN_FRAMES (KILN_SHOW_FRAMES=1) keeps
them, for work on Kiln itself."""
import os

import kiln
from kiln import config

KILN_DIR = os.path.dirname(os.path.abspath(kiln.__file__)) + os.sep


def _kilns(tb):
    return tb.tb_frame.f_code.co_filename.startswith(KILN_DIR)


def without_kiln_frames(tb):
    """The traceback tb with the frames of Kiln's Python code left out
    (tb_next relinked); None if every frame is Kiln's."""
    kept = [t for t in _walk(tb) if not _kilns(t)]
    for t, after in zip(kept, kept[1:] + [None]):
        t.tb_next = after
    return kept[0] if kept else None


def _walk(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def trim(value):
    """Leaves Kiln's frames out of exception value and the exceptions it
    was raised from or during."""
    seen = set()
    while value is not None and id(value) not in seen:
        seen.add(id(value))
        value.__traceback__ = without_kiln_frames(value.__traceback__) or value.__traceback__
        value = value.__cause__ or value.__context__


def install(ip):
    """Wraps the shell's showtraceback (undone by uninstall)."""
    show = ip.showtraceback

    def showtraceback(exc_tuple=None, *args, **kwargs):
        if not config.SHOW_KILN_FRAMES:
            etype, value, tb = ip._get_exc_info(exc_tuple)
            value.__traceback__ = tb
            trim(value)
            exc_tuple = (etype, value, value.__traceback__)
        return show(exc_tuple, *args, **kwargs)

    showtraceback.kiln_wraps = show
    ip.showtraceback = showtraceback


def uninstall(ip):
    if hasattr(ip.showtraceback, "kiln_wraps"):
        ip.showtraceback = ip.showtraceback.kiln_wraps
