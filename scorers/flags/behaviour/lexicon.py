"""Uncertainty, abstention and resolution cues, with the filters that keep them honest.

Hedges (LRM-Eval rubric Q4, "it might be", "I'm not sure"), abstentions ("I
cannot determine", "not enough information") and the resolutions that cancel
them ("I verified", "this confirms", "I'm now certain") are found here; the
detectors decide what to make of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from scorers.flags.behaviour.scan import Family, Scanner, lc
from scorers.flags.behaviour.spans import sentence_end, sentence_start


def _c(pattern: str) -> re.Pattern[str]:
    # Every pattern here runs on lowercased text (see scan.lc).
    return re.compile(lc(pattern))


# Each alternative below starts with one of its family's stems (see the
# *_STEMS tuples), so the regex is only ever tried at a stem (scan.Family.anchored).

# Strong hedges: on their own they say the writer is unsure.
_STRONG_PATTERN = (
    r"\bnot\s+(?:entirely\s+|completely\s+|totally\s+|100%\s+|fully\s+|quite\s+|very\s+|absolutely\s+|too\s+)?"
    r"(?:sure|certain|confident|convinced|positive|settled)\b"
    r"|\bnot\s+100%"
    r"|\b(?:unsure|uncertain|uncertainty|unclear|ambiguous|ambiguity|hesitant|hesitate|tentative(?:ly)?"
    r"|doubtful|doubts?|inconclusive|speculative|speculating|speculate|toss[- ]up|hunch|gamble|50/50"
    r"|coin[- ]?(?:flip|toss)|(?:real|distinct|strong|serious)\s+possibility|my\s+lean)\b"
    r"|\b(?:might|may|could)\s+(?:well\s+|also\s+|just\s+|actually\s+|even\s+)?be\b(?!\s+(?:\w+ed|written|seen|shown|done"
    r"|taken|given|drawn|made|found|broken|known|read|used|ruled|thought|interpreted)\b)"
    r"|\b(?:probably|possibly|perhaps|presumably|maybe|likely|probable|conceivably)\b"
    r"|\bi\s+suspect\b|\bguess(?:ing|work|es|ed)?\b"
    r"|\b(?:hard|difficult|tough|tricky)\s+to\s+(?:tell|say|be\s+sure|be\s+certain|determine|know|judge|pin\s+down"
    r"|confirm|verify)\b"
    r"|\b(?:can't|cannot|can\s+not|couldn't|unable\s+to)\s+(?:be\s+)?(?:completely\s+|fully\s+|entirely\s+|100%\s+)?"
    r"(?:sure|certain|confirm|verify|rule\s+out|be\s+certain|be\s+sure|exclude|eliminate|dismiss"
    r"|rule\s+(?:it|this|that|them|either(?:\s+one)?)\s+out)\b"
    r"|\b(?:can't|cannot|can\s+not|couldn't|unable\s+to)\s+(?:\w+\s+){0,3}(?:for\s+(?:sure|certain)|with\s+certainty"
    r"|definitively|conclusively|with\s+confidence)\b"
    r"|\bif\s+i\s+(?:had|have)\s+to\s+(?:guess|pick|choose|bet|commit)\b"
    r"|\blean(?:ing|s)?\s+(?:towards?|toward)\b|\bi(?:'m|\s+am)\s+torn\b|\blow[- ]confidence\b"
    # "I'd say 60/40 for the Ford", "my confidence is low", "I wouldn't bet on it",
    # "take this with a grain of salt", "don't quote me on the 9", "(best guess)"
    r"|\b(?:[5-9][05])\s*/\s*(?:[1-5][05])\s+(?:for|on|in\s+favou?r\s+of|that)\b"
    r"|\bmy\s+confidence\s+(?:here\s+|in\s+this\s+)?(?:is|remains)\s+(?:low|not\s+high|limited|modest|shaky)\b"
    r"|\b(?:wouldn't|would\s+not)\s+bet\s+on\b|\bgrain\s+of\s+salt\b|\b(?:don't|do\s+not)\s+quote\s+me\b"
    r"|\((?:best\s+guess|estimate|estimated|rough\s+estimate|coin\s+flip|tentative|unconfirmed|uncertain)\)"
    r"|\bno\s+way\s+to\s+be\s+(?:sure|certain)\b|\bwould\s+(?:have|need)\s+to\s+guess\b|\bgo\s+with\s+my\s+gut\b"
    r"|\bshot\s+in\s+the\s+dark\b"
)
# Strong hedges that qualify a statement about the world ("probably", "might be")
# rather than the writer's own confidence ("I'm not sure", "my best guess").
IMPERSONAL_STRONG = (
    "might",
    "may",
    "could",
    "probabl",
    "possibl",
    "perhaps",
    "presumabl",
    "maybe",
    "likely",
    "probable",
    "conceivab",
)
_STRONG_STEMS = (
    "not sure",
    "not settled",
    "coin",
    "real possib",
    "distinct possib",
    "strong possib",
    "serious possib",
    "my lean",
    "not certain",
    "not confident",
    "not convinced",
    "not positive",
    "not entirely",
    "not completely",
    "not totally",
    "not 100",
    "not fully",
    "not quite",
    "not very",
    "not absolutely",
    "not too",
    "unsure",
    "uncertain",
    "unclear",
    "ambigu",
    "hesita",
    "tentativ",
    "doubt",
    "inconclusive",
    "specul",
    "toss",
    "hunch",
    "gamble",
    "50/50",
    *IMPERSONAL_STRONG,
    "i suspect",
    "guess",
    "hard",
    "difficult",
    "tough",
    "tricky",
    "can't",
    "cannot",
    "can not",
    "couldn't",
    "unable",
    "if i",
    "lean",
    "i'm torn",
    "i am torn",
    "low confidence",
    "low-confidence",
    *(
        f"{a}/{b}"
        for a in (50, 55, 60, 65, 70, 75, 80, 85, 90, 95)
        for b in (10, 15, 20, 25, 30, 35, 40, 45, 50)
    ),
    "my confidence",
    "wouldn't bet",
    "would not bet",
    "grain of salt",
    "don't quote",
    "do not quote",
    "(best",
    "(estimate",
    "(rough",
    "(coin",
    "(tentative",
    "(unconfirmed",
    "(uncertain",
    "no way",
    "would have",
    "would need",
    "go with my",
    "shot in",
)
# Weak hedges: only several of them together, or with a strong one, count.
_WEAK_PATTERN = (
    r"\b(?:seems?|seemed|appears?\s+to|apparently|i\s+think|i\s+believe|i\s+assume|assuming|roughly"
    r"|i'd\s+say|my\s+sense|suggests?|suggesting|plausibl[ey])\b"
)
_WEAK_STEMS = (
    "seem",
    "appear",
    "apparently",
    "i think",
    "i believe",
    "i assume",
    "assuming",
    "roughly",
    "i'd say",
    "my sense",
    "suggest",
    "plausib",
)
# Cues that the writer cannot answer at all (a stronger form of uncertainty).
_ABSTAIN_PATTERN = (
    r"\b(?:can't|cannot|can\s+not|couldn't|unable\s+to|not\s+able\s+to|no\s+way\s+to|impossible\s+to"
    r"|not\s+possible\s+to|isn't\s+possible\s+to|don't\s+have\s+enough\s+\w+\s+to)\s+"
    r"(?:really\s+|reliably\s+|actually\s+|accurately\s+|even\s+|possibly\s+)?"
    r"(?:determine|tell|identify|know|say|answer|decide|figure\s+out|work\s+out|make\s+out|read|distinguish|solve"
    r"|conclude|pin\s+down|pin\s+(?:it|this|that|them)\s+down|count|establish|be\s+determined|be\s+identified"
    r"|be\s+answered|be\s+known|be\s+read"
    r"|be\s+(?:worked|figured)\s+out|be\s+established|be\s+calculated|be\s+computed|be\s+inferred|be\s+deduced"
    r"|be\s+pinned\s+down|be\s+told|be\s+decided"
    r"|give\s+(?:a|an|any|the)\s+(?:(?:definite|definitive|confident|reliable|meaningful|justified|justifiable)\s+)?"
    r"(?:answer|count|number|total|figure|estimate|value|reading|amount))\b"
    # "a single photo can't say much about that": a clue that tells little, not giving up
    r"(?!\s+(?:much|a\s+lot|more|that\s+much|anything\s+more)\b)"
    r"|\b(?:not|insufficient|nowhere\s+near)\s+(?:enough\s+)?(?:information|info|detail|details|data|context"
    r"|resolution|evidence|clues)\b(?!\s+(?:about\s+the\s+)?(?:to\s+rule|to\s+reject))"
    r"|\b(?:isn't|aren't|wasn't|weren't|there's\s+not|there\s+is\s+not|there's\s+no|there\s+is\s+no"
    r"|there's\s+simply\s+not|lacks?|lacking)\s+(?:enough\s+|sufficient\s+|the\s+)?(?:information|info|detail|details"
    r"|data|context|resolution|evidence|clues)\b(?!\s+(?:about\s+the\s+)?(?:to\s+rule|to\s+reject))"
    r"|\b(?:undeterminable|indeterminable|indeterminate|unanswerable|undecidable|not\s+determinable"
    r"|not\s+decidable)\b"
    r"|\bi\s+(?:don't|do\s+not|really\s+don't)\s+know\b"
    r"|\bno\s+answer\s+can\s+be\s+(?:given|provided|determined|reached)\b"
    r"|\b(?:isn't|is\s+not|there's\s+not|not)\s+enough\s+to\s+go\s+on\b"
    # "the image simply doesn't settle it", "nothing to break the tie"
    # (the picture must be the subject: see _SETTLES_NOTHING)
    r"|\b(?:doesn't|does\s+not|can't|cannot)\s+(?:settle|decide|resolve)\s+(?:it|this|that|the\s+question|which)\b"
    r"|\b(?:nothing|no\s+way)\s+to\s+break\s+the\s+tie\b"
    r"|\btoss[- ]up\s+(?:that\s+)?i\s+(?:can't|cannot|couldn't)\s+(?:break|resolve|settle)\b"
    r"|\bno\s+(?:clear|definitive|reliable|justified|justifiable|principled|sound|dependable)\s+way\b"
    # "I don't think this question can be answered from these images"
    r"|\b(?:don't|do\s+not)\s+think\s+(?:\w+\s+){0,4}?can\s+be\s+(?:answered|determined|decided|settled|known|told"
    r"|established|worked\s+out|pinned\s+down)\b"
    # "I don't think this image contains enough to determine the country"
    r"|\b(?:don't|do\s+not)\s+think\s+(?:\w+\s+){0,4}?(?:contains?|has|have|gives?|shows?|offers?|provides?)\s+"
    r"enough\s+(?:\w+\s+)?to\s+(?:determine|tell|identify|decide|say|pin\s+down|work\s+out|answer)\b"
    # "the image doesn't contain that information"
    r"|\b(?:doesn't|does\s+not|don't|do\s+not)\s+(?:contain|show|include|give|provide|carry)\s+(?:that|this|the|any"
    r"|enough)\s+(?:information|info|detail|details|data)\b"
    # "this image does not let me determine which one fits"
    r"|\b(?:doesn't|does\s+not|don't|do\s+not|won't|will\s+not)\s+(?:let|allow|enable)\s+(?:me|us|one)\s+(?:to\s+)?"
    r"(?:\w+\s+)?(?:determine|tell|decide|say|know|identify|establish|pin\s+down|work\s+out|figure\s+out)\b"
    # "this photo doesn't allow a reliable total"
    r"|\b(?:doesn't|does\s+not|don't|do\s+not)\s+allow\s+(?:(?:me|us)\s+to\s+give\s+)?(?:a|an|any)\s+"
    r"(?:reliable|definite|definitive|meaningful|trustworthy)\s+(?:answer|count|number|total|figure|estimate"
    r"|reading|identification)\b"
    r"|\btoo\s+(?:blurry|small|low[- ]resolution|pixelated|dark|grainy|faint|obscured)\s+to\s+"
    r"(?:read|tell|make\s+out|identify|determine|count|see)\b"
)
_ABSTAIN_STEMS = (
    "can't",
    "cannot",
    "can not",
    "couldn't",
    "unable",
    "not able",
    "not possible",
    "not enough",
    "not determinable",
    "not information",
    "not info",
    "not detail",
    "not data",
    "not context",
    "not resolution",
    "not evidence",
    "not clues",
    "no way",
    "impossible",
    "isn't possible",
    "don't have",
    "insufficient",
    "nowhere near",
    "undeterminable",
    "indeterminable",
    "indeterminate",
    "unanswerable",
    "undecidable",
    "not decidable",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "there's",
    "there is",
    "lack",
    "i don't",
    "i do not",
    "i really",
    "no clear",
    "no definitive",
    "no reliable",
    "no justified",
    "no justifiable",
    "no principled",
    "no sound",
    "no dependable",
    "don't think",
    "do not think",
    "no answer",
    "doesn't settle",
    "does not settle",
    "doesn't decide",
    "does not decide",
    "doesn't resolve",
    "does not resolve",
    "can't settle",
    "cannot settle",
    "can't decide",
    "cannot decide",
    "can't resolve",
    "cannot resolve",
    "nothing to break",
    "no way to break",
    "toss-up",
    "toss up",
    "doesn't allow",
    "doesn't contain",
    "does not contain",
    "doesn't show",
    "does not show",
    "doesn't include",
    "does not include",
    "doesn't give",
    "does not give",
    "doesn't provide",
    "does not provide",
    "doesn't carry",
    "don't contain",
    "don't show",
    "don't give",
    "don't provide",
    "does not allow",
    "doesn't let",
    "does not let",
    "don't let",
    "do not let",
    "won't let",
    "will not let",
    "doesn't enable",
    "does not enable",
    "don't allow",
    "do not allow",
    "too blurry",
    "too small",
    "too low",
    "too pixelated",
    "too dark",
    "too grainy",
    "too faint",
    "too obscured",
)
# "can't tell for sure" is a hedge, not an abstention.
_QUALIFIED = _c(
    r"[^.\n]{0,40}?\b(?:for\s+sure|for\s+certain|with\s+certainty|with\s+confidence|exact|exactly|precisely"
    r"|definitively|conclusively|100%|with\s+full|beyond|completely|entirely)\b"
)
# What a writer says all agree ("both passes agree: 17").
_AGREEING = (
    "checks",
    "passes",
    "counts",
    "recounts",
    "methods",
    "readings",
    "approaches",
    "tallies",
    "estimates",
    "calculations",
)
# Later text that settles an earlier doubt.
_RESOLVE_PATTERN = (
    r"\bconfirm(?:s|ed|ing)?\b|\bverifi(?:ed|es|cation)\b|\bchecks?\s+out\b"
    r"|\bdouble[- ]check(?:ed|ing)?\b[^.\n]{0,60}\b(?:correct|right|holds|consistent|matches|same)\b"
    r"|\b(?:definitely|definitively|certainly|conclusively|unambiguously|undoubtedly|unmistakabl[ey])\b"
    r"|\bfor\s+(?:sure|certain)\b|\bwithout\s+(?:a\s+|any\s+)?doubt\b|\bno\s+doubt\b|\bbeyond\s+doubt\b"
    r"|\b(?:i'm|i\s+am|i\s+feel|i've\s+become|now\s+i'm)\s+(?:now\s+)?(?:quite\s+|fully\s+|completely\s+)?"
    r"(?:confident|certain|sure|positive|convinced)\b"
    r"|\b(?:settles|resolves|clears\s+up)\b|\bis\s+(?:indeed|clearly)\b"
    r"|\b(?:that's|that\s+is|this\s+is|it's|it\s+is)\s+(?:definitely\s+|indeed\s+)?(?:correct|right|consistent)\b"
    r"|✓|✔|\bmatch(?:es)?\s+(?:exactly|perfectly|the)\b|\bclearly\s+(?:reads|shows|visible|legible|says)\b"
    r"|\bconsistent\s+with\b|\bconsistent(?=\s*[.!](?:\s|$))|\bno\s+longer\s+(?:unsure|uncertain|in\s+doubt)\b"
    r"|\b(?:every|each)\s+(?:single\s+)?check\s+(?:lines\s+up|passes|holds|agrees|checks\s+out)\b"
    r"|\b(?:all|both)\s+(?:the\s+|my\s+|these\s+|two\s+|three\s+)?(?:" + "|".join(_AGREEING) + r")"
    r"\s+(?:line\s+up|pass|hold|agree|match|give|gave)\b"
    r"|\beverything\s+(?:lines\s+up|checks\s+out|fits|matches|agrees|is\s+consistent)\b"
    # "so I can't tell the exact model. That doesn't matter here": a doubt set aside
    r"|\b(?:doesn't|does\s+not)\s+(?:matter|affect|change)\b"
    # "...an older model. The question doesn't ask about the model year, though."
    r"|\b(?:doesn't|does\s+not|didn't|did\s+not|isn't|is\s+not)\s+(?:ask(?:ing)?|asked)\s+(?:about|for)\b"
)
_RESOLVE_STEMS = (
    "confirm",
    "verifi",
    "checks out",
    "check out",
    "double",
    "definitely",
    "definitively",
    "certainly",
    "conclusively",
    "unambiguously",
    "undoubtedly",
    "unmistakab",
    "for sure",
    "for certain",
    "without",
    "no doubt",
    "beyond doubt",
    "i'm now",
    "i'm quite",
    "i'm fully",
    "i'm completely",
    "i'm confident",
    "i'm certain",
    "i'm sure",
    "i'm positive",
    "i'm convinced",
    "i am now",
    "i am quite",
    "i am fully",
    "i am completely",
    "i am confident",
    "i am certain",
    "i am sure",
    "i am positive",
    "i am convinced",
    "i feel now",
    "i feel quite",
    "i feel fully",
    "i feel completely",
    "i feel confident",
    "i feel certain",
    "i feel sure",
    "i feel positive",
    "i feel convinced",
    "i've become now",
    "i've become quite",
    "i've become fully",
    "i've become completely",
    "i've become confident",
    "i've become certain",
    "i've become sure",
    "i've become positive",
    "i've become convinced",
    "now i'm now",
    "now i'm quite",
    "now i'm fully",
    "now i'm completely",
    "now i'm confident",
    "now i'm certain",
    "now i'm sure",
    "now i'm positive",
    "now i'm convinced",
    "settles",
    "resolves",
    "clears up",
    "is indeed",
    "is clearly",
    "that's definitely",
    "that's indeed",
    "that's correct",
    "that's right",
    "that's consistent",
    "that is definitely",
    "that is indeed",
    "that is correct",
    "that is right",
    "that is consistent",
    "this is definitely",
    "this is indeed",
    "this is correct",
    "this is right",
    "this is consistent",
    "it's definitely",
    "it's indeed",
    "it's correct",
    "it's right",
    "it's consistent",
    "it is definitely",
    "it is indeed",
    "it is correct",
    "it is right",
    "it is consistent",
    "\u2713",
    "\u2714",
    "match",
    "clearly",
    "consistent",
    "no longer",
    "every check",
    "each check",
    "every single",
    "each single",
    *(
        f"{det} {mid}{noun}"
        for det in ("all", "both")
        for mid in ("", "the ", "my ", "these ", "two ", "three ")
        for noun in _AGREEING
    ),
    "everything",
    "doesn't matter",
    "doesn't affect",
    "doesn't change",
    "does not matter",
    "does not affect",
    "does not change",
    "doesn't ask",
    "does not ask",
    "didn't ask",
    "did not ask",
    "isn't ask",
    "is not ask",
)
# Word tests on the few words before a cue (set operations run in C; the
# regex equivalents scan every position of the context).
_NEGATORS = frozenset(
    [
        "no",
        "not",
        "never",
        "without",
        "isn't",
        "aren't",
        "wasn't",
        "don't",
        "doesn't",
        "didn't",
        "can't",
        "cannot",
        "couldn't",
        "hardly",
        "nothing",
        "zero",
        "won't",
        "haven't",
        "hasn't",
    ]
)
_INTENTS = frozenset(
    [
        "let",
        "me",
        "let's",
        "i'll",
        "will",
        "should",
        "need",
        "want",
        "to",
        "try",
        "trying",
        "going",
        "can",
        "could",
        "would",
        "must",
        "order",
        "if",
        "unless",
        "whether",
    ]
)
_SELF_NEGATORS = frozenset(
    [
        "no",
        "without",
        "isn't",
        "aren't",
        "wasn't",
        "not",
        "nothing",
        "zero",
        "beyond",
        "won't",
        "wouldn't",
        "don't",
        "shouldn't",
        "refuse",
    ]
)
_EARLIER_PHRASES = (
    "at first",
    "initially",
    "originally",
    "first glance",
    "in the beginning",
    "earlier",
)


def _last_words(before: str, n: int) -> list[str]:
    return [w.strip(".,;:!?()\"'*") for w in before[-60:].split()[-n:]]


# "any of the three options is consistent with what's shown": a check that
# fits every candidate leaves the doubt open.
_ANY_CANDIDATE = frozenset(["any", "either", "neither", "whichever", "both"])


def _settles(before: str) -> bool:
    """Neither a negator ("not entirely", "no longer", "can't really") nor an intent
    or condition ("let me verify", "to confirm") among the last three words, and
    no "any"/"either" among the last six."""
    words = _last_words(before, 6)
    near = words[-3:]
    return (
        _NEGATORS.isdisjoint(near)
        and _INTENTS.isdisjoint(near)
        and _ANY_CANDIDATE.isdisjoint(words)
    )


def _self_negated(before: str) -> bool:
    """ "no doubt", "without any doubt": a negator one or two words before the cue."""
    return not _SELF_NEGATORS.isdisjoint(_last_words(before, 2))


# The question, not the writer, asking for a guess: "the task is to guess the city".
_QUOTED = _c(
    r"\b(?:ask(?:s|ed|ing)?|question|task|prompt|wants\s+me|want\s+me|instructed|instruction|title|game"
    r"|asked\s+to|user)\b[^.\n]{0,40}$"
)


class Cue(NamedTuple):
    start: int
    end: int
    weight: int  # 2 strong, 1 weak
    perceptual: bool = False  # "can't read the sign": about a clue, not necessarily the answer
    qualified: bool = False  # "can't tell for sure": a hedge rather than giving up


_PERCEPTUAL = _c(r"\b(?:read|make\s+out|see|count|be\s+read)\b|^too\b")
# A doubt the writer places in the past ("at first I couldn't tell") is not where the reasoning ends.


FAMILIES: tuple[Family, ...] = (
    Family("strong", _STRONG_STEMS, _STRONG_PATTERN, anchored=True),
    Family("weak", _WEAK_STEMS, _WEAK_PATTERN, anchored=True),
    Family("abstain", _ABSTAIN_STEMS, _ABSTAIN_PATTERN, anchored=True),
    Family("resolve", _RESOLVE_STEMS, _RESOLVE_PATTERN, anchored=True),
)
_SCANNER = Scanner(FAMILIES)


class Cues:
    """Every hedge, abstention and resolution cue in ``low[lo:hi]``, found in one pass.

    ``low`` is the lowercased text (scan.lowered); offsets index the original.
    """

    def __init__(
        self,
        low: str,
        lo: int = 0,
        hi: int | None = None,
        found: Mapping[str, list[re.Match[str]]] | None = None,
    ) -> None:
        self.low = low
        # ``found`` lets a caller share one pass of a combined scanner (scan.Scanner
        # over FAMILIES and other modules' families) for the same region.
        self.found = _SCANNER.find(low, lo, hi) if found is None else found
        # Sentence starts found for hedges, by position: the hedge detector's
        # evidence needs them again (spans.sentence_start reads only characters
        # that lowering keeps, so they hold for the original text too).
        self.sentence_starts: dict[int, int] = {}

    def _before(self, pos: int, reach: int) -> str:
        """The text of the sentence before ``pos``, at most ``reach`` characters."""
        return self.low[max(sentence_start(self.low, pos), pos - reach) : pos]

    def hedges(self, after: int = -1) -> Iterator[Cue]:
        """Hedge cues starting after ``after``, not negated or quoted from the task (abstentions included)."""
        for start, end, weight in self._plain_hedges(after):
            yield Cue(start, end, weight)
        # Not being able to answer at all is the strongest form of doubt.
        yield from self.abstentions(qualified_too=True, after=after)

    def hedge_spans(self, after: int = -1, *, giving_up: bool = True) -> list[tuple[int, int, int]]:
        """``(start, end, weight)`` of each of ``hedges(after)``, in the same order.

        ``giving_up=False`` leaves out the abstentions that are not qualified
        hedges ("I can't determine the year", unlike "I can't tell for sure").
        """
        found = self._plain_hedges(after)
        if self.found.get("abstain"):
            found += [
                (c.start, c.end, c.weight)
                for c in self.abstentions(qualified_too=True, after=after)
                if giving_up or c.qualified
            ]
        return found

    def _plain_hedges(self, after: int) -> list[tuple[int, int, int]]:
        """The strong and weak hedges of ``hedges(after)`` as plain tuples."""
        # A list of tuples, not a generator of Cues: this runs for every hedge of every trace.
        low = self.low
        starts = self.sentence_starts
        out: list[tuple[int, int, int]] = []
        for m in self.found.get("strong", ()):
            start = m.start()
            if start <= after:
                continue
            # (sentence_start looks back 200 characters at most: _before(start, 200))
            starts[start] = at = sentence_start(low, start)
            before = low[at:start]
            word = m.group(0)
            if word.startswith(_NEGATABLE) and _self_negated(before):
                continue
            if "guess" in word and _QUOTED.search(before[-60:]):
                continue
            if word == "guessed" and before.endswith(("second-", "second ")):
                continue  # "I second-guessed myself": a doubt the writer places in the past
            if word.startswith(("might", "may", "could")) and _NONE_THAT.search(before[-70:]):
                continue  # "no other sign that could be the shop": nothing is in doubt
            if word == "guessed" and before.endswith(_WOULD_HAVE):
                continue  # "I'd have guessed lower": an expectation, not a doubt
            if word.startswith("guess") and before.endswith(_NO_GUESS):
                continue  # "I'm not going to guess a number": a refusal, not a guess
            if word.startswith("guess") and before.endswith(_PAST_GUESS):
                continue  # "not my first guess of 18": a guess given up, not one held
            if word == "likely" and (
                before.endswith(("equally ", " as ")) or low.startswith(_CHANCE_NOUNS, m.end())
            ):
                continue  # "four equally likely families": a probability, not a doubt
            if (
                not _earlier_in(before)
                and not _aside(low, at, m.end())
                and not low.startswith(_AT_FIRST, m.end())
            ):
                out.append((start, m.end(), 2))
        for m in self.found.get("weak", ()):
            start = m.start()
            if start <= after:
                continue
            starts[start] = at = sentence_start(low, start)
            before = low[at:start]
            if (
                not _self_negated(before[-20:])
                and not _earlier_in(before)
                # "equally plausible": no candidate preferred, which giving up says
                and not before.endswith("equally ")
                and not _aside(low, at, m.end())
                and not low.startswith(_AT_FIRST, m.end())
            ):
                out.append((start, m.end(), 1))
        return out

    def abstentions(self, *, qualified_too: bool = False, after: int = -1) -> Iterator[Cue]:
        """Cues that the writer cannot answer ("I can't determine", "not enough information").

        "I can't tell for sure" is a hedge, not an abstention; ``qualified_too``
        yields those as well (for the hedge detector).
        """
        low = self.low
        for m in self.found.get("abstain", ()):
            if m.start() <= after:
                continue
            if _OPTION_LABEL.search(low, max(0, m.start() - 12), m.start()):
                continue  # "D. Cannot be determined": an option's text, read out
            close = sentence_end(low, m.end())
            if _OPTION_NAMED.match(low, m.end(), close):
                continue  # "so it can't be determined: option D": the option chosen
            clue = _ONE_CLUE.match(low, m.end(), close)
            if clue is not None and _PICTURE_WORDS.isdisjoint(clue.group(1).split()):
                continue  # "I can't tell from the line positions alone": one clue set aside
            if _in_header(low, m.start()):
                continue  # "**What I Can't Pin Down**": a section's topic, not a statement
            before = self._before(m.start(), 200)
            if _CONDITION.search(before[-30:]):
                continue
            if not _OTHER_PEOPLE.isdisjoint(_last_words(before, 5)):
                continue  # "a sweating man wiping his brow, unable to decide": someone in the picture
            if m.group(0).endswith(" tell") and _A_THING.search(before[-40:]):
                continue  # "an analog face can't tell 7:10 am from 7:10 pm": what a thing can't do
            if m.group(0).endswith(_SETTLE_ENDS) and _PICTURE_WORDS.isdisjoint(
                _last_words(before, 4)
            ):
                continue  # "the name on its own doesn't settle it": a clue, not the picture
            qualified = _QUALIFIED.match(low, m.end(), min(len(low), m.end() + 60)) is not None
            if (qualified and not qualified_too) or _earlier_in(before):
                continue
            yield Cue(m.start(), m.end(), 2, _PERCEPTUAL.search(m.group(0)) is not None, qualified)

    def resolutions(self) -> Iterator[int]:
        """Positions of resolution cues (verified, confirmed, now certain) not negated or intended."""
        for m in self.found.get("resolve", ()):
            if _settles(self._before(m.start(), 40)):
                yield m.start()

    def last_resolution(self) -> int:
        """Position of the last resolution cue, or -1: only doubt after it counts."""
        for m in reversed(self.found.get("resolve", ())):
            if _settles(self._before(m.start(), 40)):
                return m.start()
        return -1


_CONDITION = _c(r"\b(?:if|whether|unless)\b[^,]*$")
# Someone other than the writer, just before an inability: not the writer giving up.
_OTHER_PEOPLE = frozenset(
    [
        "he",
        "she",
        "they",
        "his",
        "her",
        "their",
        "man",
        "woman",
        "person",
        "people",
        "guy",
        "girl",
        "boy",
        "character",
        "someone",
        "player",
        "driver",
        "child",
        "kid",
        "viewer",
        "user",
        "reader",
    ]
)


# "the image simply doesn't settle it" gives up; "the name alone doesn't settle it"
# only sets a clue aside.
_SETTLE_ENDS = (" it", " this", " that", " the question", " which")
_PICTURE_WORDS = frozenset(
    ["image", "photo", "picture", "photograph", "evidence", "frame", "shot", "figure", "screenshot"]
)


def _in_header(low: str, pos: int) -> bool:
    """Whether ``pos`` lies in a markdown bold header line ("**Weighing the Options**")."""
    start = low.rfind("\n", 0, pos) + 1
    end = low.find("\n", pos)
    line = low[start : len(low) if end == -1 else end].strip()
    return line.startswith("**") and line.endswith("**") and len(line) < 120


# Evidence besides the picture: what it cannot tell is the writer giving up too.
_EVIDENCE_WORDS = frozenset(
    ["chart", "graph", "map", "diagram", "data", "sign", "label", "table", "view", "angle"]
    + ["resolution", "lighting", "information"]
)
# A thing, not the writer and not the evidence, as the subject right before "can't tell".
_A_THING = _c(
    r"\b(?:a|an|the|its)\s+(?:[a-z-]+\s+)?(?!(?:"
    + "|".join(sorted(_PICTURE_WORDS | _EVIDENCE_WORDS))
    + r")\s)[a-z-]+\s+$"
)
# "so it can't be determined: option D", "..., which is exactly what option D says"
_OPTION_NAMED = _c(
    r"(?:(?!\b(?:whether|between|or)\b)[^.;\n])*?\b(?:option|choice|answer)\s+\(?[a-h]\)?(?:\W|$)"
)
_ONE_CLUE = _c(
    r"([^.;\n]{0,60}?)\b(?:(?<!let\s)alone|by\s+itself|on\s+its\s+own|by\s+themselves|on\s+their\s+own)\b"
)
_OPTION_LABEL = _c(r"(?:^|[\s(\[;,])(?:option\s+)?\(?[a-h][.):]\s*$")


# How a text commits straight after a question it asked itself: the doubt in
# the question then stands ("Or maybe 36? I'll go with 36.").
_COMMITS_AT_ONCE = (
    "i'll go",
    "i will go",
    "i'll say",
    "i will say",
    "i'll pick",
    "i'll stick",
    "i'll choose",
    "i'll answer",
    "i'd say",
    "let's go with",
    "going with",
    "final answer",
    "answer:",
    "so the answer",
    "the answer is",
)


# A sentence about the expected format or the grader, not about the answer.
_FORMAT_TALK = _c(
    r"\b(?:the\s+prompt|format(?:ted|ting)?|grader|the\s+instructions?|answer\s+marker)\b"
)


def _aside(low: str, sentence: int, end: int) -> bool:
    """Whether the hedge ending at ``end`` (its sentence opening at ``sentence``) is
    no doubt about the answer: a question the text goes on to look into ("maybe
    there's a city, which would double it? Let me check: ..."), unless it
    commits at once, or a remark on the expected format ("the grader presumably
    wants just the integer")."""
    close = sentence_end(low, end)
    if _FORMAT_TALK.search(low, sentence, close):
        return True
    if low[close - 1 : close] != "?":
        return False
    rest = low[close : close + 40].lstrip(" \t\n*_")
    return bool(rest) and not rest.startswith(_COMMITS_AT_ONCE)


_NONE_THAT = re.compile(
    r"\b(?:no|nothing|none|nobody|nowhere)\b[^.;,\n]{0,50}\b(?:that|which|who)\s+$"
)
_WOULD_HAVE = ("would have ", "'d have ", "would've ", "'d've ")
# ("won't guess", "rather not guess": "n't " and "not " end them too)
_NO_GUESS = (
    "not ",
    "n't ",
    "not going to ",
    "n't going to ",
    "not about to ",
    "not want to ",
    "n't want to ",
    "refuse to ",
)
# "my first guess", "the initial guess": a guess the writer has moved on from.
_PAST_GUESS = ("first ", "initial ", "original ", "previous ", "earlier ", "old ", "early ")
# "I'm not sure at first whether...": the doubt placed in the past, after the cue.
_AT_FIRST = (" at first", " initially", " at the start", " to begin with")
# "likely outcomes": "likely" as a term of probability.
_CHANCE_NOUNS = (" outcomes", " events", " cases", " to occur", " results")
# Hedge words that "no"/"without"/"not" before them turn into certainty ("no doubt").
_NEGATABLE = ("doubt", "uncertain", "unclear", "ambigu", "guess", "hesitant", "specul", "likely")


def _earlier_in(before: str) -> bool:
    # _EARLIER_PHRASES written out: a generator costs more than the six tests.
    return (
        "at first" in before
        or "initially" in before
        or "originally" in before
        or "first glance" in before
        or "in the beginning" in before
        or "earlier" in before
    )
