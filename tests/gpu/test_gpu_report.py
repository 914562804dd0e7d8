"""The cell-footer summary of GPU work: totals and the warnings a teacher
wants (grid too small, partial warps, copies dominating, float64 math)."""
import numpy as np

import ir_kernels
from kiln import cuda
from kiln.cuda import compile_ptx_from_ir
from kiln.cuda.report import format_text, ptx_float_ops, summarize


def launch(name, grid, block, kernel_ms=0.5, occupancy=0.75):
    """A launch record as cuda.take_records() gives it."""
    return {"kernel": name, "grid": grid, "block": block, "shared_bytes": 0, "registers": 16,
            "local_bytes": 0, "occupancy": occupancy, "kernel_ms": kernel_ms}


def test_real_transfers_are_summed_and_rendered():
    cuda.take_records()
    device = cuda.to_device(np.zeros(3 << 20, dtype=np.uint8))
    device.copy_to_host()
    summary = summarize(cuda.take_records())
    assert summary["htod_bytes"] == 3 << 20 and summary["dtoh_bytes"] == 3 << 20
    assert "3.0 MiB to the GPU, 3.0 MiB back" in format_text(summary)
    assert summary["warnings"] == []  # copies without launches are not a launch problem


def test_small_grid_and_partial_warp():
    records = {"launches": [launch("k", (4, 1, 1), (100, 1, 1)), launch("k", (4, 1, 1), (100, 1, 1))],
               "transfers": []}
    warnings = summarize(records, multiprocessors=132)["warnings"]
    assert len(warnings) == 2  # once per kernel, not per launch
    assert "4 of the GPU's 132 multiprocessors" in warnings[0] and "264 blocks" in warnings[0]
    assert "100 threads" in warnings[1]
    assert summarize({"launches": [launch("k", (264, 1, 1), (128, 1, 1))], "transfers": []},
                     multiprocessors=132)["warnings"] == []


def test_a_small_simulated_grid_is_measured_against_an_h100():
    # no GPU to ask: the simulator's launches are judged against the GPU its estimates are for
    simulated = dict(launch("k", (4, 1, 1), (128, 1, 1)), simulated=True)
    (warning,) = summarize({"launches": [simulated], "transfers": []})["warnings"]
    assert warning.startswith("k: a grid of 4 blocks keeps at most 4 of an H100's 132 multiprocessors busy")
    assert summarize({"launches": [dict(simulated, grid=[264, 1, 1])], "transfers": []})["warnings"] == []


def test_a_gpu_ufuncs_small_grid_blames_the_data_not_the_launch():
    (warning,) = summarize({"launches": [launch("scale_ufunc_3", (4, 1, 1), (128, 1, 1))], "transfers": []},
                           multiprocessors=132)["warnings"]
    assert warning == ("scale_ufunc_3: a grid of 4 blocks keeps at most 4 of the GPU's 132 multiprocessors busy; its "
                       "inputs are too few elements to fill the GPU, where a GPU ufunc pays off on large arrays")


def test_float64_work_counted_by_the_simulator_is_a_warning():
    work = {"flops32": 300, "flops64": 100, "global_bytes": 0, "shared_bytes": 0, "host_bytes": 0}
    launches = [dict(launch("k", (264, 1, 1), (128, 1, 1)), simulated=True, work=work)] * 2
    (warning,) = summarize({"launches": launches, "transfers": []})["warnings"]
    assert warning.startswith("k: 200 float64 operations ran in the kernel's launches (and 600 float32): GPUs run "
                              "float64 far slower")
    no_f64 = dict(work, flops64=0)
    assert summarize({"launches": [dict(launches[0], work=no_f64)], "transfers": []})["warnings"] == []


def test_copies_dominating_the_kernel():
    transfers = [{"direction": "htod", "bytes": 1 << 26, "seconds": 0.01, "async": False}]
    summary = summarize({"launches": [launch("add", (264, 1, 1), (256, 1, 1), kernel_ms=0.3)],
                         "transfers": transfers})
    assert any("keep arrays on the GPU" in w for w in summary["warnings"])
    quick = [{"direction": "htod", "bytes": 1024, "seconds": 1e-6, "async": False}]
    assert summarize({"launches": [launch("add", (264, 1, 1), (256, 1, 1))], "transfers": quick})["warnings"] == []


def test_float64_warning_from_real_ptx():
    sin_ptx = compile_ptx_from_ir(ir_kernels.SIN, "sin_scale")
    add_ptx = compile_ptx_from_ir(ir_kernels.ADD, "add")
    f64, _ = ptx_float_ops(sin_ptx)
    assert f64 > 0 and ptx_float_ops(add_ptx) == (0, 1)
    records = {"launches": [launch("sin_scale", (264, 1, 1), (256, 1, 1)), launch("add", (264, 1, 1), (256, 1, 1))],
               "transfers": []}
    warnings = summarize(records, ptx_by_kernel={"sin_scale": sin_ptx, "add": add_ptx})["warnings"]
    assert len(warnings) == 1 and warnings[0].startswith("sin_scale:") and "float64" in warnings[0]


def test_text_lines_per_launch():
    text = format_text(summarize({"launches": [launch("add", (264, 1, 1), (256, 1, 1), 0.299, 1.0)],
                                  "transfers": []}))
    assert text == "add[(264, 1, 1), (256, 1, 1)]: 0.299 ms, 16 registers/thread, occupancy 100%"


def test_untimed_and_dropped_launches_are_said():
    records = {"launches": [launch("add", (264, 1, 1), (256, 1, 1), kernel_ms=None)], "transfers": [],
               "launches_dropped": 5000}
    text = format_text(summarize(records))
    assert "add[(264, 1, 1), (256, 1, 1)]: not timed" in text and "5000 more launches" in text


def test_cell_summary_takes_the_records():
    from kiln.cuda.report import cell_summary
    cuda.take_records()
    assert cell_summary() is None  # nothing happened
    cuda.to_device(np.arange(1000, dtype=np.int64))
    summary = cell_summary()
    assert summary["htod_bytes"] == 8000 and summary["launches"] == []
    assert cell_summary() is None  # taken
