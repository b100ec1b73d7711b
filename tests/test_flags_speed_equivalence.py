"""The detectors' fast paths find exactly what the straightforward versions find.

Each fast path in scorers/flags (Latin-1 and per-character lowering, the
greedy clause-break search, per-stem regexes for anchored families, word-start
filtering inside Scanner.find, the byte form shared between scans) is
checked against a plain reimplementation of what it replaced, on arbitrary
text drawn from the characters and words that make those paths differ.
"""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorers.flags.behaviour as flags
from scorers.flags.behaviour import (
    _ANSWER_SCAN,
    _TAIL_SCAN,
    conclusion,
    contradiction,
    cues,
    injection,
    lexicon,
    prefixes,
    scan,
    tool_claims,
)
from scorers.flags.behaviour.prefixes import for_stem, openings
from scorers.flags.behaviour.scan import Scanner, lowered
from scorers.flags.behaviour.spans import (
    SHORT_ANSWER,
    sentence_end,
    sentence_end_from,
    sentence_start,
)
from scorers.flags.flagging import FlagContext
from scorers.records import ResponseTexts

# Characters where lowering or word boundaries are special: non-ASCII letters
# and symbols, "İ" (lowercases to two), "Σ" (final sigma), the Kelvin sign
# (lowercases to ASCII), curly apostrophes, "✓" (a stem beyond Latin-1),
# underscores and digits (\w but not both alnum), breaks and whitespace.
ODD = list("×éÉßİΣσςK’‘✓✔→—−\u00a0\u2009日_0a7'.,;:(!?-\n\t *#>")
WORDS = [
    "I",
    "cannot",
    "can not",
    "search",
    "searched",
    "the web",
    "online",
    "but",
    "however",
    "though",
    "yet",
    "not",
    "sure",
    "might",
    "be",
    "probably",
    "maybe",
    "answer",
    "is",
    "final answer:",
    "so",
    "option",
    "B",
    "wait",
    "confirm",
    "match",
    "double-check",
    "i will",
    "go",
    "with",
    "if",
    "could",
    "ran",
    "code",
    "python",
    "zoom",
    "crop",
    "calculator",
    "grader",
    "ignore previous instructions",
    "unknown",
    "42",
    " - ",
    " \u2014 ",
    "for sure",
    "definitively",
    "enough information",
    "tell",
]
TEXT = st.lists(
    st.one_of(st.sampled_from(WORDS), st.sampled_from(ODD), st.text(max_size=3)),
    max_size=60,
).map(lambda parts: "".join(p + (" " if len(p) > 1 else "") for p in parts))
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_HIGH_AS_QUESTION = bytes(range(128)) + b"?" * 128


def plain_lowered(text: str) -> str:
    low = text.lower().replace("\u2019", "'")
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@FAST
@given(TEXT)
def test_lowered_is_str_lower_with_the_same_length(text: str) -> None:
    low = lowered(text)
    assert low == plain_lowered(text)
    # The bytes kept for the scans: one per character, non-ASCII ones matching no stem.
    kept_low, data, wide = scan._last
    if kept_low is low:
        # One byte per character: the ASCII ones as they are, the others as
        # bytes that match no ASCII stem ("?" or above 0x7f).
        assert data.translate(_HIGH_AS_QUESTION) == low.encode("ascii", "replace")
        assert wide == (max(text, default="") > "\xff")


_REVERSED_BREAK = re.compile(r" [.!?]|\n|[,;:(]| tub | revewoh | hguoht | tey | \u2014 | - ")


def plain_clause_before(low: str, pos: int) -> str:
    piece = low[max(0, pos - 200) : pos]
    m = _REVERSED_BREAK.search(piece[::-1])
    return piece[len(piece) - m.start() :] if m else piece


@FAST
@given(TEXT, st.data())
def test_clause_before_is_the_reversed_search(text: str, data: st.DataObject) -> None:
    low = lowered(text)
    pos = data.draw(st.integers(0, len(low)))
    assert cues.clause_before(low, pos) == plain_clause_before(low, pos)
    negated = cues.has_negation(plain_clause_before(low, pos))
    assert cues.negated_or_hypothetical(low, pos) == negated
    assert cues.not_negated(low, pos) == (not negated)


