"""What a benchmark measures a process by (Linux): memory from ``/proc``, CPU
time from ``getrusage``. A benchmark imports it, and its ``python -c`` children
through :func:`child_imports`; ``grade_throughput.py`` also samples a child's
process tree with :func:`pss_kb`."""

from __future__ import annotations

import resource
from pathlib import Path


def status_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def rss_kb() -> int:
    return status_kb("VmRSS:")


def pss_kb(pid: int | str = "self") -> int:
    """Proportional set size: a page shared by n processes counts 1/n in each.
    Reading smaps_rollup walks the process's page tables (a few ms for 300 MB),
    hence sampling a running process every 100 ms rather than every 20."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak_kb() -> int:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across
    # fork and exec, so a child of a process that generated a large corpus would
    # report the parent's peak.
    return status_kb("VmHWM:")


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu() -> float:
    """CPU time of this process and of the children it waited for."""
    return sum(
        r.ru_utime + r.ru_stime
        for r in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def child_imports(*names: str) -> str:
    """Source that imports ``names`` from this module in a ``python -c`` child.
    Its folder is appended to the path, so that no benchmark shadows a module."""
    here = str(Path(__file__).resolve().parent)
    return f"import sys\nsys.path.append({here!r})\nfrom proc_measure import {', '.join(names)}\n"
