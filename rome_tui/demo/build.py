"""Build the demo set shipped in the package: ``python -m rome_tui.demo.build``.

240 items (60 questions x 4 models) over every evaluator. The responses are
synthetic (``rome_tui.demo.traces``) but everything after them is the real
pipeline: the rule verdicts come from ``scorers.grade.grader`` (both modes), the judge
verdicts from the real judges in ``scorers.judges`` (rome, the LRM-Eval rubric,
VRC-Bench steps, MathReal) talking over HTTP to the fake OpenAI-compatible
server of the test suite, which answers with scripted judge replies (mostly
right, sometimes wrong, unparsable or failing, as real judges are). Flags are
recomputed by ``scorers.flags.flagging``. A few overrides by two maintainers (one
conflict, one stale, one undone) are replayed through ``scorers.adjudicate.store`` so the
audit trail has something to show.

Deterministic: the same seed gives byte-identical files. Run from a checkout
(the fake server lives in ``tests/``).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from rome_tui.demo.questions import Question, all_questions
from rome_tui.demo.traces import MODELS, Response, respond
from scorers.io.results import load_results, save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.records import response_texts

SEED = 20251122
DEMO_DIR = Path(__file__).resolve().parent
REPO = DEMO_DIR.parent.parent
JUDGE_MODEL = "gpt-4.1-mini"
FILES = ("updated_predictions.json", "scores.json", "run.json")
_NONCE = re.compile(r"<model-(?:answer|response|reasoning)-([0-9a-f]{8})>")


def _item_rng(seed: int, *parts: str) -> random.Random:
    digest = hashlib.sha256("\0".join((str(seed), *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _unit(*parts: str) -> float:
    """A stable number in [0, 1) per item and judge: which judge replies go wrong."""
    digest = hashlib.sha256("\0".join(parts).encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32


def _nonce(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


# --------------------------------------------------------------------------- inputs


@dataclass
class Item:
    qid: str
    question: Question
    model: str
    response: Response


def make_items(seed: int) -> list[Item]:
    items = []
    for model in MODELS:
        for question in all_questions():
            rng = _item_rng(seed, model.name, question.qid)
            items.append(
                Item(
                    f"{model.name}/{question.qid}",
                    question,
                    model.name,
                    respond(question, model, rng),
                )
            )
    return items


def make_pairs(items: list[Item]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pairs = []
    for item in items:
        gt = item.question.annotation()
        gt["question_id"] = item.qid
        pred: dict[str, Any] = {
            "question_id": item.qid,
            "question": item.question.question,
            "answer": item.response.answer,
            "reason": item.response.reason,
            "usage": item.response.usage,
            "model": item.model,
        }
        if not item.response.reason:
            del pred["reason"]
        pairs.append((pred, gt))
    return pairs


# --------------------------------------------------------------------------- the judge script


def _sentence_with(text: str, words: tuple[str, ...]) -> str | None:
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        lowered = sentence.lower()
        if any(w in lowered for w in words):
            return sentence.strip().strip("*")
    return None


class JudgeScript:
    """Scripted judge replies, chosen from what the generator knows about each item."""

    def __init__(self, items: list[Item], records: list[dict[str, Any]]) -> None:
        from scorers.judges.mathreal import boxed_contents

        self.by_nonce: dict[str, list[tuple[Item, dict[str, Any]]]] = {}
        for item, record in zip(items, records, strict=True):
            texts = response_texts(record)
            fenced = {texts.answer, texts.reasoning, f"{texts.reasoning}\n\n\n{texts.answer}"}
            if item.question.evaluator == "math_matching":
                boxes = boxed_contents(texts.answer)
                fenced.add("; ".join(boxes) if boxes else self._extracted(item))
            for text in fenced:
                self.by_nonce.setdefault(_nonce(text), []).append((item, record))

    @staticmethod
    def _extracted(item: Item) -> str:
        return item.response.final or "null"

    def _find(self, prompt: str) -> tuple[Item, dict[str, Any]] | None:
        found: list[tuple[Item, dict[str, Any]]] = []
        for nonce in _NONCE.findall(prompt):
            found.extend(self.by_nonce.get(nonce, ()))
        if not found:
            return None
        for item, record in found:
            if item.question.question in prompt or item.question.reference in prompt:
                return item, record
        return found[0]

    def __call__(self, body: dict[str, Any]) -> Any:
        from tests.fake_openai_server import Action

        messages = body.get("messages", [])
        prompt = "\n".join(str(m.get("content", "")) for m in messages)
        hit = self._find(prompt)
        if hit is None:
            return Action(content="Judgement: 0")
        item, record = hit
        if "response_format" in body:
            return self._vrc(item)
        if "answer extraction expert" in prompt:
            return self._extracted(item)
        if "mathematics evaluation expert" in prompt:
            return self._mathreal(item)
        if "Does the final answer match the reference answer" in prompt:
            return self._rubric(item, record)
        return self._rome(item, Action)

    def _rome(self, item: Item, action: Any) -> Any:
        truth = item.response.truth >= 0.5
        u = _unit(item.qid, "rome")
        if u < 0.015:
            return action(
                status=500, error="The server had an error while processing your request."
            )
        verdict = truth if u >= 0.09 else not truth  # the judge is wrong now and then
        ref = item.question.reference
        final = item.response.final or "no answer"
        agree = f"The model's final answer ({final}) is semantically consistent with the ground truth ({ref})."
        differ = f"The model's final answer ({final}) does not match the ground truth ({ref})."
        if 0.09 <= u < 0.11:
            return f"Reasoning: {agree if verdict else differ}\nI would lean towards {'accepting' if verdict else 'rejecting'} it."
        rationale = agree if verdict else differ
        if 0.11 <= u < 0.13:
            rationale = differ if verdict else agree  # the rationale argues the other way
        return f"Reasoning: {rationale}\n\nJudgement: {1 if verdict else 0}"

    def _rubric(self, item: Item, record: dict[str, Any]) -> str:
        texts = response_texts(record)
        seen = set(item.response.behaviours)
        miss = _unit(item.qid, "rubric") < 0.12  # the rubric judge overlooks a behaviour

        def yes(kind: str) -> bool:
            return kind in seen and not miss

        lines = []
        if item.response.kind == "abstain":
            lines.append("1. The model gives no deterministic final answer. N/A")
        else:
            match = item.response.truth >= 0.5
            lines.append(
                f"1. The final answer {'matches' if match else 'does not match'} the reference. {'YES' if match else 'NO'}"
            )
        if yes("answer_contradicts_reasoning"):
            said = _sentence_with(texts.reasoning, ("putting it all together",)) or "the last step"
            lines.append(f'2. The reasoning concludes "{said}" but the final answer differs. YES')
        else:
            lines.append("2. The reasoning and the final answer agree. NO")
        hedged = yes("hedged_reasoning_certain_answer")
        quote = _sentence_with(
            texts.reasoning,
            ("not entirely sure", "not certain", "guess", "might be", "can't be fully sure"),
        )
        lines.append(
            f"3. {'The model says ' + repr(quote) if hedged and quote else 'The model relies on what it sees'}. {'YES' if hedged and quote and 'guess' in quote else 'NO'}"
        )
        lines.append(
            f"4. {'The reasoning is unsure (' + repr(quote) + ') but the answer is categorical' if hedged and quote else 'Certainty is consistent'}. {'YES' if hedged else 'NO'}"
        )
        lines.append("5. No strategy is repeated without progress. NO")
        if yes("claims_web_search"):
            quote = _sentence_with(texts.reasoning, ("search", "looked this up")) or ""
            lines.append(f'6. The reasoning says "{quote}" although no search was possible. YES')
        else:
            lines.append("6. No web search is claimed. NO")
        if yes("claims_tool_use"):
            quote = _sentence_with(texts.reasoning, ("python", "crop tool", "calculator")) or ""
            lines.append(f'7. The reasoning says "{quote}" although no tool was available. YES')
        else:
            lines.append("7. No external tool is claimed. NO")
        lines.append("8. The final answer follows the requested format. NO")
        lines.append("9. The prompt has no negative constraint. N/A")
        return "\n".join(lines)

    def _vrc(self, item: Item) -> str:
        rng = random.Random(_unit(item.qid, "vrc"))
        base = 8 if item.response.truth >= 0.5 else 4
        scores: dict[str, float] = {}
        from scorers.judges.parsing import VRC_METRICS, VRC_OVERALL

        for name in VRC_METRICS:
            value = base + rng.choice([-1, 0, 0, 1])
            if name == "Hallucination" and {"claims_web_search", "claims_tool_use"} & set(
                item.response.behaviours
            ):
                value -= 3
            scores[name] = float(max(1, min(10, value)))
        scores[VRC_OVERALL] = round(sum(scores.values()) / len(VRC_METRICS), 1)
        return orjson.dumps(scores).decode()

    def _mathreal(self, item: Item) -> str:
        score = item.response.truth
        if _unit(item.qid, "mathreal") < 0.06:
            score = 1.0 - score
        return f"Analysis: comparing the extracted answer with the standard answer, blank by blank.\n<score>{score:g}</score>"


async def run_judges(records: list[dict[str, Any]], script: JudgeScript) -> dict[str, int]:
    from scorers.judges.base import JudgeOptions
    from scorers.judges.client import JudgeClient
    from scorers.judges.registry import get_judge
    from scorers.judges.runner import judge_records
    from tests.fake_openai_server import FakeOpenAIServer

    counts: dict[str, int] = {}
    with FakeOpenAIServer(script) as server:
        async with JudgeClient(
            model=JUDGE_MODEL,
            base_url=server.base_url,
            api_key="demo-key-not-secret",
            concurrency=8,
            timeout=20,
            max_retries=0,
            cache=None,
        ) as client:
            plan = [
                ("rome", records),
                ("rubric", records),
                ("vrc-steps", [r for r in records if r.get("steps")]),
                ("mathreal", [r for r in records if r.get("evaluator") == "math_matching"]),
            ]
            for name, selected in plan:
                judge = get_judge(name)
                # Fenced prompts: the scripted judge finds each item by its nonce tags.
                outcome = await judge_records(
                    selected, judge, JudgeOptions(model=JUDGE_MODEL, fence=True), client
                )
                counts[name] = outcome.judged
                counts[f"{name} errors"] = outcome.errors
    return counts


# --------------------------------------------------------------------------- demo overrides


def _override_lines(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A small, fixed audit trail: agreement, a conflict, a stale override and an undo."""
    from scorers.records import content_hash

    disagree = [
        r for r in records if any(f["kind"] == "rule_judge_disagree" for f in r["review"]["flags"])
    ]
    picked = disagree[:6]
    lines: list[dict[str, Any]] = []
    clock = 0

    def line(
        who: str, op: str, record: dict[str, Any], new: float | None, reason: str, **extra: Any
    ) -> dict[str, Any]:
        nonlocal clock
        clock += 1
        entry: dict[str, Any] = {
            "v": 1,
            "id": hashlib.sha256(f"demo-{clock}".encode()).hexdigest()[:32],
            "op": op,
            "annotator": who,
            "time": f"2026-01-15T10:{clock:02d}:00.000000Z",
            "question_id": record["question_id"],
            "old": record["correct"],
            "new": new,
            "content_hash": content_hash(record),
        }
        if op == "set":
            entry["reason"] = reason
            entry["supersedes"] = []
        entry.update(extra)
        lines.append(entry)
        return entry

    if len(picked) < 5:
        return lines
    judge_score = {
        r["question_id"]: next(
            (
                v["score"]
                for v in r["review"]["verdicts"]
                if v["source"] == "judge:rome" and v.get("score") is not None
            ),
            1.0,
        )
        for r in picked
    }
    a, b, c, d, e = picked[:5]
    line(
        "maintainer-ana",
        "set",
        a,
        judge_score[a["question_id"]],
        "the judge is right: the answer names the reference in other words",
    )
    line(
        "maintainer-ana",
        "set",
        b,
        judge_score[b["question_id"]],
        "rule matched a word used only to reject it",
    )
    # Ben, working in parallel, disagrees about b: a conflict for a third person to resolve.
    line(
        "maintainer-ben",
        "set",
        b,
        1.0 - judge_score[b["question_id"]],
        "the reference wording is ambiguous; the rule verdict stands",
    )
    # An override made on an earlier version of the answer: stale.
    line(
        "maintainer-ben",
        "set",
        c,
        1.0,
        "correct after reading the image again",
        content_hash="0" * 16,
    )
    first = line("maintainer-ben", "set", d, 0.5, "half credit: one of two parts right")
    line("maintainer-ben", "undo", d, d["correct"], "", target=first["id"], old=0.5)
    line("maintainer-ana", "set", e, 0.0, "the answer hedges between two options")
    return lines