def test_clause_before_over_long_clauses() -> None:
    low = ("word " * 60 + "but " + "x" * 250 + ". y however z") * 2
    for pos in range(0, len(low), 7):
        assert cues.clause_before(low, pos) == plain_clause_before(low, pos)


def _anchored() -> list[tuple[scan.Family, str]]:
    fams = (*lexicon.FAMILIES, *conclusion.FAMILIES)
    return [(f, stem) for f in fams if f.anchored for stem in f.stems]


ANCHORED = _anchored()


def test_per_stem_regexes_drop_alternatives() -> None:
    # The point of prefixes.for_stem: most stems try far fewer alternatives.
    narrowed = [f for f, stem in ANCHORED if for_stem(f.regex, stem) is not f.regex]
    assert len(narrowed) > len(ANCHORED) // 2
    assert openings(r"\b(?:can't|cannot)\s+x") == {("can't", True), ("cannot", True)}


def test_per_stem_regex_matches_like_the_family_regex() -> None:
    # Every anchored stem whose regex was narrowed, followed by runs of its own
    # family's pattern words in pattern order ("tell for sure", "with certainty":
    # each alternative gets its chance) and by random mixes of them.
    rng = random.Random(7)
    for fam, stem in ANCHORED:
        narrow = for_stem(fam.regex, stem)
        if narrow is fam.regex:
            continue
        words = re.findall(r"[a-z0-9'%/]+", fam.pattern.lower())
        tails = [" ".join(words[i : i + k]) for i in range(len(words)) for k in (1, 2, 3, 4)]
        tails += [" ".join(rng.choices(words + ODD, k=rng.randint(1, 6))) for _ in range(40)]
        for tail in tails:
            for low in (f"{stem} {tail}", f"{stem} x {tail}", f"{stem}{tail}"):
                assert _shape(narrow.match(low, 0)) == _shape(fam.regex.match(low, 0)), (
                    fam.name,
                    low,
                )


def _shape(m: re.Match[str] | None) -> Any:
    if m is None:
        return None
    return m.span(), {name: m.span(name) for name in m.re.groupindex}


def plain_find(sc: Scanner, low: str, lo: int = 0, keep: Any = None) -> dict[str, Any]:
    """Scanner.find as first written: filtered hits, then each family's actions, then sorts."""
    found: dict[str, list[re.Match[str]]] = {}
    windows: dict[str, tuple[scan.Family, list[tuple[int, int]]]] = {}
    n = len(low)
    for idx, start, end in plain_hits(sc, low):
        if start < lo:
            continue
        if keep is not None and not keep(low, start):
            continue
        for fam in (a[0] for a in sc._actions[idx]):
            if fam.near_end is not None and start < n - fam.near_end:
                continue
            if fam.anchored:
                m = fam.regex.match(low, start)  # the whole family regex
                if m is not None:
                    found.setdefault(fam.name, []).append(m)
                continue
            window = (max(lo, start - fam.before), min(n, end + fam.after))
            windows.setdefault(fam.name, (fam, []))[1].append(window)
    for ms in found.values():
        ms.sort(key=lambda m: m.start())
    for name, (fam, items) in windows.items():
        found[name] = scan._windowed(fam, low, items)
    for reach, near in sc._near:
        start = max(lo, n - reach)
        if start < n:
            found.update(plain_find(near, low, start, keep))
    return found


def _shapes(found: dict[str, list[re.Match[str]]]) -> dict[str, Any]:
    return {name: [_shape(m) for m in ms] for name, ms in found.items() if ms}


def plain_hits(sc: Scanner, low: str) -> list[tuple[int, int, int]]:
    """Every stem occurrence at a word start, by plain string search."""
    out = []
    for idx, stem in enumerate(sc._stems):
        at = low.find(stem)
        while at != -1:
            if at == 0 or not low[at].isalnum() or not low[at - 1].isalnum():
                out.append((idx, at, at + len(stem)))
            at = low.find(stem, at + 1)
    return sorted(out)


SCANNERS = [
    _TAIL_SCAN,
    _ANSWER_SCAN,
    tool_claims._SCANNER,
    conclusion._SCANNER,
    injection._SCANNER,
]


