"""%timeit's and %compare's word on kernels the CUDA simulator ran while
they timed: those times are the CPU's, not a GPU's, and kiln.cuda.estimate
says what an H100 would roughly take instead. It reads the difference of
_kiln.cuda_sim_totals, which nothing takes, so the cell's footer still gets
the launch records."""
import _kiln

WORK = ("flops32", "flops64", "global_bytes", "shared_bytes", "host_bytes")


def snapshot():
    return _kiln.cuda_sim_totals()


def since(before):
    """(work, launches) of the simulated launches since snapshot `before`,
    or None when there were none."""
    now = _kiln.cuda_sim_totals()
    launches = now["launches"] - before["launches"]
    if not launches:
        return None
    return {k: now[k] - before[k] for k in WORK}, launches


def estimate_sentence(work, launches):
    """kiln.cuda.estimate's sentence for these launches."""
    from kiln.cuda import estimate   # only once kernels ran: kiln.cuda is loaded then

    return estimate.sentence(work, launches)


def timeit_line(delta):
    """The line %timeit prints after timing simulated launches: per launch,
    since the calibration loop's calls are not counted anywhere."""
    work, launches = delta
    average = {k: v // launches for k, v in work.items()}
    return (f"kiln: the kernels timed ran on the CUDA simulator, on the CPU, so these are not GPU times; "
            f"for each launch, {estimate_sentence(average, 1)}.")