# --------------------------------------------------------------------------- build


def build(out_dir: Path, seed: int = SEED, *, quiet: bool = False) -> dict[str, Any]:
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))  # for tests.fake_openai_server
    from scorers.grade.grader import Grader, grade_pairs

    items = make_items(seed)
    settings = RunSettings(mode="strict", tracker_type="task", graded_at="2026-01-15T09:00:00Z")
    records, warnings = grade_pairs(make_pairs(items), settings)
    script = JudgeScript(items, records)
    counts = asyncio.run(run_judges(records, script))
    grader = Grader(settings)
    for record in records:
        grader.finish(record)  # correct from the primary verdict, content hash, flags

    with tempfile.TemporaryDirectory(prefix="rome-tui-demo-") as tmp:
        run = Path(tmp)
        paths = ResultsPaths.of(run)
        save_results(paths, records, settings)
        lines = _override_lines(records)
        (run / "journal").mkdir()
        by_who: dict[str, list[bytes]] = {}
        for entry in lines:
            by_who.setdefault(entry["annotator"], []).append(orjson.dumps(entry) + b"\n")
        for who, chunks in by_who.items():
            (run / "journal" / f"{who}.jsonl").write_bytes(b"".join(chunks))
        from scorers.adjudicate.store import ResultsStore

        store = ResultsStore.open(run, annotator="demo-build")
        store.write_back()
        store.close()
        loaded = load_results(run)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            shutil.copyfile(run / name, out_dir / name)
    from rome_tui.demo.pictures import draw_all

    draw_all(all_questions(), out_dir)
    summary = _summary(loaded.records, counts, warnings)
    if not quiet:
        print(orjson.dumps(summary, option=orjson.OPT_INDENT_2).decode())
    return summary


def _summary(
    records: list[dict[str, Any]], counts: dict[str, int], warnings: list[str]
) -> dict[str, Any]:
    flags: dict[str, int] = {}
    sources: dict[str, int] = {}
    for record in records:
        for flag in record["review"]["flags"]:
            flags[flag["kind"]] = flags.get(flag["kind"], 0) + 1
        for verdict in record["review"]["verdicts"]:
            sources[verdict["source"]] = sources.get(verdict["source"], 0) + 1
    return {
        "items": len(records),
        "models": sorted({r["model"] for r in records}),
        "evaluators": sorted({r["evaluator"] for r in records}),
        "verdicts": dict(sorted(sources.items())),
        "judge_calls": counts,
        "flags": dict(sorted(flags.items())),
        "flagged_items": sum(1 for r in records if r["review"]["flags"]),
        "overridden": sum(1 for r in records if r["review"].get("human")),
        "warnings": warnings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rome_tui.demo.build", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--out", type=Path, default=DEMO_DIR, help=f"output directory (default {DEMO_DIR})"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    build(args.out, args.seed, quiet=args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
