"""The detail pane: reasoning on the left; answer, reference, verdicts and flags on the right.

Every text shown comes from the record (model output, dataset text, judge
replies) and goes into :class:`Block` objects, which draw it literally.
Flag evidence is highlighted where it lies: reasoning evidence in the left
pane, answer evidence in the raw answer on the right. The words of the filter in
force are highlighted too, so a match deep in a long trace can be found (``e``
reaches them after the evidence).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal

from rome_tui.app.items import as_score, record_flags, record_model
from rome_tui.app.widgets.image_pane import ImagePane
from rome_tui.app.widgets.item_table import score_text
from rome_tui.app.widgets.text_view import Block, Mark, TextView
from scorers.judges.flags import DISAGREE_KIND, HEURISTIC_SOURCE, RUBRIC_SOURCE, rubric_answers
from scorers.records import decode_kwargs, item_id, response_texts

# Search matches highlighted per item and word: a common word in a 200 KB trace would
# otherwise make thousands of stops for e.
MATCHES_PER_WORD = 100


@dataclass(frozen=True)
class EvidenceSpot:
    flag: int  # index into the record's flags; -1 for a match of a filter word
    kind: str
    pane: str  # "reasoning" or "facts"
    block: int
    start: int
    end: int
    flag_block: int  # the facts block that lists the flag: brought into view with it


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return repr(value)


FACTS_TITLE = "Question · answer · reference · verdicts · flags"
FACTS_TITLES_SHORTER = ("Question · answer · flags", "Item details")


class DetailPane(Horizontal):
    DEFAULT_CSS = """
    DetailPane { height: 2fr; }
    DetailPane > TextView { width: 1fr; border: round $panel; }
    DetailPane > TextView:focus { border: round $accent; }
    """

    def compose(self) -> ComposeResult:
        reasoning = TextView(id="reasoning")
        reasoning.border_title = "Reasoning"
        facts = TextView(id="facts")
        facts.border_title = FACTS_TITLE
        facts.titles = (FACTS_TITLE, *FACTS_TITLES_SHORTER)
        yield reasoning
        yield facts
        yield ImagePane(id="image")

    def on_mount(self) -> None:
        self.spots: list[EvidenceSpot] = []
        self.current_spot = -1

    @property
    def reasoning(self) -> TextView:
        return self.query_one("#reasoning", TextView)

    @property
    def facts(self) -> TextView:
        return self.query_one("#facts", TextView)

    @property
    def image(self) -> ImagePane:
        return self.query_one("#image", ImagePane)

    def clear(self, why: str = "No item matches the filter.") -> None:
        self.spots, self.current_spot = [], -1
        self.reasoning.set_blocks([Block(why)])
        self.facts.set_blocks([])
        self.image.clear()

    def show(self, record: Mapping[str, Any], words: Sequence[str] = ()) -> None:
        """Show ``record``; ``words`` (the filter's search words) are highlighted in its texts."""
        reasoning_view, facts_view = self.reasoning, self.facts
        evidence = reasoning_view.style_of("evidence")
        heading = facts_view.style_of("heading")
        dim = facts_view.style_of("dim")
        texts = response_texts(record)
        review = record.get("review") if isinstance(record.get("review"), dict) else {}
        assert isinstance(review, dict)
        flags = record_flags(review)

        reasoning_block = Block(texts.reasoning or "(no reasoning recorded)")
        # Which item, model included: the table cuts both to fit, and beside a model of a
        # similar name only the full name says which one this is.
        facts: list[Block] = [Block(_item_line(record), dim)]

        def section(title: str) -> None:
            if len(facts) > 1:
                facts.append(Block(""))
            facts.append(Block(title, heading))

        section("Question")
        facts.append(Block(_text(record.get("question")) or "(no question text)", indent=2))
        question_index = len(facts) - 1
        section("Final answer (raw)")
        answer_block = Block(texts.answer or "(empty answer)", indent=2)
        facts.append(answer_block)
        answer_index = len(facts) - 1
        section("Reference")
        facts.append(Block(_text(record.get("reference")), indent=2))
        reference_index = len(facts) - 1
        kwargs = decode_kwargs(record.get("evaluator_kwargs"))
        facts.append(Block(f"{record.get('evaluator', '?')} {_text(kwargs)}", dim, indent=2))

        section("Verdicts")
        primary = review.get("primary")
        for verdict in review.get("verdicts") or ():
            if not isinstance(verdict, dict):
                continue
            source = _text(verdict.get("source"))
            score = as_score(verdict.get("score"))
            line = f"{source}: {score_text(score)}"
            if source == primary:
                line += "  (primary)"
            if verdict.get("error"):
                line += f"  ERROR {_text(verdict.get('error'))}"
            facts.append(Block(line, indent=2))
            if verdict.get("extracted") is not None:
                facts.append(Block(f"extracted: {_text(verdict.get('extracted'))}", dim, indent=4))
            if verdict.get("explanation"):
                facts.append(Block(_text(verdict.get("explanation")), dim, indent=4))
        human = review.get("human")
        if isinstance(human, dict):
            facts.append(
                Block(
                    f"human ({_text(human.get('annotator'))}, {_text(human.get('time'))}): "
                    f"{score_text(as_score(human.get('score')))} because {_text(human.get('reason'))}",
                    indent=2,
                )
            )
        if review.get("stale"):
            facts.append(
                Block("the override was made on content that has changed since", heading, indent=2)
            )
        for other in review.get("conflict") or ():
            if isinstance(other, dict):
                facts.append(
                    Block(
                        f"CONFLICT: {_text(other.get('annotator'))} says {score_text(as_score(other.get('score')))}: "
                        f"{_text(other.get('reason'))}",
                        heading,
                        indent=2,
                    )
                )

        spots: list[EvidenceSpot] = []
        section(f"Flags ({len(flags)})" if flags else "Flags: none")
        for number, flag in enumerate(flags):
            kind = _text(flag.get("kind"))
            detail = _text(flag.get("detail"))
            flag_block = len(facts)
            facts.append(
                Block(
                    f"[{number + 1}] {kind} ({_text(flag.get('source'))}) {detail}".rstrip(),
                    indent=2,
                )
            )
            for ev in flag.get("evidence") or ():
                if not isinstance(ev, dict):
                    continue
                start, end = ev.get("start"), ev.get("end")
                if not isinstance(start, int) or not isinstance(end, int):
                    continue
                tag = f"evidence:{len(spots)}"
                if ev.get("field") == "answer":
                    answer_block.marks.append(Mark(start, end, evidence, tag))
                    spots.append(
                        EvidenceSpot(number, kind, "facts", answer_index, start, end, flag_block)
                    )
                else:
                    reasoning_block.marks.append(Mark(start, end, evidence, tag))
                    spots.append(EvidenceSpot(number, kind, "reasoning", 0, start, end, flag_block))
                facts.append(Block(f"“{_text(ev.get('text'))}”", dim, indent=6))

        for kind, heuristic, rubric in _readings(review, flags):
            # Both readings of a kind they disagree on, one under the other: the pane is
            # too narrow at 80 columns for two readable columns.
            section(f"Heuristic vs rubric: {kind}")
            facts.append(Block(f"heuristic: {heuristic}", indent=2))
            for line in rubric:
                facts.append(Block(f"rubric: {line}", indent=2))

        history = [h for h in review.get("history") or () if isinstance(h, dict)]
        if history:
            section(f"History ({len(history)})")
            for entry in history[-20:]:
                facts.append(
                    Block(
                        f"{_text(entry.get('time'))} {_text(entry.get('annotator'))} {_text(entry.get('op'))}: "
                        f"{score_text(as_score(entry.get('old')))} → {score_text(as_score(entry.get('new')))} "
                        f"{_text(entry.get('reason'))}",
                        dim,
                        indent=2,
                    )
                )
        searched = [(reasoning_block, "reasoning", 0)] + [
            (facts[i], "facts", i) for i in (question_index, answer_index, reference_index)
        ]
        match = reasoning_view.style_of("match")
        for word in dict.fromkeys(w for w in words if w.strip()):
            pattern = re.compile(re.escape(word), re.IGNORECASE)
            found = 0
            for block, pane, index in searched:
                for hit in pattern.finditer(block.text):
                    if found == MATCHES_PER_WORD:
                        break
                    found += 1
                    tag = f"evidence:{len(spots)}"
                    block.marks.append(Mark(hit.start(), hit.end(), match, tag))
                    kind = f"filter word “{word}”"
                    spots.append(EvidenceSpot(-1, kind, pane, index, hit.start(), hit.end(), index))
        reasoning_view.set_blocks([reasoning_block])
        facts_view.set_blocks(facts)
        self.image.show(record)
        self.spots, self.current_spot = spots, -1

    def jump(self, step: int) -> EvidenceSpot | None:
        """Move to the next (or previous) evidence span; None when there is none."""
        if not self.spots:
            return None
        self.current_spot = (self.current_spot + step) % len(self.spots)
        spot = self.spots[self.current_spot]
        current = self.reasoning.style_of("current")
        evidence = self.reasoning.style_of("evidence")
        match = self.reasoning.style_of("match")
        for view in (self.reasoning, self.facts):
            for block in view.blocks:
                for mark in block.marks:
                    number = int(mark.tag.partition(":")[2])
                    if number == self.current_spot:
                        mark.style = current
                    else:
                        mark.style = evidence if self.spots[number].flag >= 0 else match
        if spot.pane == "reasoning":
            self.reasoning.scroll_to_mark(spot.block, spot.start)
            self.facts.scroll_to_mark(spot.flag_block, 0)  # the flag that points there
        else:
            self.facts.scroll_to_mark(spot.block, spot.start, also=spot.flag_block)
        self.reasoning.refresh()
        self.facts.refresh()
        return spot


def _item_line(record: Mapping[str, Any]) -> str:
    """The item id as ``override`` takes it, and the model when the id does not hold it."""
    item = item_id(record) if record.get("question_id") is not None else "(no question_id)"
    model = record_model(record)
    return f"{item} · {model}" if model and not item.startswith(f"{model}/") else item


def _readings(
    review: Mapping[str, Any], flags: list[dict[str, Any]]
) -> list[tuple[str, str, list[str]]]:
    """Per kind a ``heuristic_rubric_disagree`` flag names: what the heuristics raised (cue,
    confidence) and each rubric answer about it with its justification."""
    kinds: list[str] = []
    for flag in flags:
        named = flag.get("disagree_on") if flag.get("kind") == DISAGREE_KIND else None
        kinds += [k for k in named if isinstance(k, str)] if isinstance(named, list) else []
    if not kinds:
        return []
    verdict = next(
        (
            v
            for v in review.get("verdicts") or ()
            if isinstance(v, dict) and v.get("source") == RUBRIC_SOURCE
        ),
        None,
    )
    answers = rubric_answers(verdict)
    out = []
    for kind in kinds:
        raised = next(
            (f for f in flags if f.get("kind") == kind and f.get("source") == HEURISTIC_SOURCE),
            None,
        )
        if raised is None:
            heuristic = "not raised"
        else:
            cue = "; ".join(
                f"“{_text(ev.get('text'))}”"
                for ev in raised.get("evidence") or ()
                if isinstance(ev, dict)
            )
            heuristic = f"raised, {_text(raised.get('confidence') or 'high')} confidence"
            heuristic += f": {_text(raised.get('detail'))}" if raised.get("detail") else ""
            heuristic += f" {cue}" if cue else ""
        rubric = [
            f"Q{a.number} {a.column}: {a.answer or 'no answer'}. {a.justification}".rstrip()
            for a in answers.get(kind, ())
        ]
        out.append((kind, heuristic, rubric or ["no answer"]))
    return out
