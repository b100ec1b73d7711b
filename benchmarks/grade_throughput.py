"""Throughput and memory of `rome-tui grade` against the orjson floor.

    .venv/bin/python benchmarks/grade_throughput.py [--corpus realistic|synthetic]
        [--n 100000] [--mode strict|rome] [--flags both|on|off]

Generates a corpus from ``benchmarks/corpus.py`` (default 100,000 items of the
``realistic`` one, shaped like a ROME run: the five ROME evaluators evenly,
~430-byte annotations, ~1.3 KB predictions with a ~530-character reasoning in
``reason`` on three quarters of them; ``synthetic`` is the older corpus of
2-8 KB repeated reasoning), then in fresh subprocesses:

1. grades it (load, pair, both rule modes, flags, hashing, writing the three
   files), with the behaviour-flag detectors and without them;
2. measures the floor: orjson parsing the two input files plus orjson
   serialising and writing the graded records.

Before each of them the disk is synced, outside the timings, so that no run
waits for writes the one before left (the floor does not fsync its file).

Prints items/s, the ratio grading time / floor time (wall, and CPU time of the
grading process and every process it forked or started), and peak memory as a
multiple of the input size: the larger of the grading process's peak RSS
(``VmHWM``) above its RSS after imports, and the peak sum of the proportional
set sizes (PSS, ``/proc/PID/smaps_rollup``, sampled every 100 ms) of it and its
children above its PSS after imports. Forked workers share most of their pages
with the grading process; PSS charges each shared page once in all, split
between the processes sharing it, where summing RSS would count it once per
process. Targets: ratio <= 1.5 without flags and <= 2.0 with them, memory <=
2x input. The load average is printed too: the timings mean little on a busy
machine.

``--keep DIR`` generates into DIR and keeps the corpus; run again with the
same DIR and ``--reuse`` to skip generating it. By default ``rome-tui grade``
streams the run with one forked process per CPU; ``--jobs N`` sets
``ROME_TUI_JOBS=N`` (at most N processes; 1: one process).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402
from proc_measure import child_imports, pss_kb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# What both children measure with: memory from /proc/self/status and
# smaps_rollup, CPU of the process and of the children it waited for (the
# forked grading processes, which grade_files waits for before it returns).
MEASURE = child_imports("cpu", "own_cpu", "peak_kb", "pss_kb", "rss_kb")

GRADE_CHILD = (
    MEASURE
    + r"""
import json, sys, time
from scorers.flags import flagging, behaviour as flags  # imports before the clock starts
from scorers.grade import run as grade_run  # imports before the clock starts
from scorers.evaluate import rome, strict  # imports before the clock starts
import scorers.evaluate.mathmatch
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
if sys.argv[5] == "no-flags":
    flagging.DETECTOR_MODULES = tuple(m for m in flagging.DETECTOR_MODULES if m != "scorers.flags.behaviour")
flagging.detectors()
base, base_pss = rss_kb(), pss_kb()
settings = RunSettings(mode=sys.argv[4], reject_filter=sys.argv[4] == "strict", harness_stats=sys.argv[4] == "strict")
start, start_cpu, start_own = time.perf_counter(), cpu(), own_cpu()
result = grade_run.grade_files(sys.argv[1], sys.argv[2], settings, paths=ResultsPaths.of(sys.argv[3]))
seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
own_seconds = own_cpu() - start_own
peak = peak_kb()
print(json.dumps({"seconds": seconds, "cpu": cpu_seconds, "own_cpu": own_seconds, "base_kb": base, "base_pss_kb": base_pss, "peak_kb": peak, "timings": result.timings, "n": len(result.graded), "jobs": int(result.timings.get("processes", 1))}))
"""
)

FLOOR_CHILD = (
    MEASURE
    + r"""
import json, sys, time, orjson
base = rss_kb()
start, start_cpu = time.perf_counter(), cpu()
inputs = []
for path in sys.argv[1:3]:
    with open(path, "rb") as f:
        inputs.append(orjson.loads(f.read()))
load, load_cpu = time.perf_counter() - start, cpu() - start_cpu
load_peak = peak_kb() - base
del inputs
with open(sys.argv[3], "rb") as f:
    records = orjson.loads(f.read())
start, start_cpu = time.perf_counter(), cpu()
data = orjson.dumps(records, option=orjson.OPT_INDENT_2)
with open(sys.argv[4], "wb") as f:
    f.write(data)
