"""A cell's GPU work for its footer: kiln.cuda's launch and transfer records,
summarized and worded by kiln.cuda.report (kernel times, occupancy, copies,
and the teacher's warnings). Only read when the cell's code imported
kiln.cuda: the footer never starts CUDA by itself."""
import sys


def take():
    """kiln.cuda.report's summary of the records since the last call, or
    None when there were none (or kiln.cuda is not in use)."""
    cuda = sys.modules.get("kiln.cuda")
    if cuda is None:
        return None
    records = cuda.take_records()
    if not records.get("launches") and not records.get("transfers"):
        return None
    from kiln.cuda import report

    devices = list(cuda.gpus) if cuda.is_available() else []
    return report.summarize(records, multiprocessors=devices[0].multiprocessors if devices else None)


def lines(summary):
    """[(is_warning, text)]: the footer's GPU lines, in kiln.cuda.report's words."""
    from kiln.cuda import report

    return [(line.startswith("warning: "), line) for line in report.format_text(summary).splitlines()]
