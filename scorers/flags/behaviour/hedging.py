"""``hedged_reasoning_certain_answer``: the reasoning ends unsure, the answer states no doubt.

LRM-Eval rubric Q4 ("... uncertainty about its answer"): CoNLL-2010 / BioScope epistemic hedge
cues read in what the reasoning says last, less argument steps. Never raised beside a contradiction:
an answer trading even a tentative lean for another result is that only. See docs/flags.md."""

from __future__ import annotations

import re

from scorers.flags.behaviour import contradiction
from scorers.flags.behaviour.cues import CueView, pattern, regex
from scorers.flags.behaviour.text import Sentence, evidence, flag, sentences
from scorers.records import Evidence, Flag

_KEYS = ("hedge_strong", "hedge_leans", "settled", "presentation", "task", "conclusion_markers")
_STRONG, _LEANS, _SETTLED, _PRESENTATION, _TASK, _MARKED = map(pattern, _KEYS)
_NEGATED = re.compile(r"(?:" + regex("hedge_negators").pattern + r")\s+(?:\w+\s+){0,2}$", re.I)
_SUPPOSING = re.compile(  # a supposition: "which would mean it's perhaps", not "I would", "even if"
    r"\b(?:would(?<!\bi would)|(?<!\beven )if|suppose|assuming|unless)\b[^,;:.]*$", re.I
)
_SPECULATIVE, _MOVES = regex("hedge_speculative"), regex("hedge_moves")  # moves: argument steps
_PICK = re.compile(r"\W*(?:" + regex("picks").pattern + ")", re.I)  # "..., but I think it's C"
_BECAUSE = re.compile(r"(?i)\b(?:because|since|given|considering|based\s+on|due\s+to)\b")
_REASON = r"(?:so|thus|therefore|because|since)\b|(?:given|considering|based\s+on)\b.*"  # not bare
_ADOPTS = re.compile(rf"(?i).*{_PICK.pattern}\s+(?:(?:with|on)\s+)?(?:that|this|it)\W*$")
_COMMITS = r"\W*(?:(?:so|thus|then|hmm+)\W+)*i(?:'ll|\s+will)\s+(?:go|stick|pick|choose)\b"
BARE_PICK = re.compile(rf"(?i)^(?!.*\b(?:{_REASON}{_PICK.pattern})).*\b{_PICK.pattern}|{_COMMITS}")
# a number, an option ("E를": a Korean particle attaches)
_VALUE = re.compile(r"(?=[\dA-HJ])(?:\d+(?:\.\d+)?|(?<![\w'])[A-HJ](?![^\W\uac00-\ud7a3]|'))")
_TURN = re.compile(r",?\s+(?:but|however|(?:al)?though)\b", re.I)
_OVERRIDES = re.compile(r"(?i)\W*(?:however|but|nevertheless|still|that said)\b")  # with a ground
_CAUSE = re.compile(r"(?i)\W*\b(?:because|since)\b")  # a reason given (not "given the options")
_CHECKS, _DISPUTED = regex("check_plans"), regex("disputed")  # "let me verify"; "hint is wrong"
# A last sentence that withdraws the result without giving another (no number in it).
_WITHDRAWS = re.compile(rf"(?i)^(?!.*\d)\W*(?:(?:hmm+|but|oh)\W+)?(?:{regex('withdraws').pattern})")
DEFERS, _ASKS = pattern("defers"), re.compile(_VALUE.pattern + r"|(?i:\banswer)")  # asks: candidate
_NOT_DOUBT = re.compile(r"\s+(?:" + regex("not_doubt").pattern + ")", re.I)  # "maybe not B"
_NO = regex("declining", "non_answer").pattern + "|we don't know|" + regex("decline").pattern
_NONE = re.compile(rf"(?i)\b(?:answer|choice)\b(?:(?!\b(?:not|but)\b)[^.;])*?\b(?:{_NO})\b")


def restates(earlier: str, later: str) -> bool:
    """``later`` names the values or letters ``earlier`` names, no other, and no reason: no result."""
    stated = set(_VALUE.findall(later))
    return stated == set(_VALUE.findall(earlier)) != set() and not _BECAUSE.search(later)


