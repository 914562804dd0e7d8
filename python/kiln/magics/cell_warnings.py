"""Kiln's own warnings raised while a cell runs (a prange loop kept serial, a loop optimized
away as unused, a function the disk cache could not keep) are said once, as warning lines of
the cell's footer, instead of each as a block of stderr headed by the cell's generated file
name and followed by the source line: the footer already names an unused loop, and the
parallel view names a serial loop's reason. Python's filters still decide whether a warning
is shown at all (this replaces showwarning, which runs after them): "ignore" silences one,
"error" raises it, and warnings.catch_warnings(record=True) records it. Outside a cell, and
every other warning, Python shows as usual."""
import warnings

import _kiln

from kiln.cache import CacheWarning
from kiln.unused_work import UnusedWorkWarning

KILN_WARNINGS = (_kiln.ParallelSafetyWarning, UnusedWorkWarning, CacheWarning)


class FooterWarnings:
    """Holds the Kiln warnings of the running cell, each text once, for its footer."""

    def __init__(self):
        self._held = None   # a list while a cell runs
        self._previous = warnings.showwarning
        warnings.showwarning = self._show

    def start(self):
        self._held = []

    def take(self):
        """The warning lines held since start(), without the "kiln: " their text begins with."""
        held, self._held = self._held or [], None
        return held

    def close(self):
        self._held = None   # should something have wrapped _show since, it passes everything on
        if warnings.showwarning == self._show:
            warnings.showwarning = self._previous

    def _show(self, message, category, filename, lineno, file=None, line=None):
        if self._held is None or not issubclass(category, KILN_WARNINGS):
            self._previous(message, category, filename, lineno, file, line)
        elif category is not UnusedWorkWarning:   # the footer gives those a line of their own
            text = str(message).removeprefix("kiln: ")
            if text not in self._held:
                self._held.append(text)
