"""Streams and events with Numba's names. Stream 0 (or None) is the default
stream, as in Numba."""
import contextlib

import _kiln

Stream = _kiln.Stream
Event = _kiln.Event


def stream_handle(stream):
    """What the C layer takes for a stream argument: None for the default
    stream (Numba's 0), else a kiln.cuda stream."""
    if stream is None or (isinstance(stream, int) and stream == 0):
        return None
    if not isinstance(stream, Stream):
        raise TypeError(f"stream must be a kiln.cuda stream, 0 or None, not {type(stream).__name__}")
    return stream


def stream():
    """A new CUDA stream: work queued on it runs in order, and may overlap
    with work on other streams."""
    return Stream()


def default_stream():
    return Stream(default=True)


def event(timing=True):
    """A CUDA event: record() it on a stream, then start.elapsed_time(end)
    gives milliseconds between two of them."""
    return Event(timing=timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


@contextlib.contextmanager
def auto_synchronize(s):
    """`with kiln.cuda.auto_synchronize(s):` waits for the stream at the end."""
    yield s
    s.synchronize()
