"""What a cell's GPU work cost, and what a teacher would point out about it.

summarize(records) takes kiln.cuda.take_records() (launches with grid,
block, registers, occupancy and kernel time from CUDA events, the first 256
launches timed and the first 1024 kept; simulator launches marked simulated,
with the host's time instead; transfers with bytes and time) and returns
totals plus warnings:
  - a grid too small to fill the GPU (on the simulator, an H100),
  - a block that is not a whole number of warps,
  - launches dominated by host<->device copies,
  - float64 arithmetic in a kernel (from its PTX, or as its simulated
    launches counted it) where float32 was probably meant.
format_text(summary) renders it for a cell footer (text/plain); the
notebook face may render the same data as HTML. cell_summary() does it all
for the work since the last call.
"""
import re

import _kiln

from ..magics.rich import fmt_seconds
from . import estimate

# The kernels kiln.cuda.vectorize and guvectorize generate (make_kernel names them)
_GENERATED = re.compile(r"_g?ufunc_\d+$")
# Arithmetic that runs at a fraction of the float32 rate on consumer GPUs
# (and half of it even on an H100).
_F64_OP = re.compile(r"^\s*(?:@%p\d+\s+)?(add|sub|mul|fma|div|sqrt|rcp|min|max|neg|abs)(?:\.\w+)*\.f64\b",
                     re.MULTILINE)
_F32_OP = re.compile(r"^\s*(?:@%p\d+\s+)?(add|sub|mul|fma|div|sqrt|rcp|min|max|neg|abs)(?:\.\w+)*\.f32\b",
                     re.MULTILINE)


def ptx_float_ops(ptx):
    """(float64, float32) arithmetic instruction counts in PTX text."""
    return len(_F64_OP.findall(ptx)), len(_F32_OP.findall(ptx))


def _blocks(launch):
    g = launch["grid"]
    return g[0] * g[1] * g[2]


def _threads_per_block(launch):
    b = launch["block"]
    return b[0] * b[1] * b[2]


def summarize(records, multiprocessors=None, ptx_by_kernel=None):
    """Totals and warnings for one batch of records. multiprocessors: the
    GPU's SM count (for the grid-size warning); ptx_by_kernel: {name: PTX}
    for the float64 warning."""
    launches = records.get("launches", [])
    transfers = records.get("transfers", [])
    kernel_ms = sum(launch["kernel_ms"] or 0.0 for launch in launches)
    transfer_ms = 1e3 * sum(t["seconds"] for t in transfers)
    htod = sum(t["bytes"] for t in transfers if t["direction"] == "htod")
    dtoh = sum(t["bytes"] for t in transfers if t["direction"] == "dtoh")
    warnings = []
    seen = set()
    for launch in launches:
        name = launch["kernel"]
        blocks, threads = _blocks(launch), _threads_per_block(launch)
        # on the simulator, the GPU its estimates are for
        sms = multiprocessors or (estimate.H100.multiprocessors if launch.get("simulated") else None)
        whose = "the GPU's" if multiprocessors else f"an {estimate.H100.name}'s"
        if sms and blocks < sms and ("grid", name) not in seen:
            seen.add(("grid", name))
            # a GPU ufunc's grid is the ufunc's choice: only the data's size is the user's
            advice = ("its inputs are too few elements to fill the GPU, where a GPU ufunc pays off on large arrays"
                      if _GENERATED.search(name) else
                      f"launch at least {2 * sms} blocks (a grid-stride loop handles any size)")
            warnings.append(f"{name}: a grid of {blocks} block{'s' if blocks > 1 else ''} keeps at most "
                            f"{blocks} of {whose} {sms} multiprocessors busy; {advice}")
        if threads % 32 and ("warp", name) not in seen:
            seen.add(("warp", name))
            warnings.append(f"{name}: blocks of {threads} thread{'s' if threads != 1 else ''} are not a whole "
                            "number of 32-thread warps; the last warp of every block runs partly empty")
    if any(not launch.get("simulated") for launch in launches) and transfers and transfer_ms > kernel_ms:
        warnings.append(f"copies between host and GPU took {transfer_ms:.3g} ms against {kernel_ms:.3g} ms "
                        f"in kernels: keep arrays on the GPU (cuda.to_device, cuda.device_array) and copy "
                        f"back only the result")
    simulated = _simulated_work(launches)
    if simulated and estimate.copy_seconds(simulated[0]) > estimate.kernel_seconds(*simulated):
        warnings.append(f"on a GPU, copying the NumPy arrays in and back would take about "
                        f"{fmt_seconds(estimate.copy_seconds(simulated[0]))} against about "
                        f"{fmt_seconds(estimate.kernel_seconds(*simulated))} in the kernels (estimates): keep "
                        f"arrays on the GPU (cuda.to_device, cuda.device_array) and copy back only the result")
    for name, (f64, f32, ran) in sorted(_float_ops(launches, ptx_by_kernel or {}).items()):
        if f64:
            where = "ran in the kernel's launches" if ran else "in the kernel"
            warnings.append(f"{name}: {f64:,} float64 operation{'s' if f64 > 1 else ''} {where} "
                            f"(and {f32:,} float32): GPUs run float64 far slower; if the data is float32, "
                            f"write constants as np.float32(...) and use float32 math")
    return {
        "launches": launches,
        "kernel_ms": kernel_ms,
        "transfer_ms": transfer_ms,
        "htod_bytes": htod,
        "dtoh_bytes": dtoh,
        "launches_dropped": records.get("launches_dropped", 0),
        "warnings": warnings,
    }


