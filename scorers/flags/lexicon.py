"""Uncertainty, abstention and resolution cues, with the filters that keep them honest.

Hedges (LRM-Eval rubric Q4, "it might be", "I'm not sure"), abstentions ("I
cannot determine", "not enough information") and the resolutions that cancel
them ("I verified", "this confirms", "I'm now certain") are found here; the
detectors decide what to make of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from scorers.flags.scan import Family, Scanner, lc
from scorers.flags.spans import sentence_start



def _c(pattern: str, _flags: int = 0) -> re.Pattern[str]:
    # Every pattern here runs on lowercased text (see scan.lc).
    return re.compile(lc(pattern))


_F = 0

# Strong hedges: on their own they say the writer is unsure.
_STRONG_PATTERN = (
    r"\bnot\s+(?:entirely\s+|completely\s+|totally\s+|100%\s+|fully\s+|quite\s+|very\s+|absolutely\s+|too\s+)?"
    r"(?:sure|certain|confident|convinced|positive)\b"
    r"|\b(?:unsure|uncertain|uncertainty|unclear|ambiguous|ambiguity|hesitant|hesitate|tentative(?:ly)?"
    r"|doubtful|doubts?|inconclusive|speculative|speculating|speculate|toss[- ]up)\b"
    r"|\b(?:might|may|could)\s+(?:well\s+|also\s+|just\s+|actually\s+)?be\b(?!\s+(?:\w+ed|written|seen|shown|done"
    r"|taken|given|drawn|made|found|broken|known|read|used|ruled|thought|interpreted)\b)"
    r"|\b(?:probably|possibly|perhaps|presumably|maybe|likely|plausibly|conceivably)\b"
    r"|\b(?:most|more|the\s+most|fairly|reasonably|somewhat)\s+(?:plausible|probable|likely)\b"
    r"|\bI\s+(?:guess|suspect)\b|\bguess(?:ing|work)?\b|\bhunch\b"
    r"|\b(?:hard|difficult|tough|tricky)\s+to\s+(?:tell|say|be\s+sure|be\s+certain|determine|know|judge|pin\s+down"
    r"|confirm|verify)\b"
    r"|\b(?:can't|cannot|can\s+not|couldn't|unable\s+to)\s+(?:be\s+)?(?:completely\s+|fully\s+|entirely\s+|fully\s+|100%\s+)?"
    r"(?:sure|certain|confirm|verify|rule\s+out|be\s+certain|be\s+sure)\b"
    r"|\b(?:can't|cannot|can\s+not|couldn't|unable\s+to)\s+(?:\w+\s+){0,3}(?:for\s+(?:sure|certain)|with\s+certainty"
    r"|definitively|conclusively|with\s+confidence)\b"
    r"|\bif\s+I\s+(?:had|have)\s+to\s+(?:guess|pick|choose|bet|commit)\b"
    r"|\blean(?:ing|s)?\s+(?:towards?|toward)\b|\bI(?:'m|\s+am)\s+torn\b|\blow\s+confidence\b"
    r"|\bnot\s+100%|\b50/50\b|\bgamble\b|\bcan't\s+be\s+(?:sure|certain)\b|\bno\s+way\s+to\s+be\s+(?:sure|certain)\b"
    r"|\bwould\s+(?:have|need)\s+to\s+guess\b|\bgo\s+with\s+my\s+gut\b|\bwild\s+guess\b|\bshot\s+in\s+the\s+dark\b",
)
# Weak hedges: only several of them together, or with a strong one, count.
_WEAK_PATTERN = (
    r"\b(?:seems?|seemed|appears?\s+to|apparently|I\s+think|I\s+believe|I\s+assume|assuming|roughly"
    r"|I'd\s+say|my\s+sense|suggests?|suggesting)\b",
)
# Cues that the writer cannot answer at all (a stronger form of uncertainty).
_ABSTAIN_PATTERN = (
    r"\b(?:can't|cannot|can\s+not|couldn't|unable\s+to|not\s+able\s+to|no\s+way\s+to|impossible\s+to"
    r"|not\s+possible\s+to|isn't\s+possible\s+to|don't\s+have\s+enough\s+\w+\s+to)\s+"
    r"(?:really\s+|reliably\s+|actually\s+|accurately\s+|even\s+|possibly\s+)?"
    r"(?:determine|tell|identify|know|say|answer|decide|figure\s+out|work\s+out|make\s+out|read|distinguish"
    r"|conclude|pin\s+down|count|establish|be\s+determined|be\s+identified|be\s+answered|be\s+known|be\s+read"
    r"|give\s+(?:a|an)\s+(?:definite|definitive|confident)?\s*answer)\b"
    r"|\b(?:not|insufficient|nowhere\s+near)\s+(?:enough\s+)?(?:information|info|detail|details|data|context"
    r"|resolution|evidence|clues)\b(?!\s+(?:about\s+the\s+)?(?:to\s+rule|to\s+reject))"
    r"|\bnot\s+enough\s+(?:information|info|detail|details|data|context|resolution|evidence|clues)\b"
    r"|\b(?:undeterminable|indeterminable|indeterminate|unanswerable|not\s+determinable)\b"
    r"|\bI\s+(?:don't|do\s+not|really\s+don't)\s+know\b|\bno\s+(?:clear|definitive|reliable)\s+way\b"
    r"|\btoo\s+(?:blurry|small|low[- ]resolution|pixelated|dark|grainy|faint|obscured)\s+to\s+"
    r"(?:read|tell|make\s+out|identify|determine|count|see)\b",
)
# "can't tell for sure" is a hedge, not an abstention.
_QUALIFIED = _c(
    r"[^.\n]{0,40}?\b(?:for\s+sure|for\s+certain|with\s+certainty|with\s+confidence|exactly|precisely"
    r"|definitively|conclusively|100%|with\s+full|beyond|completely|entirely)\b",
    _F,
)
# Later text that settles an earlier doubt.
_RESOLVE_PATTERN = (
    r"\bconfirm(?:s|ed|ing)?\b|\bverifi(?:ed|es|cation)\b|\bverified\b|\bchecks?\s+out\b"
    r"|\bdouble[- ]check(?:ed|ing)?\b[^.\n]{0,60}\b(?:correct|right|holds|consistent|matches|same)\b"
    r"|\b(?:definitely|definitively|certainly|conclusively|unambiguously|undoubtedly|unmistakabl[ey])\b"
    r"|\bfor\s+(?:sure|certain)\b|\bwithout\s+(?:a\s+|any\s+)?doubt\b|\bno\s+doubt\b|\bbeyond\s+doubt\b"
    r"|\b(?:I'm|I\s+am|I\s+feel|I've\s+become|I'm\s+now|now\s+I'm)\s+(?:now\s+)?(?:quite\s+|fully\s+|completely\s+)?"
    r"(?:confident|certain|sure|positive|convinced)\b"
    r"|\b(?:this|that|it|which)\s+(?:settles|resolves|clears\s+up)\b|\bis\s+(?:indeed|clearly)\b"
    r"|\b(?:that's|that\s+is|this\s+is|it's|it\s+is)\s+(?:definitely\s+|indeed\s+)?(?:correct|right|consistent)\b"
    r"|✓|✔|\bmatch(?:es)?\s+(?:exactly|perfectly|the)\b|\bclearly\s+(?:reads|shows|visible|legible|says)\b"
    r"|\bconsistent\s+with\b|\bno\s+longer\s+(?:unsure|uncertain|in\s+doubt)\b",
)
_NEGATOR = _c(
    r"\b(?:no|not|never|without|isn't|aren't|wasn't|don't|doesn't|didn't|can't|cannot|couldn't|hardly|nothing"
    r"|zero|won't|haven't|hasn't)\b\W*(?:\w+\W+){0,2}$",
    _F,
)
_INTENT = _c(
    r"\b(?:let\s+me|let's|I'll|I\s+will|I\s+should|I\s+need\s+to|I\s+want\s+to|to|try\s+to|trying\s+to|going\s+to"
    r"|can|could|would|must|in\s+order\s+to|if|unless|whether)\s+(?:\w+\s+){0,2}$",
    _F,
)
# The question, not the writer, asking for a guess: "the task is to guess the city".
_QUOTED = _c(
    r"\b(?:ask(?:s|ed|ing)?|question|task|prompt|wants\s+me|want\s+me|instructed|instruction|title|game"
    r"|asked\s+to|user)\b[^.\n]{0,40}$",
    _F,
)
_SELF_NEGATED = _c(r"\b(?:no|without|isn't|aren't|wasn't|not|nothing|zero|beyond)\s+(?:\w+\s+)?$", _F)


class Cue(NamedTuple):
    start: int
    end: int
    weight: int  # 2 strong, 1 weak
    perceptual: bool = False  # "can't read the sign": about a clue, not necessarily the answer


_PERCEPTUAL = _c(r"\b(?:read|make\s+out|see|count|be\s+read)\b|^too\b", _F)
# A doubt the writer places in the past ("at first I couldn't tell") is not where the reasoning ends.
_EARLIER = _c(
    r"\b(?:at\s+first|initially|originally|first\s+glance|in\s+the\s+beginning|earlier)\b", _F
)


def _earlier(text: str, pos: int) -> bool:
    return _EARLIER.search(text, sentence_start(text, pos), pos) is not None


_HEDGE_STEMS = (
    "sure", "certain", "confident", "convinced", "positive", "unsure", "uncertain", "unclear", "ambigu", "hesita",
    "tentativ", "doubt", "inconclusive", "specul", "toss", "might", "may", "could", "probabl", "possibl", "perhaps",
    "presumabl", "maybe", "likely", "plausib", "conceivab", "guess", "suspect", "hunch", "hard to", "difficult to",
    "tough to", "tricky to", "can't", "cannot", "can not", "couldn't", "unable", "if i ha", "lean", "torn",
    "low confidence", "100%", "50/50", "gamble", "no way", "would have to", "would need to", "gut", "shot in the dark",
)
_WEAK_STEMS = ("seem", "appear", "apparently", "i think", "i believe", "i assume", "assuming", "roughly", "i'd say",
               "my sense", "suggest")
_ABSTAIN_STEMS = (
    "can't", "cannot", "can not", "couldn't", "unable", "not able", "no way", "impossible", "not possible",
    "isn't possible", "don't have enough", "information", "info", "detail", "data", "context", "resolution",
    "evidence", "clues", "determinable", "indeterminate", "unanswerable", "know", "no clear", "no definitive",
    "no reliable", "too blurry", "too small", "too low", "too pixelated", "too dark", "too grainy", "too faint",
    "too obscured",
)
_RESOLVE_STEMS = (
    "confirm", "verif", "checks out", "check out", "double", "definitely", "definitively", "certainly",
    "conclusively", "unambiguous", "undoubtedly", "unmistakab", "for sure", "for certain", "doubt", "confident",
    "certain", "sure", "positive", "convinced", "settles", "resolves", "clears up", "indeed", "clearly", "correct",
    "right", "consistent", "\u2713", "\u2714", "match", "no longer",
)
_SCANNER = Scanner(
    (
        Family("strong", _HEDGE_STEMS, _STRONG_PATTERN, before=40, after=90),
        Family("weak", _WEAK_STEMS, _WEAK_PATTERN, before=20, after=30),
        Family("abstain", _ABSTAIN_STEMS, _ABSTAIN_PATTERN, before=60, after=90),
        Family("resolve", _RESOLVE_STEMS, _RESOLVE_PATTERN, before=40, after=90),
    )
)


class Cues:
    """Every hedge, abstention and resolution cue in ``low[lo:hi]``, found in one pass.

    ``low`` is the lowercased text (scan.lowered); offsets index the original.
    """

    def __init__(self, low: str, lo: int = 0, hi: int | None = None) -> None:
        self.low = low
        self.found = _SCANNER.find(low, lo, hi)

    def hedges(self) -> Iterator[Cue]:
        """Hedge cues not negated or quoted from the task (abstentions included)."""
        low = self.low
        for m in self.found.get("strong", ()):
            before = _before(low, m.start())
            word = m.group(0)
            if word.startswith(("doubt", "uncertain", "unclear", "ambigu", "guess", "hesitant", "specul", "likely")):
                if _SELF_NEGATED.search(before):
                    continue
            if "guess" in word and _QUOTED.search(before):
                continue
            if not _earlier(low, m.start()):
                yield Cue(m.start(), m.end(), 2)
        for m in self.found.get("weak", ()):
            if not _SELF_NEGATED.search(_before(low, m.start(), 20)) and not _earlier(low, m.start()):
                yield Cue(m.start(), m.end(), 1)
        # Not being able to answer at all is the strongest form of doubt.
        yield from self.abstentions(qualified_too=True)

    def abstentions(self, *, qualified_too: bool = False) -> Iterator[Cue]:
        """Cues that the writer cannot answer ("I can't determine", "not enough information").

        "I can't tell for sure" is a hedge, not an abstention; ``qualified_too``
        yields those as well (for the hedge detector).
        """
        low = self.low
        for m in self.found.get("abstain", ()):
            before = _before(low, m.start(), 30)
            if _CONDITION.search(before):
                continue
            qualified = _QUALIFIED.match(low, m.end(), min(len(low), m.end() + 60)) is not None
            if (qualified and not qualified_too) or _earlier(low, m.start()):
                continue
            yield Cue(m.start(), m.end(), 2, _PERCEPTUAL.search(m.group(0)) is not None)

    def resolutions(self) -> Iterator[int]:
        """Positions of resolution cues (verified, confirmed, now certain) not negated or intended."""
        low = self.low
        for m in self.found.get("resolve", ()):
            before = _before(low, m.start(), 40)
            if _NEGATOR.search(before) or _INTENT.search(before):
                continue
            yield m.start()


_CONDITION = _c(r"\b(?:if|whether|unless)\b[^,]*$")


def _before(text: str, pos: int, reach: int = 60) -> str:
    return text[max(sentence_start(text, pos), pos - reach) : pos]
