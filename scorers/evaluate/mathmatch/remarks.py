"""Which sentences of a math answer written as prose are side remarks.

A remark is no statement of the result: it sits in brackets or is opened by a
remark or check word, supposes what is contrary to the givens, compares the
value with another, comments on what came before, speaks to the reader or of
the writer's method, gives a reason whose main clause states nothing, or holds
only numbers already known (in a definite noun phrase, a reason after the main
clause, a unit conversion). Read by the sentence's structure (its opening, its
subject and verb, its first clause), not by lists of whole phrases.
:mod:`sentences` uses this to find the stating sentence and to drop closing
lines that are asides.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter

from scorers.evaluate.mathmatch.prose import (
    FIRST_CLAUSE,
    HAS_VALUE,
    LEAD,
    NUMBER,
    holds_value,
    quantity,
    sentences,
)
from scorers.evaluate.mathmatch.units import denomination

# A side remark, not a statement of the result: in brackets (not a label in
# brackets that opens the line: "(answer) 3 × 4 = 12"), opened by a remark
# or check word, a supposition ("If the side were 7", "Had we counted"), a
# comparison or a check of the result ("Substituting back"), a word to the reader
# ("Keep in mind that ...", "Recall ..."), a comment on what came before ("This
# uses the fact that ...", "That is because ..."), or the writer's confidence in it
# ("Confidence: 0.95", asked for by calibration prompts; "I'm 90% sure of this.").
# "If it were 7", "if we had counted": contrary to the givens ("if 48 students were put into
# 8 groups" and "if she had 6 pencils" restate them).
_PARTICIPLE = r"\s+(?:[a-z]+(?:ed|en)|put|split|cut|set|got|made|bought|sold|kept|left)\b"
_CONTRARY = r"\b(?:were\b(?!" + _PARTICIPLE + r")|had(?=" + _PARTICIPLE + r"))"
_REMARK_HEAD = re.compile(
    r"^\s*(?:[(\[](?![A-Za-z][A-Za-z ]{0,19}[)\]]\s*[^\s.!?])|"
    r"[(\[]?\s*(?:note|remark|check|checking|verification|verify|n\.?b\.?|p\.?s\.?|confidence|"
    r"explanation|hint|if(?=[^,]*"
    + _CONTRARY
    + r")|had|were|suppose|substituting|plugging|by\s+comparison|"
    r"for\s+comparison|for\s+reference|compare|a\s+common\s+mistake|alternatively|"
    r"for\s+(?:example|instance)|e\.g\.|as\s+a\s+(?:sanity\s+)?check|to\s+(?:check|verify|confirm)|"
    r"remember|recall|(?:keep|bear)\s+in\s+mind|notice|observe|"
    # the writer's method: "We used the fact that ...", "Here I assumed a 5-day week."
    r"(?:here\s+)?(?:we|I)\s+(?:have\s+)?(?:used|assumed|applied|rounded|ignored)|"
    # the writer's confidence in prose: "I'm about 90% confident in this.", "My confidence is 0.8."
    r"my\s+confidence|(?:I|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:(?:about|around|roughly|fairly|"
    r"quite|very|reasonably|highly|\d+(?:\.\d+)?\s*%)\s+)*(?:confident|sure|certain))\b)"
    # "A quick sanity check: ...", "One last note: ...": a label that names a remark.
    r"|^\W*(?:an?|one|my|our)?\s*(?:[a-z]+\s+){0,2}(?:check|verification|note|remark|aside)\s*:"
    # "That seems right.", "This looks reasonable given ...": an appraisal of the result.
    r"|^\W*(?:this|that|it|which)\s+(?:seems|looks|sounds|appears|feels)\b"
    # "That's 3 more than Bob has.": the value compared with another.
    r"|^\W*(?:that|this|it)(?:['’]s|\s+is|\s+was)\s+(?:[^.]*\b(?:more|less|fewer|greater|smaller|"
    r"larger|times|twice|double|half)|because|why|how)\b"
    # "This uses the fact that a week has 7 days.": a verb that comments on the result,
    # not one that states a value ("This gives 12", "That leaves 5").
    r"|^\W*(?:this|that)\s+(?:(?:also|still|again|indeed|[a-z]+ly)\s+)?(?!(?:gives|makes|leaves|means|comes|equals|yields|totals|sums|adds|"
    r"amounts|brings|works|simplifies|reduces|becomes|results)\b)[a-z]+s\s+(?:the|that|on|with|our|"
    r"my|a|an|for|from|because|in|into|both|all|us|every|how|why)\b",
    re.IGNORECASE,
)
# Cues that make a remark of a sentence when its first clause holds them: "x = -2 is
# extraneous". In a later clause they remark on the value the sentence has stated ("The
# total is 21, and this checks out"). "would" supposes wherever it stands ("With larger
# tiles, it would need 30"), unless the sentence concludes ("So the total would be $40").
_REMARK_CUE = re.compile(
    r"\b(?:for\s+reference|by\s+comparison|checks\s+out|as\s+a\s+(?:sanity\s+)?check|"
    r"(?:could|can)\s+also\s+(?:have\s+)?(?:be\s+)?(?:found|got|obtained|computed|calculated|"
    r"checked|verified|seen|solved|done)|(?:is|are)\s+(?:rejected|extraneous|discarded))\b",
    re.IGNORECASE,
)
# "With longer rows, it would need 56", "Using bigger tiles would take 30", "A longer side
# would make it 90": a value supposed under a circumstance the sentence names; not "She
# would have 45 carrots in total" (the question's own hypothetical, answered).
_SUPPOSED = re.compile(
    r"^\W*(?:with|without|using|had|were|in\s+a|for\s+a|at\s+a|instead|"
    r"if\s+(?=[^,]*" + _CONTRARY + r")|[a-z]+ing\b|an?\s+[a-z]+er\b)[^.!?]*\bwould\b",
    re.I,
)


# "Since a year has 365 days, ...", "Checking with 3 × 4 = 12, ...", "With 2 pipes, ...":
# a reason, a participle or a circumstance opens the sentence.
_OPENING_REASON = re.compile(
    r"^\W*(?:since|because|as|given\s+that|although|though|while|whereas|(?:[a-z]+-)?[a-z]{2,}ing|"
    r"with|after|by|from|using|on|in|for)\b[^,;]*[,;]\s*",
    re.I,
)


# "I first got 49, but that was a slip.", "Some say 12, which is wrong.": a value retracted;
# "the answer is not 12", "12 isn't the answer": ruled out (not "not 12 but 13").
_RETRACTED = re.compile(
    r"\b(?:that|this|it|which)(?:['’]s|\s+(?:is|was|would\s+be))\s+(?:wrong|incorrect|mistaken|"
    r"false|a\s+(?:slip|mistake|typo|miscount)|an\s+error|not\s+(?:right|correct))\b|"
    r"\banswer\s+(?:is|was)(?:n['’]t|\s+not)\b(?![^.;]*\bbut\b)|"
    r"\b(?:is|was)(?:n['’]t|\s+not)\s+(?:the|our|my)\s+(?:final\s+|correct\s+)?answer\b",
    re.I,
)


# "the 2 conditions", "all 3 steps", "its 4 sides", "each of the 6 bags", "the problem's 2
# rules": a number in a definite noun phrase refers to things already known, it states no value.
DEFINITE_NUMBER = re.compile(
    r"\b(?:the|these|those|its|their|his|her|our|my|your|all|both|each\s+of\s+the|"
    r"none\s+of\s+the|(?!(?:it|that|this|there|here|what|who|he|she|let)['’])[a-z]+['’]s)\s+\d+(?=\s+(?:[a-z]+\s+)?[a-z]{2,}s\b)",
    re.I,
)
# "... because the price is fixed", "... since 2 + 2 = 4": a reason given after the main clause.
_REASON_AFTER = re.compile(r"(?<=\w)[,\s]+(?:because|since|given\s+that)\b.*$", re.I | re.S)
# "a/an/one/each/per unit": the unit a conversion fact is stated for ("60 seconds make a minute").
_ONE_OF = re.compile(r"(?:\b(?:an?|one|each|every|per)|(?<![\d.])1)\s+([a-z]+)\b", re.I)


def _conversions(s: str) -> list[tuple[int, int]]:
    """Spans of the numbers that state a relation between units or denominations ("12
    inches make a foot", "1 mile as 1.6 km", "a month as 4 weeks", "4 quarters make a
    dollar"): facts or conventions, not values found. Units of one dimension, within
    10% (a calendar convention: 4 weeks is 8% short of a mean month; "2 hours a day"
    and "6 days a week" are rates)."""
    spans = []
    ones = [(m, denomination(m.group(1))) for m in _ONE_OF.finditer(s)]
    for number in NUMBER.finditer(s):
        q = quantity(s, number, denomination)
        if q is None:
            continue
        for one, unit in ones:
            if unit is None or unit.dimension != q.dimension or unit.name == q.unit:
                continue
            if abs(q.size - unit.factor) <= unit.factor / 10:
                spans.append((q.start, q.end))
                spans.append((one.start(), one.end()))
    return spans


# "the limit of 40 passengers", "the rate of 15 km per hour", "the divisors of 24": a
# number that names a given by its role refers to what is known ("the answer of $1.20",
# "a total of 12" name the result).
_ROLE_OF = re.compile(
    r"\b(the\s+(?!(?:answer|result|solution|total)\b)[a-z]+\s+of\s+\$?)\d[\d.,]*", re.I
)


# "a 9-year-old", "a 10-minute walk", "the 3-day-old bread": a number joined by a
# hyphen to a word makes a compound adjective, which describes a noun; it is no value.
_COMPOUND_MODIFIER = re.compile(r"(?<![\w.,])\d+(?=-[a-z]{2,}\b)", re.I)


def _given_only(sentence: str) -> bool:
    """Whether every value ``sentence`` holds refers to what is already known: a
    number in a definite noun phrase, in a reason after the main clause, in a
    compound adjective ("for a 9-year-old") or in a unit conversion ("The problem's 2 conditions are both satisfied.", "This works
    because the price is fixed at 3 dollars.", "I took 1 mile as 1.6 km."). A
    conclusion states what it holds ("So all 12 pens are hers.")."""
    if not HAS_VALUE.search(sentence) or LEAD.match(sentence):
        return False
    s = _REASON_AFTER.sub("", sentence)
    for start, end in sorted(_conversions(s), reverse=True):
        s = s[:start] + " " + s[end:]
    s = _ROLE_OF.sub(r"\1", s)
    s = _COMPOUND_MODIFIER.sub("", s)
    return not HAS_VALUE.search(DEFINITE_NUMBER.sub(definite_dropped, s))


# "That gives her 59 cupcakes.", "It leaves her 12 dollars.": after a verb that takes
# a person and a thing (a transfer or its result), "her" is the person, an object
# pronoun, not the possessive of a known quantity. Verbs that read both ways when
# the subject is "she" herself ("She bought her 3 toys") are left out.
_TWO_OBJECT_VERB = re.compile(
    r"\b(?:give|gives|gave|given|giving|leave|leaves|left|leaving|hands?|handed|handing|"
    r"brings?|brought|bringing|sends?|sent|sending|pays?|paid|paying|owes?|owed|owing|"
    r"lends?|lent|lending|costs?|costing|earns?|earned|earning|makes?|made|making|"
    r"saves?|saved|saving|wins?|won|winning|offers?|offered|offering)\s+$",
    re.I,
)


def definite_dropped(m: re.Match[str]) -> str:
    if m.group(0)[:4].lower() == "her " and _TWO_OBJECT_VERB.search(
        m.string, max(0, m.start() - 12), m.start()
    ):
        return m.group(0)
    return m.group(0).rstrip("0123456789")


def is_remark(sentence: str) -> bool:
    """Whether ``sentence`` is a side remark rather than a statement of the result."""
    if _REMARK_HEAD.search(sentence) or _RETRACTED.search(sentence):
        return True
    if _given_only(sentence):
        return True
    reason = None if LEAD.match(sentence) else _OPENING_REASON.match(sentence)  # "In conclusion,"
    if reason is not None and not holds_value(sentence[reason.end() :]):
        return True  # its main clause states no value: it only gives a reason or a check
    if LEAD.match(sentence):
        return False  # "So the total would be $40.": a conclusion, not a supposition
    if _SUPPOSED.search(sentence):
        return True
    return bool(_REMARK_CUE.search(FIRST_CLAUSE.split(sentence, maxsplit=1)[0]))


def without_closing_remarks(lines: list[str], keep: int = 1) -> list[str]:
    """``lines`` without the trailing ones that state no value or are side
    remarks ("Let me know if ...", "Note: ...", "(Check: ...)"), at least ``keep``
    of them left."""
    end = len(lines)
    while end > keep and _closing_remark(lines[end - 1]):
        end -= 1
    return lines[:end]


def _closing_remark(line: str) -> bool:
    """A line opened by a side remark ("Note: ... This means ..." is one note), or
    none of whose sentences states a value: each is a remark or holds no value
    ("Seven.", "three hours": a value in words is a value)."""
    if _BRACKETED_PART_LABEL.match(line):
        return False  # "(2) 4": the next part, not an aside
    if _LABEL_ALONE.search(line):
        return True  # "Step 4:", "Method 2:": a label whose text never came (a cut-off answer)
    found = sentences(line) or [line]
    opened = _REMARK_HEAD.search(found[0]) is not None
    return opened or all(is_remark(s) or not holds_value(s) for s in found)


# A label alone (a few words and a colon) names what follows; with nothing after it, it
# states nothing: its number names a step, not a value.
_LABEL_ALONE = re.compile(r"^\W*(?:\S+\s+){0,2}\S+\s*[:：]\s*$")
# "(2)", "(b)", "(iv)": a bracketed part label (extract.py's _PART_LABEL also takes "2.")
_BRACKETED_PART_LABEL = re.compile(r"^\s*\(\s*(?:\d{1,2}|[a-h]|[ivx]{1,4})\s*\)", re.I)


def closing_aside(piece: str) -> bool:
    return not _BRACKETED_PART_LABEL.match(piece) and is_remark(piece.strip())


def without_cut_repeats(text: str) -> str:
    """``text`` without the lines that only begin a line written at least twice: a writer
    caught in a loop and cut off mid-repeat ("Answer: The bus traveled 300 miles" after
    the whole "Answer: The bus traveled 300 miles and ... 60 miles farther." twice) states
    less than the line it repeats, never a new value. (One earlier line that a line
    begins is working: "evening = 10 - (3 + 6)" then "evening = 1".)"""
    lines = text.splitlines()
    counts = Counter(ln.strip() for ln in lines)
    repeated = sorted(ln for ln, n in counts.items() if n > 1 and len(ln.split()) > 2)
    if not repeated:
        return text

    def unfinished(line: str) -> bool:
        line = line.strip()
        if len(line.split()) < 2 or counts[line] > 1:
            return False  # (a line written twice is a repeat, finished)
        # (the lines a line begins follow it at once in sorted order)
        at = bisect_right(repeated, line)
        return at < len(repeated) and repeated[at].startswith(line)

    kept = [ln for ln in lines if not unfinished(ln)]
    return text if len(kept) == len(lines) else "\n".join(kept)
