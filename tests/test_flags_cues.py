"""The cue engine: where a cue may start, and offsets kept through lowering."""

from __future__ import annotations

import re

import pytest
from flags_fixtures import DATA, as_record, labelled_items
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers.flags.behaviour import cues
from scorers.records import response_texts


def test_the_negation_of_a_contraction_opens_a_cue() -> None:
    # "n't" starts a cue inside "wasn't", though no word boundary precedes it.
    found = cues.pattern("decline").search("The photo wasn't enough detail to tell.")
    assert found is not None and found.group(0).startswith("n't")
    assert re.search(r"\bn't", "wasn't") is None


def test_composed_cue_regexes_open_at_a_contraction_too() -> None:
    # The plain regexes the detectors compose (negators, hypothesis) read "n't" the same way.
    negators = cues.regex("hedge_negators")
    assert negators.search("It ISN'T obvious") is not None
    assert negators.search("the knot is tight") is None
    assert cues.regex("hypothetical").search("we haven't any tool") is not None


def test_a_cue_with_no_literal_opening_composes_and_matches_as_written() -> None:
    # An optional first word leaves no fixed opening: the composed look-ahead admits any
    # word character there rather than failing to compile.
    fragments = ["(?:re-?)?count", "perhaps"]
    factored = re.compile(cues._factored(fragments), re.IGNORECASE)
    plain = re.compile(cues.alternation(fragments), re.IGNORECASE)
    text = "Perhaps I should re-count, then recount and count once more."
    assert [m.group(0) for m in factored.finditer(text)] == [
        m.group(0) for m in plain.finditer(text)
    ]
    assert len(factored.findall(text)) == 4


def test_lowering_keeps_offsets_for_expanding_capitals() -> None:
    text = "İSTANBUL, maybe"
    assert len(cues.lowered(text)) == len(text)
    hit = cues.pattern("hedge_strong").search(text)
    assert hit is not None and text[hit.start() : hit.end()] == "maybe"


# The gate lets the scan skip a long text only where no cue of a list can match: it must
# never drop a list the scan would find (the flags would change).
_GATE = cues._Gate(frozenset(tag for tag, _ in cues._leaves(cues.CUES) if cues._gated(tag)))


def _scanned(low: str) -> set[str]:
    starts = [(p, low[p : p + cues._KEY]) for p in cues.word_starts(low)]
    return {tag for tag, hits in cues._index().scan(low, starts, None).items() if hits}


def test_the_gate_lets_through_every_list_the_scan_finds_in_the_labelled_texts() -> None:
    for path in sorted(DATA.glob("*.json")):
        for item in labelled_items(path):
            for text in response_texts(as_record(item)):
                low = cues.lowered(text)
                assert _scanned(low) & _GATE.tags <= _GATE.can_match(low), (
                    path.name,
                    item.get("id"),
                )


_GATED_CUES = [
    (tag, fragment)
    for tag in sorted(_GATE.tags)
    for fragment in cues._cue_list(tuple(tag.split(".")))
]


@pytest.mark.parametrize(("tag", "fragment"), _GATED_CUES)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_gate_lets_through_every_cue_it_gates(
    tag: str, fragment: str, data: st.DataObject
) -> None:
    # Any text a gated cue's regex matches, among other words, passes that cue's gate.
    cue = data.draw(st.from_regex(fragment, fullmatch=True))
    text = "Some words first,\n\n  " + cue + " and after.\t" + "more text " * 20
    low = cues.lowered(text)
    if tag in _scanned(low):
        assert tag in _GATE.can_match(low)


# A long text's first lists are scanned only at the word starts where one of their cues'
# openings is (``_Index.near``): the hits must be those of a scan at every word start.
_TRICKY = [
    "Let me search the web-site; I didn't run a Python script - I can't, isn't it? " * 4,
    "well-isn't it odd: double-checked the calculator (python) and the web-search results " * 3,
    "“I googled it” -- no; ‘searched online’ *ran* the code... zoomed-in on the image " * 3,
    "Let\nme re-check: I ran\n\n  a web\tsearch, I\u00a0think; i  suspect I\r\ndo not know it. "
    * 4,
]


def test_a_long_texts_lists_are_scanned_where_their_cues_may_open() -> None:
    texts = list(_TRICKY)
    for path in sorted(DATA.glob("*.json")):
        texts += [t for i in labelled_items(path) for t in response_texts(as_record(i))]
    index = cues._index()
    for text in (t for t in texts if len(t) >= cues._LONG):
        low = cues.lowered(text)
        starts = [(p, low[p : p + cues._KEY]) for p in cues.word_starts(low)]
        for tag in index.keys:
            near = index.near(cues.flat(low), tag)
            if near is not None:
                spans = [m.span() for m in index.scan(low, near, tag).get(tag, [])]
                assert spans == [m.span() for m in index.scan(low, starts, tag).get(tag, [])]


def _spans(view: cues.CueView | re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in view.finditer(text)]


def _rewrapped(text: str) -> str:  # every space another whitespace run, line breaks above all
    runs = ["\n", " ", "\n\n", " \n  ", "\t", "\u00a0", "\r\n"]
    return "".join(w + runs[i % len(runs)] for i, w in enumerate(text.split()))


def test_a_cue_matches_across_any_run_of_whitespace_as_its_regex_does() -> None:
    # Hard-wrapped reasoning breaks lines inside cues ("let\nme", "I\ndo not know"): the scan
    # (either path) finds there what the list's own regex finds, wherever it does unwrapped.
    texts = [*_TRICKY, "I ran a web search. Let me re-check; I do not know, I suspect."]
    for path in sorted(DATA.glob("*.json"))[:4]:
        texts += [t for i in labelled_items(path)[:40] for t in response_texts(as_record(i))]
    for text in (t for t in texts if t.strip()):
        for tag, _ in cues._leaves(cues.CUES):
            view, plain = cues.pattern(*tag.split(".")), cues.regex(*tag.split("."))
            if _spans(view, text) == _spans(plain, text):  # (alternatives' order aside)
                wrapped = _rewrapped(text)
                assert _spans(view, wrapped) == _spans(plain, wrapped), (tag, text[:60])