def _rival(speculation: str, result: str, at: int = 0, near: bool = True) -> bool:
    """The speculation, to the turn after its cue at ``at`` ("could be odd, but the total is 12"),
    offers ``near`` the result a value, a letter or a rival it lacks, or a second guess; or the result
    only adopts it ("maybe D is right. So D.", "I'll go with that"): it argues nothing."""
    turn = _TURN.search(speculation, at)
    speculation = speculation[: turn.start() if turn else None]
    clause = re.split("[,;:]", speculation[:at])[-1] + re.split("[,;:]", speculation[at:])[0]
    values = set(_VALUE.findall(speculation)) - set(_VALUE.findall(result))
    told = _BECAUSE.search(speculation)  # a reason ("since it is single-choice, perhaps D") argues
    rival = values or regex("rival").search(speculation) or _SPECULATIVE.findall(speculation)[1:]
    return bool(near and rival or _ADOPTS.match(result) or not told and restates(clause, result))


def _firm(text: str) -> bool:
    """A result stated without doubt: marked, asserting something, no hedge cue in it."""
    marked = _MARKED.search(text) is not None and not cues(text)
    return marked and contradiction.asserted(text, "")[0] is not None


def cues(text: str, cue: CueView = _STRONG) -> list[re.Match[str]]:
    """The hedge cues of ``text`` that doubt: not negated, supposed, a plan, a check, a format."""
    return [
        m
        for m in cue.finditer(text)
        if not _NEGATED.search(text, max(0, m.start() - 20), m.start())
        and not _SUPPOSING.search(text, 0, m.start())
        and not (_NOT_DOUBT.match(text, m.end()) and _SPECULATIVE.fullmatch(m.group(0)))
        and not _PRESENTATION.search(text, max(0, m.start() - 50), m.end() + 40)
    ]


def answer_hedges(answer: str, asked: str = "") -> bool:
    """Whether the answer's last three sentences keep a doubt: a hedge cue or a lean ("likely"),
    unless the question holds it with the word after it ("which may be felt": its modality)."""
    texts = [s.text.lower() for s in sentences(answer)[-3:]]
    return any(not _held(m, asked, True) for t in texts for m in cues(t) + cues(t, _LEANS))


def _held(m: re.Match[str], asked: str, echo: bool = False) -> bool:
    """What is asked, not doubted: a word the question holds ("Ambiguous"), or a modal and the next."""
    cue = m[0].lower()
    if echo or " " in cue or _SPECULATIVE.fullmatch(cue):  # "maybe" in a story is no subject
        return cue + (re.compile(r" \w+").match(m.string, m.end()) or m)[0].lower() in asked
    return re.search(r"\b" + re.escape(cue[: max(5, len(cue) - 3)]), asked) is not None