@FAST
@given(st.sampled_from(SCANNERS), TEXT, st.data())
def test_find_matches_the_plain_find(sc: Scanner, text: str, data: st.DataObject) -> None:
    low = lowered(text)  # the bytes kept for this text are used
    lo = data.draw(st.integers(0, len(low)))
    keep = cues.not_negated if sc is tool_claims._SCANNER else None
    fast = _shapes(sc.find(low, lo, keep=keep))
    assert fast == _shapes(plain_find(sc, low, lo, keep))
    # A copy of the text is not the one just lowered: it is encoded afresh.
    assert _shapes(sc.find("".join(list(low)), lo, keep=keep)) == fast


@FAST
@given(TEXT)
def test_hits_are_the_word_start_stems(text: str) -> None:
    low = lowered(text)
    for sc in SCANNERS:
        assert sorted(sc.hits(low)) == plain_hits(sc, low)


def test_hits_skip_stems_inside_words() -> None:
    low = lowered("Amight émight _might 7might might x_search research (search) ✓ok")
    for sc in SCANNERS:
        assert sorted(sc.hits(low)) == plain_hits(sc, low)


@FAST
@given(
    st.lists(st.sampled_from([*"ab .!?\n", "x" * 40]), max_size=60).map("".join),
    st.data(),
)
def test_sentence_end_from_an_earlier_end(text: str, data: st.DataObject) -> None:
    earlier = data.draw(st.integers(0, len(text)))
    pos = data.draw(st.integers(earlier, len(text)))
    known = sentence_end(text, earlier)
    assert sentence_end_from(text, pos, earlier, known) == sentence_end(text, pos)


# Clauses where a negating word sits a few words before a claim stem, with the
# breaks and odd characters that must stop the quick look back.
NEGATED_TEXT = st.lists(
    st.one_of(
        st.sampled_from(sorted(cues._NOT_DONE_WORDS)),
        st.sampled_from(WORDS),
        st.sampled_from([*ODD, "", "  ", "x" * 17, "non-", "not,", "(cannot"]),
    ),
    max_size=40,
).map(" ".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NEGATED_TEXT, st.data())
def test_not_negated_looks_back_like_the_clause_search(text: str, data: st.DataObject) -> None:
    low = lowered(text)
    # Word starts (after a space) are where claim stems sit; any position must agree too.
    starts = [i + 1 for i, c in enumerate(low) if c == " "] or [0]
    for pos in (data.draw(st.sampled_from(starts)), data.draw(st.integers(0, len(low)))):
        negated = cues.has_negation(plain_clause_before(low, pos))
        assert cues.not_negated(low, pos) == (not negated), (low, pos)


def test_not_negated_stops_at_breaks_between_the_words() -> None:
    for text, pos_word, expected in (
        ("i cannot search the web", "search", False),
        ("i cannot search the web", "the web", False),
        ("i cannot, search", "search", True),
        ("i cannot but search", "search", True),
        ("i cannot\nsearch", "search", True),
        ("i cannot - search", "search", True),
        ("i might one two three search", "search", False),  # past the quick look: the clause search
        ("i searched the web", "the web", True),
    ):
        low = lowered(text)
        assert cues.not_negated(low, low.index(pos_word)) is expected, text


@FAST
@given(TEXT, st.data())
def test_hedge_spans_are_the_hedges(text: str, data: st.DataObject) -> None:
    low = lowered(text)
    found = lexicon.Cues(low)
    after = data.draw(st.integers(-1, len(low)))
    assert found.hedge_spans(after) == [(c.start, c.end, c.weight) for c in found.hedges(after)]
    # The sentence starts kept for the evidence hold for the original text as well.
    for pos, opens in found.sentence_starts.items():
        assert opens == sentence_start(low, pos) == sentence_start(text, pos)


@FAST
@given(TEXT, st.data())
def test_near_end_families_found_apart_are_the_same(text: str, data: st.DataObject) -> None:
    low = lowered(text)
    lo = data.draw(st.integers(0, len(low)))
    for sc in (_TAIL_SCAN, conclusion._SCANNER):
        apart = sc.find(low, lo, near=False)
        assert not set(apart) & set(sc.find_near(low, lo))
        apart.update(sc.find_near(low, lo))
        assert _shapes(apart) == _shapes(sc.find(low, lo))


