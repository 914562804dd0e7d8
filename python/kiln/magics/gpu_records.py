"""A cell's GPU work for its footer: kiln.cuda's launch and transfer records,
summarized and worded by kiln.cuda.report (kernel times, occupancy, copies,
and the teacher's warnings). Only read when the cell's code imported
kiln.cuda: the footer never starts CUDA by itself."""
import sys


def take():
    """kiln.cuda.report's summary of the records since the last call, or
    None when there were none (or kiln.cuda is not in use)."""
    if "kiln.cuda" not in sys.modules:
        return None
    from kiln.cuda import report

    return report.cell_summary()


def lines(summary):
    """[(is_warning, text)]: the footer's GPU lines, in kiln.cuda.report's words."""
    from kiln.cuda import report

    return [(line.startswith("warning: "), line) for line in report.format_text(summary).splitlines()]
