"""A line under the cell saying what a long magic is doing while it runs,
updated in place as tqdm's notebook bar is, which the magic's result then
replaces (or, for %timeit, which prints its result, which is emptied):
%compare and %timeit of statements taking seconds showed nothing until
they ended. It appears only once the work has taken PROGRESS_AFTER seconds, and
only where displays can be updated in place (a notebook through the Kiln
kernel or ipykernel); a terminal gets the result alone."""
import time

from IPython.display import display

from .rich import FONT, esc

PROGRESS_AFTER = 1.0   # seconds of quiet before a line appears


def _updates_in_place(shell):
    """Whether this shell's displays go to a frontend that updates them by id
    (a kernel's publisher), rather than printing (terminal) or collecting
    them (capture_output)."""
    return type(shell.display_pub).__name__ not in ("DisplayPublisher", "CapturingDisplayPublisher")


class Progress:
    def __init__(self, shell):
        self.start = time.perf_counter()
        self.live = _updates_in_place(shell)
        self.handle = None

    def show(self, text, fraction=None):
        """Says `text` with a bar `fraction` (0..1) done (None: a bar that
        only says work goes on), once the work has gone on long enough to be
        worth a line."""
        if not self.live or time.perf_counter() - self.start < PROGRESS_AFTER:
            return
        done = "" if fraction is None else f' value="{fraction:.3f}"'
        bundle = {"text/plain": f"kiln: {text}" + ("" if fraction is None else f" ({fraction:.0%})"),
                  "text/html": f'<div class="kiln-progress" style="{FONT} color:#555">'
                               f'<progress{done} max="1" style="width:160px; vertical-align:middle">'
                               f"</progress> {esc(text)}</div>"}
        if self.handle is None:
            self.handle = display(bundle, raw=True, display_id=True)
        else:
            self.handle.update(bundle, raw=True)

    def finish(self, bundle=None):
        """Shows the result `bundle` in place of the progress line, or with
        None (a magic that prints its result) empties the line."""
        if self.handle is not None:
            self.handle.update(bundle or {"text/plain": "", "text/html": ""}, raw=True)
        elif bundle is not None:
            display(bundle, raw=True)