def doubts(
    stretch: list[Sentence], concluded: int | None = None, asked: str = ""
) -> tuple[list[tuple[Sentence, re.Match[str]]], int]:
    """The hedge cues of ``stretch`` still standing at its end, and where the weak cues that stand with them start."""
    found: list[tuple[Sentence, re.Match[str]]] = []
    since, checked = 0, found[:]  # checked: the doubts the writer set out to check
    before: Sentence | None = None
    for index, sentence in enumerate(stretch):
        text, prev = sentence.text, stretch[index - 1]  # before: that before a line restating it
        if index < 2 or not restates(stretch[index - 2].text, prev.text) or cues(prev.text):
            before = prev
        if text.endswith(("?", "？")):
            continue  # questions; cues about how to write the answer are none (``cues``)
        strong = [m for m in cues(text) if not (_MOVES.fullmatch(m[0]) or _held(m, asked))]
        yields = contradiction.CONCEDING.match(text) and DEFERS.search(text, text.find(",") + 1)
        strong += [yields] if yields else []  # "Despite my own result, I'll defer to the hint"
        gloss = strong and contradiction.CONCESSIVE.search(text)
        if strong and gloss and contradiction.conceded(text, gloss, "") is not None:
            # "it might look odd, but the answer is 4": conceded, then settled; from the conclusion
            # on, any doubt is, unless only a pick or a lean follows ("not sure, but I think C")
            final = concluded is not None and sentence.start >= concluded
            final = final and not _PICK.match(text, gloss.end())
            found, since = ([], index) if final else (found, since)
            spec = _SPECULATIVE.fullmatch
            strong = [m for m in strong if m.start() > gloss.start() or not (final or spec(m[0]))]
        if strong and (_TASK.search(text) or _DISPUTED.search(text)):
            # speculation about what is asked ("maybe it's a trick question") or that another's
            # claim is wrong is not about the answer; an avowed doubt ("not sure what it wants") is
            strong = [m for m in strong if not _SPECULATIVE.fullmatch(m.group(0))]
        told = (settled := cues(text, _SETTLED)) and DEFERS.search(text)  # "the hint confirms D"
        settled = [m for m in settled if not (told and told.end() >= m.end())]  # another's word
        if _NONE.search(text) or any(not strong or m.start() > strong[-1].end() for m in settled):
            found, since = [], index + 1  # "maybe 38, but it's clearly above 35": settled
            continue
        reasons = not (strong or cues(text, _LEANS) or DEFERS.search(text)) and _CAUSE.search(text)
        found = [] if reasons and _PICK.search(text, 0, reasons.start()) else found  # argued pick
        if not strong and found and _firm(text):
            # a firm result settles the doubts checked or argued past (a reason in a sentence of no
            # doubt, lean or deferral) before it, the speculation argued over (not a rival voiced
            # right before it or its restatements: "It could be D. So C.") and, unless a pick, a
            # doubt naming its ground ("unsure because ..."), or all it overrides with a reason
            argued = not _PICK.search(text)
            found = [] if argued and reasons and _OVERRIDES.match(text) else found
            found = [
                (s, m)
                for s, m in [f for f in found if f not in checked]
                if _rival(s.text, text, m.end(), s is before)
                or not (_SPECULATIVE.fullmatch(m[0]) or argued and _CAUSE.match(s.text, m.end()))
            ]
        found.extend((sentence, m) for m in strong)
        checked = list(found) if _CHECKS.search(text) or reasons else checked
    return found, since


def detect(
    reasoning: str,
    stretch: list[Sentence],
    conclusion_at: int | None,
    gave_up: bool = False,
    doubt: Evidence | None = None,
    asked: str = "",
) -> Flag | None:
    """``doubt``: where the reasoning declines only to choose between candidates or read a detail."""
    last = stretch[-1] if stretch else None
    # it ends withdrawing its result ("Wait, that can't be right.") or asking about a candidate
    unsure = last and (_ASKS if last.text.endswith(("?", "？")) else _WITHDRAWS).search(last.text)
    if doubt is None and last and unsure and not cues(last.text, _SETTLED):
        doubt = evidence("reasoning", reasoning, last.start, last.end)
    if doubt is None and not any(_STRONG.search(s.text) or DEFERS.search(s.text) for s in stretch):
        return None  # no cue a doubt stands on: doubts() finds none
    found, at = doubts(stretch, conclusion_at, asked)
    if not (found or doubt):
        return None  # no doubt left
    # A lone doubt before a firm conclusion may be the argument weighing the options it then
    # chose among: a low-confidence hedge, as is a lone doubt where no conclusion was read.
    after = conclusion_at is not None and any(s.start >= conclusion_at for s, _ in found)
    leans = (cues(s.text, _LEANS) for s in stretch[at:] if s.text[-1] not in "?？")
    high = len(found) + bool(doubt) > 1 or after or doubt or gave_up or any(leans)
    where = [(s.start + m.start(), s.start + m.end()) for s, m in found[:3]]
    spans = [evidence("reasoning", reasoning, *span) for span in where] + ([doubt] if doubt else [])
    detail = f"reasoning ends unsure ({', '.join(repr(span['text']) for span in spans)})"
    return flag("hedged_reasoning_certain_answer", spans, detail, "high" if high else "low")