def test_vague_values_open_with_the_listed_letters() -> None:
    # Each alternative of conclusion._VAGUE opens with a letter of _VAGUE_FIRST.
    pattern = conclusion._VAGUE.pattern
    assert pattern.startswith("^(?:") and pattern.endswith(")\\b")
    alternatives = prefixes.alternatives(pattern[4:-3])
    assert len(alternatives) > 10
    assert {alt[0] for alt in alternatives} <= conclusion._VAGUE_FIRST
    assert conclusion._VAGUE.match("either a or b")


def _detect(answer: str, reasoning: str, **fields: Any) -> list[Any]:
    rec: dict[str, Any] = {"question_id": "q", "evaluator": "location_matching", **fields}
    return list(flags.detect(rec, ResponseTexts(reasoning, answer), FlagContext()))


def test_a_repeated_answer_reads_as_the_first_time() -> None:
    # What is kept of a short answer (flags._read_answer, contradiction's answer
    # span) gives the flags of a fresh read, evidence of its own, and leaves
    # the reference check to each record.
    answer = "I'm unable to determine the location from this image."
    reasoning = "I think it might be Paris. So the answer is Paris, probably."
    first = _detect(answer, reasoning, reference="Lyon")
    assert "abstained" in {f["kind"] for f in first}
    again = _detect("".join(list(answer)), reasoning, reference="Lyon")
    assert again == first
    for f, g in zip(first, again, strict=True):
        for e, e2 in zip(f["evidence"], g["evidence"], strict=True):
            assert e is not e2
    first[0]["evidence"][0]["text"] = "changed"
    assert _detect(answer, reasoning, reference="Lyon") == again
    # The same answer to an item whose reference cannot be determined either.
    assert "abstained" not in {
        f["kind"] for f in _detect(answer, reasoning, reference="cannot be determined")
    }
    # Past the kept length the answer is read afresh, with the same result.
    long_answer = answer + " " * (SHORT_ANSWER + 1 - len(answer))
    assert "abstained" in {f["kind"] for f in _detect(long_answer, reasoning, reference="x")}
    flags._read_short_answer.cache_clear()
    assert _detect(answer, reasoning, reference="Lyon") == again


def test_the_answer_span_kept_is_the_committed_span() -> None:
    for answer in ("Final Answer: Paris", "\n\n**Final Answer:** C", "Rome.\nMaybe.", "   "):
        assert contradiction._answer_span(answer, None) == contradiction._committed_span(answer)
        assert contradiction._answer_span(answer, None) == contradiction._committed_span(answer)


def plain_last_candidate(text: str, lo: int, strong_only: bool) -> conclusion.Conclusion | None:
    """conclusion.last_candidate as first written: every phrase, the generic ones skipped."""
    low = lowered(text)
    boxed = conclusion._boxed(text, lo)
    best = boxed[-1] if boxed else None
    for strong, m in reversed(conclusion._raw(text, lo, low, None)):
        if best is not None and m.start() < best.start:
            break
        if strong_only and not strong:
            continue
        c = conclusion._valid(text, low, strong, m)
        if c is not None:
            if best is None or (c.start, -c.end) > (best.start, -best.end):
                best = c
            break
    return best


CLOSING_TEXT = st.lists(
    st.sampled_from(
        [
            *WORDS,
            "So the total is 12.",
            "The answer is 7.",
            "so C is right.",
            "\\boxed{5}",
            "that gives 9",
            "Therefore, there are 4 cats.",
            "Wait.",
            "\n",
            ". ",
        ]
    ),
    max_size=40,
).map(" ".join)


@FAST
@given(CLOSING_TEXT, st.data())
def test_last_candidate_leaves_out_generic_phrases_like_the_plain_loop(
    text: str, data: st.DataObject
) -> None:
    lo = data.draw(st.integers(0, len(text)))
    for strong_only in (False, True):
        expected = plain_last_candidate(text, lo, strong_only)
        assert conclusion.last_candidate(text, lo, strong_only=strong_only) == expected
