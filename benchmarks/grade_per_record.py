"""Where a record's grading time goes, on the realistic and the synthetic corpus.

    .venv/bin/python benchmarks/grade_per_record.py [--n 20000] [--repeat 3]

Generates the first ``--n`` items of each corpus of ``benchmarks/corpus.py``,
loads and pairs them, and then, in this one process (no grading worker), with
the behaviour-flag detectors off as in ``grade_throughput.py --flags off``,
times each piece of grading per record, best of ``--repeat`` passes, after one
pass that loads strict mode's data: ``Grader.grade_record`` (both rule modes
and the graded record; each mode's evaluators are also timed alone), what
``Grader.finish`` adds (the reasoning/answer split, the content hash, the flags
that remain), serialising the record as the writer does, and its row of the
scores tally. Beside them, the orjson floor per record: parsing the two input
files and serialising the graded records. CPU time, so a busy machine inflates
every line alike. The evaluators' memos (``scorers.evaluate.memo``) are
emptied before every pass, so each pass reads every distinct answer once, as a
run does.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

from scorers.evaluate import memo, rome, strict  # noqa: E402
from scorers.flags import flagging  # noqa: E402
from scorers.grade.grader import Grader  # noqa: E402
from scorers.io.loading import load_annotations, load_predictions  # noqa: E402
from scorers.io.pairing import pair  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402
from scorers.io.scores import tally_of  # noqa: E402

Pairs = list[tuple[dict[str, Any], dict[str, Any]]]


def _best(repeat: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeat):
        memo.clear_all()  # each pass reads every distinct answer once, as a run does
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def measure(name: str, n: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        a_path, p_path = corpus.generate(Path(tmp), n, name)
        input_bytes = a_path.stat().st_size + p_path.stat().st_size
        raw = [a_path.read_bytes(), p_path.read_bytes()]
        annotations, _ = load_annotations(str(a_path))
        predictions, _ = load_predictions(str(p_path))
    pairs: Pairs = pair(annotations, predictions, "strict").pairs
    settings = RunSettings(mode="strict", reject_filter=True, harness_stats=True)

    def fresh() -> Pairs:
        return [(dict(p), g) for p, g in pairs]

    def evaluators(mode: str) -> Callable[[], None]:
        def run() -> None:
            for p, g in pairs:
                ev, kw = g["evaluator"], g["evaluator_kwargs"]
                if mode == "rome":
                    rome.evaluate_full(ev, kw, p["answer"])
                else:
                    strict.evaluate(ev, kw, p["answer"], g.get("question"))

        return run

    graded: list[dict[str, Any]] = []

    def grade() -> None:
        grader = Grader(settings)
        graded[:] = [grader.grade_record(p, g) for p, g in fresh()]

    def finish() -> None:
        grader = Grader(settings)
        for record in graded:
            grader.finish(record)

    def dump() -> None:
        for record in graded:
            orjson.dumps(record, option=orjson.OPT_INDENT_2)

    def tally() -> None:
        tally_of(settings).add(graded)

    def floor() -> None:
        for data in raw:
            orjson.loads(data)
        orjson.dumps(graded, option=orjson.OPT_INDENT_2)

    evaluators("strict")()  # strict mode's data loads on first use
    out = {
        "grade_record": _best(repeat, grade),
        "  of which rome evaluators": _best(repeat, evaluators("rome")),
        "  of which strict evaluators": _best(repeat, evaluators("strict")),
    }
    out["finish (split, hash, flags)"] = _best(repeat, finish)
    out["serialise"] = _best(repeat, dump)
    out["scores tally"] = _best(repeat, tally)
    out["orjson floor (load + dump)"] = _best(repeat, floor)
    per_record = {k: v / len(pairs) * 1e6 for k, v in out.items()}
    per_record["bytes"] = input_bytes / len(pairs)
    return per_record


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    modules = flagging.DETECTOR_MODULES
    flagging.DETECTOR_MODULES = tuple(m for m in modules if m != "scorers.flags.behaviour")
    gc.disable()
    results = {name: measure(name, args.n, args.repeat) for name in corpus.CORPORA}
    names = list(results)
    print(f"us of CPU per record, {args.n:,} records, best of {args.repeat}:")
    print(f"{'':32s}" + "".join(f"{n:>12s}" for n in names))
    for key in results[names[0]]:
        if key == "bytes":
            continue
        print(f"{key:32s}" + "".join(f"{results[n][key]:12.1f}" for n in names))
    total = {
        n: sum(
            v
            for k, v in results[n].items()
            if not k.startswith(" ") and k not in ("bytes", "orjson floor (load + dump)")
        )
        for n in names
    }
    print(f"{'grading, all of the above':32s}" + "".join(f"{total[n]:12.1f}" for n in names))
    print(
        f"{'input bytes per record':32s}" + "".join(f"{results[n]['bytes']:12.0f}" for n in names)
    )
    print(
        f"{'grading / floor':32s}"
        + "".join(f"{total[n] / results[n]['orjson floor (load + dump)']:12.2f}" for n in names)
    )


if __name__ == "__main__":
    main()
