"""Strict mode's faster scans find exactly what the regexes they stand for find
(scorers/evaluate/strict/commit.py, final.py), and fold.py's translators give what
``str.translate`` gives: on every text of the test data and on random compositions
of the words they hinge on."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scorers.evaluate.strict import commit, final, fold

DATA = Path(__file__).parent / "data"

# Each helper relies on a property of its regex's text: a change to the regex
# must be matched in the helper (and here).
_EARLIER_TAIL = (
    r"[^.;!?\n]{0,200}?(?:\bbut\b|\bhowever\b|\byet\b|\buntil\b|\bthough\b|;|,[ \t]*then\b)"
)
_REJECTING_HEAD = (
    r"\b(?:ruled out|rule out|excluded|exclude|eliminated|eliminate|dismissed|dismiss"
    r"|rejected|reject|discarded|discard)"
)
_WORDS = (
    "Is it Paris?", "no", "No", "?", " no", "but", "however", "yet", ";", ".", "\n", "Many",
    "people assume", "you'd think", "is often credited", "looks like", "ruled out", "rule out B",
    "exclude", "rejected", "discard", "eliminated", "A", "12", "x" * 90, "at first", "initially",
    "nobody", "?no", "? no.", "Canberra? No - Sydney", "tempting to", "common answer", "butter",
    "yeti", "I first thought", "rules", "Excluding", ",", "(", ")", "—", "is", "not", "wrong",
    "So:", "Thus :", "therefore:", "Hence:", "so", "  ", "\t", "Lorentz.", "!", "x" * 130,
    "cannot", "don't", "not only", "never", "nor", "rather than", "anything but", "knot", "é",
    "notx", "_not", "n't", "except", "exceptional", "as opposed to", "unlike", "neither",
)  # fmt: skip


def _texts() -> list[str]:
    texts: list[str] = []
    for path in sorted(DATA.glob("strict/*.json")):
        texts += [case["answer"] for case in json.loads(path.read_text(encoding="utf-8"))]
    for path in sorted(DATA.glob("flags/*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["items"]:
            texts += [case.get(k) or "" for k in ("answer", "reason", "question")]
    rng = random.Random(7)
    texts += [
        " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 30))) for _ in range(20000)
    ]
    return [t for t in texts if isinstance(t, str)]


def test_the_regexes_are_the_ones_the_helpers_assume() -> None:
    assert commit._EARLIER.pattern.endswith(_EARLIER_TAIL)
    assert commit._ASKED_NO.pattern == r"[^.?!\n]{1,80}\?[ \t]*no\b"
    assert commit._REJECTING_VERB.pattern.startswith(_REJECTING_HEAD)


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


def test_scans_match_their_regexes(texts: list[str]) -> None:
    for written in texts:
        found = final._concluding_line(written)
        expected = final._CONCLUDING_LINE.search(written)
        assert (found and found.span()) == (expected and expected.span()), written
        text = written.lower()
        assert commit._gate_words(text) == {
            i for i, word in enumerate(commit._GATE_WORDS) if word in text
        }, text
        assert [m.span() for m in commit._earlier_matches(text)] == [
            m.span() for m in commit._EARLIER.finditer(text)
        ], text
        assert commit._asked_no_spans(text) == [
            m.span() for m in commit._ASKED_NO.finditer(text)
        ], text
        assert commit._rejecting_spans(text) == [
            m.span() for m in commit._REJECTING_VERB.finditer(text)
        ], text
        assert commit._excluded_spans(text) == [
            m.span() for m in commit._EXCLUDED.finditer(text)
        ], text
        for end in range(0, len(text) + 1, 11):
            floor = max(0, end - commit._MAX_CLAUSE)
            i = end
            while i > floor and text[i - 1] not in commit._CLAUSE_STOPS:
                i -= 1
            assert commit._clause_start(text, end) == i, (text, end)


def test_translators_translate_as_str_translate_does(texts: list[str]) -> None:
    every = "".join(chr(c) for c in range(0x30000) if not 0xD800 <= c < 0xE000)
    for table, translate in (
        (fold.AS_SPACE, fold.as_space),
        (fold.TEXT_TABLE, fold._text_chars),
        (fold.NUMBER_TABLE, fold._number_chars),
    ):
        assert translate(every) == every.translate(table)
        for text in texts:
            assert translate(text) == text.translate(table), text
