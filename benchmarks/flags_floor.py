"""A lower bound on what any Python detector of #4's flags costs per record, beside the real ones.

    .venv/bin/python benchmarks/flags_floor.py [--n 5000] [--repeat 5] [--grading-seconds S]

On the first ``--n`` items of ``grade_throughput.py``'s corpus (same seed) it
times, per record and in this process, steps that every detector of the
issue's flags must take, each done the cheapest way this project knows, and
each doing less than a real detector needs:

- ``lower``: the reasoning lowercased (``scan.lowered``), so that "Searched"
  and "searched" read alike;
- ``scan``: the stems found, without the overlapping ones (which a real
  detector needs too): the tool-claim stems ("search", "python", "zoom"...)
  over the whole reasoning, since a claim can be anywhere, with leftmost-first
  Aho-Corasick automata of at most 48 stems each (``ahocorasick_rs`` then
  searches with SIMD, about twice as fast here as the overlapping DFA the
  detectors use); and the stems of hedges, resolutions, abstentions and
  committed answers (hundreds of them: too many for SIMD) over the closing
  part, with one DFA;
- ``visit``: a Python loop over the stems found that, for a claim stem, looks
  the word before it up in the set of negating words ("cannot search"). A
  real detector reads the whole clause, and tries each stem's pattern;
- ``output``: the flags the real detectors raise, serialised with orjson, as
  the graded file carries them.

It also times the real detectors (``scorers.flags.behaviour.detect``) on the same
records. Each figure is the best of ``--repeat`` passes, per record. With
``--grading-seconds`` (grade_throughput's wall time for 100,000 items without
the detectors, both processes busy) it prints the budget per record that
#4's target (detectors add at most 30%) leaves, 0.3 x seconds x 2 processes
/ 100,000 items, and how much of it the lower bound already takes.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ahocorasick_rs
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from flags_per_record import corpus_parser, graded_jobs  # noqa: E402

from scorers.flags.behaviour import conclusion, contradiction, cues, lexicon, tool_claims  # noqa: E402
from scorers.flags.behaviour.scan import lowered  # noqa: E402
from scorers.flags.behaviour.spans import tail_start  # noqa: E402
from scorers.flags.flagging import FlagContext  # noqa: E402

_ITEMS = 100_000
_PROCESSES = 2
_TARGET = 0.30
_SIMD_STEMS = 48  # above ~50 patterns ahocorasick_rs stops using its SIMD search


def _dfa(stems: set[str]) -> ahocorasick_rs.BytesAhoCorasick:
    ordered = sorted(s for s in stems if s.isascii())
    dfa = ahocorasick_rs.Implementation.DFA
    return ahocorasick_rs.BytesAhoCorasick([s.encode() for s in ordered], implementation=dfa)


def _gates(stems: set[str]) -> list[ahocorasick_rs.BytesAhoCorasick]:
    ordered = sorted(s for s in stems if s.isascii())
    leftmost = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
    return [
        ahocorasick_rs.BytesAhoCorasick(
            [s.encode() for s in ordered[i : i + _SIMD_STEMS]], matchkind=leftmost
        )
        for i in range(0, len(ordered), _SIMD_STEMS)
    ]


def _best(repeat: int, jobs: list[Any], step: Callable[[Any], object]) -> list[float]:
    best = [float("inf")] * len(jobs)
    clock = time.perf_counter
    for _ in range(repeat):
        for i, job in enumerate(jobs):
            start = clock()
            step(job)
            best[i] = min(best[i], clock() - start)
    return best


def main() -> None:
    parser = corpus_parser(__doc__)
    parser.add_argument(
        "--grading-seconds",
        type=float,
        help="grade_throughput's time for 100,000 items without the detectors",
    )
    args = parser.parse_args()
    from scorers.flags import behaviour as flags

    jobs = graded_jobs(args.n, corpus_name=args.corpus)
    claim_gates = _gates({s for fam in tool_claims._SCANNER.families for s in fam.stems})
    tail_scan = _dfa({s for fam in (*lexicon.FAMILIES, *conclusion.FAMILIES) for s in fam.stems})
    texts = [t.reasoning for _, t in jobs]
    lows = [lowered(t) for t in texts]
    starts = [tail_start(t, *contradiction.TAIL) for t in texts]
    # The bytes the automata search: one byte per character, the others as "?".
    data = [low.encode("latin-1", "replace") for low in lows]

    def found(i: int) -> tuple[list[Any], list[Any]]:
        whole, tail = data[i], data[i][starts[i] :]
        claims = [hit for gate in claim_gates for hit in gate.find_matches_as_indexes(whole)]
        closing = tail_scan.find_matches_as_indexes(tail)
        return claims, closing

    hits = [found(i) for i in range(len(jobs))]
    negating = cues._NOT_DONE_WORDS

    def visit(i: int) -> int:
        low = lows[i]
        kept = 0
        for _, start, _ in hits[i][0]:
            space = low.rfind(" ", 0, start - 1)
            if low[space + 1 : start - 1] not in negating:
                kept += 1
        for _ in hits[i][1]:
            kept += 1
        return kept

    ctx = FlagContext()
    raised = [list(flags.detect(record, texts_, ctx)) for record, texts_ in jobs]
    index = list(range(len(jobs)))
    steps = {
        "lower": _best(args.repeat, texts, lowered),
        "scan": _best(args.repeat, index, found),
        "visit": _best(args.repeat, index, visit),
        "output": _best(args.repeat, raised, orjson.dumps),
        "detect": _best(args.repeat, jobs, lambda job: list(flags.detect(job[0], job[1], ctx))),
    }
    mean = {name: statistics.fmean(best) * 1e6 for name, best in steps.items()}
    parts = ("lower", "scan", "visit", "output")
    floor = sum(mean[name] for name in parts)
    kb = sum(len(t) for t in texts) / len(texts) / 1000
    claims = statistics.fmean(len(h[0]) for h in hits)
    closing = statistics.fmean(len(h[1]) for h in hits)
    flagged = sum(1 for r in raised if r) / len(raised)
    print(
        f"{len(jobs)} records, mean reasoning {kb:.1f} KB; per record {claims:.1f} claim stems, "
        f"{closing:.1f} closing-part stems; {flagged:.0%} of records flagged "
        f"(best of {args.repeat}, mean per record):"
    )
    for name in parts:
        print(f"  {name:<7} {mean[name]:7.1f} us")
    print(f"  bound   {floor:7.1f} us  ({' + '.join(parts)})")
    print(
        f"  detect  {mean['detect']:7.1f} us  (the detectors: {mean['detect'] / floor:.1f}x the bound)"
    )
    if args.grading_seconds:
        budget = _TARGET * args.grading_seconds * _PROCESSES / _ITEMS * 1e6
        print(
            f"budget for the {_TARGET:.0%} target on {args.grading_seconds:g} s of grading: "
            f"{budget:.1f} us per record; the bound takes {floor / budget:.0%} of it, "
            f"the detectors {mean['detect'] / budget:.0%}"
        )


if __name__ == "__main__":
    main()