def _float_ops(launches, ptx_by_kernel):
    """{kernel: (float64 ops, float32 ops, counted as they ran)} of the kernels launched: the
    instructions of its PTX where it is known, else what its simulated launches counted."""
    counts = {}
    for launch in launches:
        name = launch["kernel"]
        if name in ptx_by_kernel:
            if name not in counts:   # its instructions, read once however often it launched
                counts[name] = (*ptx_float_ops(ptx_by_kernel[name]), False)
        elif launch.get("simulated") and launch.get("work"):
            f64, f32, _ = counts.get(name, (0, 0, True))
            counts[name] = (f64 + launch["work"]["flops64"], f32 + launch["work"]["flops32"], True)
    return counts


def _simulated_work(launches):
    """(summed work, count) of the simulated launches, or None."""
    works = [launch["work"] for launch in launches if launch.get("simulated") and launch.get("work")]
    if not works:
        return None
    return {k: sum(w[k] for w in works) for k in works[0]}, len(works)



def _runs(launches):
    """Launches grouped into runs of the same kernel and configuration, in
    order: a loop of launches is one footer line, not hundreds."""
    runs = []
    for launch in launches:
        key = (launch["kernel"], launch["grid"], launch["block"], bool(launch.get("simulated")))
        if runs and runs[-1][0] == key:
            runs[-1][1].append(launch)
        else:
            runs.append((key, [launch]))
    return [group for _, group in runs]


def _launch_line(group):
    first, n = group[0], len(group)
    head = f"{first['kernel']}[{first['grid']}, {first['block']}]: " + (f"{n} launches, " if n > 1 else "")
    if first.get("simulated"):
        host_ms = sum(launch["host_ms"] for launch in group)
        work = _simulated_work(group)
        guess = f"; {estimate.sentence(*work)}" if work else ""
        return head + (f"simulated on the CPU in {host_ms:.3f} ms{' in all' if n > 1 else ''}, not GPU "
                       f"time{guess}")
    timed = [launch["kernel_ms"] for launch in group if launch["kernel_ms"] is not None]
    if not timed:
        ms = "not timed"
    elif n == 1:
        ms = f"{timed[0]:.3f} ms"
    else:
        ms = f"{sum(timed):.3f} ms in the {len(timed)} timed" if len(timed) < n else f"{sum(timed):.3f} ms in all"
    occupancy = first["occupancy"]
    return head + (f"{ms}, {first['registers']} registers/thread, "
                   f"occupancy {'%.0f%%' % (100 * occupancy) if occupancy is not None else 'unknown'}")


def format_text(summary):
    """A few lines for a cell footer."""
    lines = [_launch_line(group) for group in _runs(summary["launches"])]
    if summary["launches_dropped"]:
        lines.append(f"... and {summary['launches_dropped']} more launches (not recorded)")
    if summary["htod_bytes"] or summary["dtoh_bytes"]:
        lines.append(f"copies: {estimate.report_size(summary['htod_bytes'])} to the GPU, {estimate.report_size(summary['dtoh_bytes'])} back, "
                     f"{summary['transfer_ms']:.3f} ms")
    lines.extend(f"warning: {w}" for w in summary["warnings"])
    return "\n".join(lines)


def cell_summary():
    """summarize() of the GPU work since the last call (it takes the
    records), with this GPU's multiprocessor count and the PTX of the
    kernels that ran. None when nothing ran or was copied."""
    from .driver import loaded_kernels
    records = _kiln.cuda_take_records()
    if not records["launches"] and not records["transfers"]:
        return None
    devices = _kiln.cuda_devices()
    ptx = {launch["kernel"]: loaded_kernels[launch["kernel"]].ptx
           for launch in records["launches"] if launch["kernel"] in loaded_kernels}
    return summarize(records, devices[0]["multiprocessors"] if devices else None, ptx)
