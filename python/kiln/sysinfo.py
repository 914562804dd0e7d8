"""What Kiln sees of this machine: the counterpart of `numba -s`, shown by
%kiln_sysinfo and printed by `kiln-kernel --sysinfo` (which calls main()).

The CPU name and features are LLVM's (what the compiler targets), not
/proc/cpuinfo's. Each probe that fails says why instead of failing the
report: a student's machine without CUDA still gets the rest."""
import datetime
import os
import platform
import sys

import _kiln

from kiln.magics.rich import FONT, Rich, esc


def _cfs_quota():
    """CPUs' worth of run time a cgroup v2 quota allows, or None."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:
            quota, period = f.read().split()
    except (OSError, ValueError):
        return None
    return None if quota == "max" else f"{int(quota) / int(period):g}"


def _memory_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _hardware(host):
    enabled = sorted(f[1:] for f in host["cpu_features"].split(",") if f.startswith("+"))
    affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return [
        ("Machine", platform.machine()),
        ("CPU name (LLVM)", host["cpu_name"]),
        ("CPU count", str(os.cpu_count())),
        ("Accessible CPUs", f"{len(affinity)}: {' '.join(map(str, affinity))}" if affinity else "unknown"),
        ("CFS restriction (CPUs)", _cfs_quota() or "none"),
        ("Memory", _memory_total()),
        ("CPU features (LLVM)", " ".join(enabled)),
    ]


def _software(host):
    try:
        import numpy
        numpy_version = numpy.__version__
    except ImportError as exc:
        numpy_version = f"not importable ({exc})"
    return [
        ("OS", platform.platform()),
        ("LLVM", "%d.%d.%d" % tuple(host["llvm_version"])),
        ("LLVM target triple", host["target_triple"]),
        ("Python", f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"),
        ("NumPy", numpy_version),
    ]


def _kiln_rows():
    import kiln

    rows = [
        ("Kiln", getattr(kiln, "__version__", "unknown")),
        ("kiln package", os.path.dirname(kiln.__file__)),
        ("_kiln extension", getattr(_kiln, "__file__", "built in")),
    ]
    # The compiler owns its disk cache (kiln.cache, for cache=True) and thread pool.
    try:
        from kiln import cache
        where = cache.cache_dir()
        rows.append(("Cache location (cache=True)",
                     f"{where} ({'exists' if os.path.isdir(where) else 'not created yet'})"))
    except ImportError:
        rows.append(("Cache location (cache=True)", "none: this Kiln keeps compiled code in memory only"))
    threads = getattr(kiln, "get_num_threads", None)
    rows.append(("Threads for parallel=True", str(threads()) if callable(threads) else
                 "none reported by the compiler"))
    rows.append(("Streaming stores", _streaming()))
    return rows


def _streaming():
    """When an array expression writes its new array past the cache (stream_stores.h)."""
    least = _kiln.stream_min_bytes()
    if least >= 2**63 - 1:
        return "never (the CPU's cache size is unknown)"
    return (f"a new array from an array expression touching {least / 2**20:.1f} MiB or more "
            "(operands and result; half the largest cache) is written past the cache")


def _cuda_rows():
    """The CUDA driver and devices as Kiln's GPU target (kiln.cuda) finds
    them through libcuda.so.1, or why it runs kernels on its simulator."""
    try:
        from kiln import cuda
    except Exception as exc:  # a report keeps going; it says what failed
        return [("CUDA", f"kiln.cuda failed to import: {type(exc).__name__}: {exc}")]
    if not cuda.is_available():
        return [("CUDA", f"no usable GPU ({cuda.simulator_reason()}); kernels run on Kiln's simulator")]
    devices = list(cuda.gpus)
    version = devices[0].driver_version if devices else 0
    rows = [("CUDA driver", f"{version // 1000}.{version % 1000 // 10}"), ("CUDA devices", str(len(devices)))]
    for d in devices:
        major, minor = d.compute_capability
        rows.append((f"Device {d.id}", f"{d.name}, sm_{major}{minor}, {d.multiprocessors} SMs,"
                                       f" {d.total_memory / 2**30:.1f} GiB"))
    return rows


def report():
    """[(section, [(key, value)])], the whole report as data."""
    now = datetime.datetime.now()
    host = _kiln.host_info()
    return [
        ("Time stamp", [("Local time", now.isoformat(sep=" ", timespec="seconds")),
                        ("UTC", datetime.datetime.now(datetime.timezone.utc).isoformat(sep=" ", timespec="seconds"))]),
        ("Hardware", _hardware(host)),
        ("Software", _software(host)),
        ("Kiln", _kiln_rows()),
        ("CUDA", _cuda_rows()),
    ]


def _wrap(value, width):
    """Long values (the feature list) wrapped on spaces to `width` columns."""
    lines, line = [], ""
    for word in value.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def render(sections=None):
    sections = report() if sections is None else sections
    key_w = max(len(k) for _, rows in sections for k, _ in rows)
    text = ["Kiln system information", "-" * 80]
    html = [f'<div class="kiln-sysinfo" style="{FONT}"><table style="border-collapse:collapse">']
    for title, rows in sections:
        text.append(f"__{title}__")
        html.append(f'<tr><th colspan="2" style="text-align:left; padding-top:8px; border-bottom:1px solid #888">'
                    f"{esc(title)}</th></tr>")
        for key, value in rows:
            wrapped = _wrap(str(value), 78 - key_w)
            text.append(f"{key:<{key_w}} : {wrapped[0]}")
            text.extend(f"{'':<{key_w}}   {more}" for more in wrapped[1:])
            html.append(f'<tr><td style="padding:1px 12px 1px 0; vertical-align:top; white-space:nowrap; text-align:left">'
                        f'{esc(key)}</td><td style="text-align:left; vertical-align:top; padding:1px 0">{esc(value)}</td></tr>')
        text.append("")
    html.append("</table></div>")
    return Rich("\n".join(text).rstrip() + "\n", "".join(html))


def main():
    """`kiln-kernel --sysinfo`: the report on stdout. Returns an exit status."""
    sys.stdout.write(render().text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