dump, dump_cpu = time.perf_counter() - start, cpu() - start_cpu
print(json.dumps({"load": load, "dump": dump, "cpu": load_cpu + dump_cpu, "load_peak_kb": load_peak}))
"""
)


def _tree(pid: int) -> list[int]:
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return pids


def _child(code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter; its last stdout line is JSON.

    Adds ``tree_peak_kb``: the peak total PSS of the process and its children.
    """
    with subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as proc:
        peak = 0
        sampling = os.path.exists(f"/proc/{proc.pid}/smaps_rollup")
        while sampling and proc.poll() is None:
            peak = max(peak, sum(pss_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.1)
        out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(err)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["tree_peak_kb"] = peak
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    corpus.add_argument(parser)
    parser.add_argument("--n", type=int, default=100_000, help="items (default 100000)")
    parser.add_argument("--mode", choices=("strict", "rome"), default="strict")
    parser.add_argument(
        "--flags",
        choices=("both", "on", "off"),
        default="both",
        help="behaviour-flag detectors on, off or both runs",
    )
    parser.add_argument("--keep", default=None, help="generate into this directory and keep it")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: use the corpus already there"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="ROME_TUI_JOBS: at most this many grading processes (1: one process; "
        "default: one per CPU)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each variant; the summary takes the best"
    )
    args = parser.parse_args()
    env = dict(os.environ)
    if args.jobs is not None:
        env["ROME_TUI_JOBS"] = str(args.jobs)
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        a_path, p_path = work / "annotations.json", work / "predictions.json"
        if not (args.reuse and a_path.exists() and p_path.exists()):
            a_path, p_path = corpus.generate(work, args.n, args.corpus)
        input_bytes = a_path.stat().st_size + p_path.stat().st_size
        print(
            f"{args.corpus} corpus: {args.n} items, {input_bytes / 1e6:.1f} MB input, ready in {time.perf_counter() - t0:.1f} s; "
            f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs"
        )
        runs = {"both": ("flags", "no-flags"), "on": ("flags",), "off": ("no-flags",)}[args.flags]
        for flags in runs:
            out = work / f"out-{flags}"
            out.mkdir(exist_ok=True)
            label = f"{args.mode} mode, {'with' if flags == 'flags' else 'without'} behaviour flags"
            best: dict[str, float] = {}
            for _ in range(max(1, args.repeat)):
                graded, floor = _run_once(args.mode, flags, a_path, p_path, out, work, env)
                _report(label, graded, floor, input_bytes)
                for key, value in (
                    ("grade", graded["seconds"]),
                    ("grade_cpu", graded["cpu"]),
                    ("floor", floor["load"] + floor["dump"]),
                    ("floor_cpu", floor["cpu"]),
                ):
                    best[key] = min(best.get(key, value), value)
            if args.repeat > 1:
                print(
                    f"{label}, best of {args.repeat}: grade {best['grade']:.2f} s / floor "
                    f"{best['floor']:.2f} s = ratio {best['grade'] / best['floor']:.2f}; "
                    f"CPU {best['grade_cpu']:.2f} s / {best['floor_cpu']:.2f} s = "
                    f"{best['grade_cpu'] / best['floor_cpu']:.2f} (target <= {_target(label)}); "
                    f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
                )


def _run_once(
    mode: str, flags: str, a_path: Path, p_path: Path, out: Path, work: Path, env: dict[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    # Each run starts with no writes of the previous one still on their way to
    # the disk: the floor writes its file without fsync, and the kernel would
    # otherwise flush it during the next grading run, whose fsync waits for it.
    _settle()
    graded = _child(GRADE_CHILD, str(a_path), str(p_path), str(out), mode, flags, env=env)
    _settle()
    floor = _child(
        FLOOR_CHILD,
        str(a_path),
        str(p_path),
        str(out / "updated_predictions.json"),
        str(work / "floor.json"),
    )
    return graded, floor


def _settle() -> None:
    if hasattr(os, "sync"):
        os.sync()


def _target(label: str) -> str:
    """The time target of a run: flags are allowed more than the grading path alone."""
    return "2.0" if "with behaviour flags" in label else "1.5"


def _report(label: str, graded: dict[str, Any], floor: dict[str, Any], input_bytes: int) -> None:
    floor_s = floor["load"] + floor["dump"]
    peak_kb = max(
        graded["peak_kb"] - graded["base_kb"], graded["tree_peak_kb"] - graded["base_pss_kb"]
    )
    peak_bytes = peak_kb * 1024
    t = graded["timings"]
    print(
        f"{label}, {graded['jobs']} grading process(es): "
        f"{graded['n'] / graded['seconds']:,.0f} items/s; grade {graded['seconds']:.2f} s "
        f"(load {t['load']:.2f}, grade {t['grade']:.2f}, save {t['save']:.2f}); "
        f"orjson floor {floor_s:.2f} s (load {floor['load']:.2f}, dump {floor['dump']:.2f}); "
        f"ratio {graded['seconds'] / floor_s:.2f}, by CPU time {graded['cpu'] / floor['cpu']:.2f} "
        f"(target <= {_target(label)}; CPU {graded['cpu']:.1f} s, {graded['own_cpu']:.1f} of it in the "
        f"grading process, against {floor['cpu']:.1f} s); "
        f"peak memory {peak_bytes / 1e6:.0f} MB = {peak_bytes / input_bytes:.2f}x input (target <= 2); "
        f"orjson alone holding the parsed inputs peaks at {floor['load_peak_kb'] * 1024 / input_bytes:.2f}x input; "
        f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
