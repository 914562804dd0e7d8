"""What kernels run on the CUDA simulator would roughly take on a GPU.

The simulator's time is the CPU's, and a course that prints it as GPU time
("Speedup CUDA: 47") teaches the wrong thing. Each simulated launch counts
what its threads did (gpu/sim_work.c): float operations, and bytes read and
written in global and in shared memory. A GPU's time is then estimated as
its launch overhead plus the slowest of moving those bytes and doing those
operations at its rates, and a launch given NumPy arrays also copies them
in and back over PCIe. It is an estimate, a floor for the work counted:
caches, latency, divergence and occupancy are not modelled, and it says so
where it is shown.
"""
from dataclasses import dataclass

from ..magics.rich import fmt_seconds


def report_size(n):
    """Bytes as the footer's GPU lines write them: 1.5 MiB, 512 B."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


@dataclass(frozen=True)
class GPU:
    name: str
    launch_s: float          # one launch, from Python
    memory_bytes_s: float    # global memory
    shared_bytes_s: float    # shared memory, all multiprocessors together
    flops32_s: float
    flops64_s: float
    host_copy_bytes_s: float  # a NumPy (pageable) array to the GPU or back
    multiprocessors: int


# An H100 80GB HBM3 (SXM). Launch, memory and copy rates are Kiln's own
# measurements on one (bench/gpu/RESULTS.md: an empty launch 4.5-7.3 us,
# add over 2^26 float32 at 2.66-2.69 TB/s, pageable copies 6-15 GB/s); the
# float rates are NVIDIA's figures without tensor cores, and shared memory
# is 132 multiprocessors at 128 bytes a clock (about 1.75 GHz).
H100 = GPU("H100", launch_s=6e-6, memory_bytes_s=2.7e12, shared_bytes_s=29.6e12, flops32_s=67e12,
           flops64_s=34e12, host_copy_bytes_s=10e9, multiprocessors=132)


def kernel_seconds(work, launches=1, gpu=H100):
    """Estimated GPU time of `launches` launches that together did `work`
    (a launch record's "work", or cuda_sim_totals' difference)."""
    busiest = max(work["global_bytes"] / gpu.memory_bytes_s, work["shared_bytes"] / gpu.shared_bytes_s,
                  work["flops32"] / gpu.flops32_s, work["flops64"] / gpu.flops64_s)
    return launches * gpu.launch_s + busiest


def copy_seconds(work, gpu=H100):
    """Estimated time to copy the launches' NumPy arrays in and back."""
    return 2 * work["host_bytes"] / gpu.host_copy_bytes_s


def sentence(work, launches=1, gpu=H100):
    """'an H100 would take about 6 us (estimate from ...)', with the copies
    of NumPy arrays when there were any."""
    flops = work["flops32"] + work["flops64"]
    moved = work["global_bytes"] + work["shared_bytes"]
    text = (f"an {gpu.name} would take about {fmt_seconds(kernel_seconds(work, launches, gpu))} (an estimate from the "
            f"launch{'es' if launches != 1 else ''}, {report_size(moved)} moved and {flops:,} float operations)")
    if work["host_bytes"]:
        text += f" plus about {fmt_seconds(copy_seconds(work, gpu))} copying NumPy arrays in and back"
    return text
