"""The value one stating sentence of a prose math answer commits to.

In the sentence, what is not the statement goes: closing clauses without a
value (", as required"), an opening circumstance ("With 2 coupons, ..."), an
excluded alternative (", not 6", "rather than 6"), a clause about the value
(where it is reached, a rejected root, a condition, an approximation, a
comparison), an aside in parentheses ("2 (x = 1 and x = -1)"), and what follows
a restatement marker replaces what precedes it ("4 : 6, i.e. 2 : 3"). Then the
value: "V is the answer"; a list after a colon or "namely" only when the
reference has several values (else the count before it: "3 roots: ..."; one
value after a colon is the value named); alternatives that each give the same
unknown ("x = 5 or x = -75" -> ``5 or -75``); the text after the last "is" /
"=" that holds a value; and in a sentence with neither, its only value with its
unit ("needs 3 hours to ..."), numbers in circumstances and adjunct phrases
aside. What comes back is text for :mod:`scoring`.
"""

from __future__ import annotations

import re
from itertools import pairwise

from scorers.evaluate.mathmatch.numberwords import number_words_to_digits
from scorers.evaluate.mathmatch.prose import (
    EXPRESSION,
    FIRST_CLAUSE,
    FUNCTION,
    HAS_VALUE,
    LEAD,
    NUMBER,
    holds_value,
    last_match,
    quantity,
)
from scorers.evaluate.mathmatch.remarks import DEFINITE_NUMBER, definite_dropped
from scorers.evaluate.mathmatch.units import lookup, preposition_here

# "Since each pie takes 5 apples, ...", "If she sold 19, ...": a reason or a condition
# before the main clause.
_REASON_FIRST = re.compile(
    r"^\W*(?:since|because|as|given\s+that|although|though|while|whereas|if|when|once)\b[^,;]*[,;]\s*",
    re.I,
)
# ", not 6", "(not 6)", "rather than 6", "instead of 6", "but not 6": an alternative excluded.
_EXCLUDED = re.compile(
    r"(?:,\s*|\s+\(\s*|\s+)(?:and\s+|but\s+)?not\s+(?=[-−+\d(\\$])|"
    r"\s+(?:rather\s+than|instead\s+of)\s+",
    re.IGNORECASE,
)
# What follows restates what precedes, in its final form.
_RESTATED = re.compile(
    r"(?:,\s*|\s+)(?:i\.\s?e\.|that\s+is|which\s+simplifies\s+to|(?:or\s+)?equivalently)\s*,?\s*"
    # "4/6, simplified, 2/3" (not "The simplified result is ...": an adjective there).
    r"|(?:,\s*|\s+)(?:simplified|simplifying|in\s+lowest\s+terms)(?!\s+[a-z])\s*,?\s*",
    re.IGNORECASE,
)
_CLAUSE_GOES_ON = re.compile(r",\s+(?=[a-z])")
WORD = re.compile(r"[A-Za-z]{2,}")
_VALUE_IS_ANSWER = re.compile(
    r"^(?P<value>.*?)\s+(?:is|was|would\s+be|must\s+be|should\s+be)\s+"
    r"(?:the|our|my)\s+(?:final\s+|correct\s+|required\s+|requested\s+)?"
    r"(?:answer|result|solution|value)\b",
    re.IGNORECASE,
)
# "I'd say 7", "I'll go with 7", "my pick is 7": one candidate chosen among several.
CHOSEN = re.compile(
    r"\b(?:I(?:['’]d|\s+would|['’]ll|\s+will)?\s+(?:say|go\s+with|pick|choose|settle\s+on)|"
    r"(?:(?:we|I)\s+)?(?:keep|accept|retain)(?=\s+[-−+]?\d[\d.,/]*\s*(?:[.;,!]|$))|"
    r"I(?:['’]m|\s+am)?\s+lean(?:ing)?\s+(?:towards?|to)|I\s+(?:favou?r|prefer)|"
    r"my\s+(?:pick|choice|final\s+choice)\s+(?:is|would\s+be))\s+",
    re.I,
)
# "20 — no wait, 21", "20, I mean 21": the value corrected within the sentence.
_CORRECTED_HERE = re.compile(
    r"(?:[,;]\s*|\s+[—–-]+\s*)(?:no\s+wait|no|wait|sorry|oops|I\s+mean|I\s+meant|correction)"
    r"\s*[,:—–]?\s+(?=[-−+\d(\\$])",
    re.I,
)
# "not 7 but 8": the value after "but" replaces the one denied.
_NOT_BUT = re.compile(r"\bnot\s+[-−+]?[\d.,/]+\s*,?\s+but\s+(?=[-−+\d(\\$√π])", re.I)
# "Of 6 and 9, only 6 satisfies the equation": the one candidate kept.
_ONLY_KEPT = re.compile(
    r"\bonly\s+(?:[a-z]\s*=\s*)?(?P<value>[-−+]?\d+(?:[.,/]\d+)*)\s+"
    r"(?:satisfies|works|fits|holds|checks\s+out|is\s+(?:valid|possible|admissible)|remains)\b",
    re.I,
)
# "3 roots: ...", "3 solutions, namely ...": a list of what was counted follows.
_COLON = re.compile(
    r"(?<=[A-Za-z)])\s*:\s+|,?\s+(?:namely|specifically|viz\.?)\s+"
    # "2 solutions, x = 3 and x = -3": the values of an unknown after what counts them
    r"|(?<=[a-z]s),\s+(?=[a-z]\s*=\s*[-−+]?[\d\\√])",
    re.I,
)
# A colon between two numbers is a ratio ("4 : 6"), not a label.
# (a gerund after a preposition is a circumstance: "left after giving away 6", "by making 3")
_AFTER_PREPOSITION = "".join(
    rf"(?<!\b{p}\s)" for p in ("after", "before", "by", "for", "from", "without", "when", "while")
)
_CUT = re.compile(
    r"\b(?:is|are|equals|was|be|gives|becomes|get|gets|got|obtain|obtains|yields?|"
    r"(?:simplif(?:y|ies)|reduces?|comes?|equal)\s+to|(?:comes?|works?)\s+out\s+(?:to|as)|"
    r"(?:takes|has|reaches|attains)\s+(?:the|a|its)\s+(?:\w+\s+)?value(?:\s+of)?|leaves|keeps|makes|totals)\b|"
    r"\b" + _AFTER_PREPOSITION + r"(?:giving|yielding|leaving|keeping|making|totall?ing)\b|"
    r"=|(?<![\d\s])\s*[：:]|[：:](?!\s*\d)|为|是",
    re.IGNORECASE,
)
# "so that the sum is 35" (a purpose), not "so that should be 48" ("that" the subject).
_PURPOSE_THAT = (
    r"\s+that\s+(?=(?:the|a|an|his|her|its|their|our|my|we|I|you|he|she|they|each|every)\b)"
)
# A clause that compares another quantity, concedes, gives a reason or a purpose, or
# remarks on the value: ", while the median is 7", ", since half the cards are red",
# ", though 10 is close", ", so that the sum is 35", ", and we check 5² + 12² = 13²".
# (A hedge, "12, though it might be 14", has been read before: a hedge is no answer;
# "but" stays: ", but the pole is 6 m" may well be the value asked for.)
_SIDE_CLAUSE = re.compile(
    r",?\s+(?:while|whereas|since|because|as\s+(?:we|it|the|this))\b|,\s*as\b"
    r"|,\s*(?:though|although|so" + _PURPOSE_THAT + r"|and\s+(?:this|that|it|we|I))\b",
    re.I,
)
# "is at (2, -1)", "is about 12": the words between the verb and the value.
_PREPOSITION = re.compile(
    r"^(?:(?:at|of|to|about|around|exactly|equal\s+to|actually|therefore|thus|hence|then|just|"
    r"simply|indeed|now|really|clearly|finally|in\s+fact|in\s+total|in\s+all|either|likely|probably|"
    r"approximately|roughly|nearly|(?:in\s+)?the\s+ratio(?:\s+of)?|given\s+by|"
    r"us|you|me|them|him|her|a|an|with)\s+)+"  # "gives us $47", "leaves him with $1"
    r"(?=[-−+\d(\\$a-zA-Zπ√])",
    re.I,
)
# "it's 3", "that's 12": the verb the rules read.
_CONTRACTED_IS = re.compile(r"\b(it|that|this|what|there|here|answer)['’]s\b", re.I)
# "increasing on (0, +∞)", "located at (3, -2)": words before a point or an interval.
_WORDS_BEFORE_BRACKET = re.compile(
    r"^(?:(?!" + FUNCTION + r")[a-z]{2,}\s+){1,3}"
    r"(?=[(\[][^()\[\]]*,[^()\[\]]*[)\]]\s*[.!]?$)"
)
# (words of any alphabet, with their marks: "Итого 15 книг", "المجموع 12")
_WORDS_THEN_VALUE = re.compile(
    r"^(?:(?:[^\W\d_]|['’\u0300-\u036f\u064b-\u065f\u0670])+\s+){1,2}(?=[-−+$£€]?\d)"
)
# "I think it's 12, but it could be 14", "Probably 9, maybe 10": a second
# candidate offered with doubt; the sentence commits to neither.
_HEDGED_OTHER = re.compile(
    r"(?:[,;—–]\s*|\s+[—–]?\s*)\(?(?:(?:but|although|though|yet|or)\b(?=[^.;]*?\b(?:could|might|may|"
    r"possibly|perhaps|maybe|(?:also\s+)?(?:possible|plausible|likely)|cannot\s+be\s+ruled\s+out|"
    r"can(?:not|['’]t)\s+rule\s+out|not\s+sure|unsure|uncertain)\b)"
    r"|(?:maybe|perhaps|possibly)\b)"
    # "20 (or 21 if we count the endpoint)", "20, or 21 if ...": a second candidate beside it.
    r"|\s*(?:\(|[—–]|\s-+)\s*or\s+(?=[-−+\d])|,\s*or\s+(?=[-−+\d][^,;]*\bif\b)"
    # "12 — unless I miscounted, in which case 13": the other value on a condition.
    r"|[,;—–(]?\s*unless\b[^.;]*?\bin\s+which\s+case\s+(?=[-−+\d])",
    re.I,
)
# "2.5 metres long", "14 years old": a word after the value that says what it measures.
_TRAILING_WORDS = re.compile(
    r"(?<=\w)\s+(?:long|wide|tall|high|deep|thick|old|away|apart|in\s+total|in\s+all|"
    r"altogether|overall|works?|holds?|fits?|(?:is|are)\s+valid|checks?\s+out|"
    r"is\s+the\s+(?:line|curve|equation|answer|result|solution))\s*[.!]?$",
    re.I,
)
# ", so 24 sweets are shared": what follows a consequence connective concludes.
_CONSEQUENCE = re.compile(
    r"(?:,|;)\s*(?:so(?!" + _PURPOSE_THAT + r")|thus|hence|therefore|which\s+means)\b,?\s*", re.I
)
# "is not allowed", "is extraneous", "fails": a value rejected.
_REJECTED = re.compile(
    r"\b(?:is|are)\s+(?:not\s+(?:allowed|valid|possible|admissible|a\s+solution)|rejected|"
    r"extraneous|discarded|invalid|impossible)\b|\b(?:does\s+not|doesn['’]t|fails)\b",
    re.I,
)
# "x = 2 and x = 5; their sum is 7": a clause after ";" that states a quantity.
_NEXT_CLAUSE = re.compile(r";\s+(?=(?:the|their|its|his|her|so|hence|thus|therefore|then)\b)", re.I)
# A clause about the value rather than a value: "9, which occurs when x = 3",
# "2, attained at x = 1", "x = 5; x = -5 is rejected", "17, e.g. 34" (not ", which
# is 11": that states it). Cut before the verbs are read, so that its "=" is not.
_ABOUT_THE_VALUE = re.compile(
    r"(?:,\s*|\s+(?=\())\(?(?:(?:which|that)\s+(?!is\b|are\b|was\b|gives|equals|means|makes|"
    r"leaves|yields|comes|simplifies|works|reduces|becomes)|where\b|when\b|attained|achieved|"
    r"reached|occurring|obtained\s+(?:at|when)|e\.g\.|for\s+(?:example|instance)|who|whose)"
    r"|(?:,\s*|\s+)(?:when|at|for|with)\s+(?=[a-z]\s*=)"
    # "3 when 2^100 is divided by 7": the condition under which the value holds.
    r"|,?\s+(?:when|whenever|if|once)\s+(?=[^,;]*\b(?:is|are|was|were)\b)"
    # "√3/2, which is about 0.866": an approximation of the exact value.
    r"|,\s*(?:which\s+is\s+|or\s+)?(?:about|approximately|roughly|around|nearly|close\s+to|≈)\s"
    r"|,?\s*(?:أو|أي)\s+(?:بالتقريب|تقريبًا|تقريبا|حوالي)\s"  # Arabic: "or approximately"
    r"|[;,]\s*(?:it|this|which)\s+(?:occurs|happens|is\s+(?:attained|reached|achieved))\b"
    r"|[;,]\s*[^;,]*\b(?:is|are)\s+(?:rejected|extraneous|discarded|invalid|not\s+valid)\b"
    r"|;\s*(?=[^;]*(?:" + _REJECTED.pattern + r"))"  # "; the other root, y = -5, is not allowed"
    r"|[;,]\s*(?:but\s+)?[^;,]*\b(?:does\s+not|doesn['’]t|do\s+not|don['’]t|fails)\b"
    # "20; 21 would be the answer if ...", "15, although with repetition it would be 25",
    # "15; allowing repetition gives 25": a supposition or another condition after the value.
    r"|[;,]\s*[^;,]*\bwould\b"
    r"|[;,]\s*(?:allowing|without|ignoring|assuming|counting|including|excluding|had|were)\b"
    r"|,\s*with\s+(?![a-z]\s*=)"  # "15, with 3 left over" (not "x = 3, with y = 4")
    # "9; I first got 8 by a slip": an earlier attempt, not the answer.
    r"|[;,]\s*(?:(?:I|we)\s+)?(?:initially|first|originally|earlier|previously|at\s+first)\s+"
    r"(?:(?:I|we)\s+)?(?:got|thought|wrote|had|found|computed|guessed)\b"
    # "36, which is 4 times the small square", "8 - double the original 4": a comparison.
    r"|,\s*(?:which|that)\s+is\s+(?=[^,;]*\b(?:more|less|fewer|greater|smaller|larger|times|"
    r"twice|double|half)\b)|\s+[—–]\s+(?=[a-z])|\s+-{1,2}\s+(?=[a-z]{2})(?!" + FUNCTION + r")"
    # "25 mph faster to cut his time by 4 hours": a purpose, "to" + verb + determiner.
    r"|\s+(?:in\s+order\s+)?to\s+[a-z]{3,}\s+(?=(?:his|her|its|their|the|a|an|my|our|your)\s)"
    # "$48, which is $12 per person": the value shared out, another quantity.
    r"|,\s*(?:which|that)\s+(?:is|means|makes)\s+(?=[^,;]*\b(?:per|each|apiece)\b)"
    # "56 cookies; each of the 7 kids gets 8": the share of each, another quantity
    r"|;\s*(?:and\s+)?(?:each|every)\b"
    # "56 is correct, and 65 is not": another value denied
    r"|,?\s+(?:and|but)\s+[-−+$]?\d[\d.,/]*\s+(?:is|was|are)(?:\s+not|n['’]t)\s*[.!]?$",
    re.I,
)
# "17; larger ones exist": a last clause with no value says nothing about it.
_VALUELESS_TAIL = re.compile(r"[;,]\s*[^;,]*$")
# "the perimeter, 28": a name for the value, then the value.
_APPOSITION = re.compile(r"^(?P<name>[^,\d(\[]*[A-Za-z][^,\d(\[]*),\s*(?P<value>.+)$")
_INLINE_MATH = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")


def _unwrapped(m: re.Match[str]) -> str:
    return m.group(1) if m.group(1) is not None else m.group(2)


# The last inline formula and what follows it ("is $y = 3 - x$ cm").
# (a "$" before a digit is a currency sign and closes nothing: "$21 - $24 = -$3")
MATH_SPAN = re.compile(r"(\$\$?|\\\(|\\\[)[^$]*?(\$\$?(?!\d)|\\\)|\\\])[^$]*$")
_ASSIGNED = re.compile(r"(?:^|\s|\()([A-Za-z](?:_\{?\w+\}?|[₀-₉]+)?)\s*=\s*([^=]+?)\s*\)?$")
_POINT = re.compile(r"\([^()]*\d[^()]*,[^()]*\)")


# "24+14, or 38", "10 × 9 dollars, or 90 dollars": a computation, then its result after "or".
_COMPUTED_OR = re.compile(
    r"\$?\d[\d.,]*(?:\s+[a-z]+)?(?:\s*(?:[-+×*/÷−]|multiplied\s+by|divided\s+by)\s*\$?\d[\d.,]*"
    r"(?:\s+[a-z]+)?)+\s*,?\s+or\s+(?=\$?\d)",
    re.I,
)
# "... would mean that", "we can infer that", "to find that": the clause after states.
_THAT_CLAUSE = re.compile(
    r"\b(?:means?|meant|infer|conclude|say|find|found|see|know|get)\s+that\s+(?=[a-z])", re.I
)
_GIVEN_THEN = re.compile(r"^if\b[^.!?]*?,\s*then\s+", re.I)


def _several_values(s: str, items: int) -> str | None:
    """A reference of several values, and a sentence that states that many
    numbers, outside brackets and before what it goes on to conclude ("The two
    numbers are 8 and 12, so their sum is 20", "6 cm by 4 cm", "Alice has 6 and
    Bob has 9"): those numbers, in order."""
    if "=" in s or "$" in s or "\\" in s:
        return None  # equations and formulas have their own readers
    head = s
    for cut in (_CONSEQUENCE.search(s), _NEXT_CLAUSE.search(s)):
        if cut is not None and cut.start() < len(head):
            head = s[: cut.start()]
    head = re.sub(r"\([^()]*\)", " ", head)
    numbers = NUMBER.findall(head)
    return ", ".join(numbers) if len(numbers) == items else None


# "Step 3: ...", "Part 2: ...": a label with its number opens the sentence that follows it.
_STEP_LABEL = re.compile(r"^[A-Za-z]+\s+\d{1,2}[a-z]?\s*[:：]\s+(?=[A-Z\d$])")


def value_of(sentence: str, items: int) -> str:
    """The value one stating sentence commits to, as text for :mod:`scoring`."""
    s = _STEP_LABEL.sub("", sentence.strip())  # "Step 3: Melanie has 19 dimes now."
    s = _final_say(LEAD.sub("", _CONTRACTED_IS.sub(r"\1 is", s)).strip())
    s = _GIVEN_THEN.sub("", s)  # "If there are 7 boxes, then she packs 56": the consequent
    that = last_match(_THAT_CLAUSE, s)
    if that is not None and holds_value(s[that.end() :]):
        s = s[that.end() :]  # "3 groups would mean that each group has 9": what it means
    intro = _INTRODUCTION.match(s) or _REASON_FIRST.match(s)
    if intro is not None and holds_value(s[intro.end() :]):
        # "With the $5 discount, the total is $35", "Since each pie takes 5 apples, they can
        # make 9 pies": a circumstance or a reason first
        s = s[intro.end() :]
    s = _COMPUTED_OR.sub("", s)  # "24 + 14, or 38, books": the result of the computation
    s = _without_valueless_tail(s)  # "x = 4 or x = 1, which answers the question."
    s = _first_of_restated(s)
    kept = _ONLY_KEPT.search(s)
    if kept is not None:
        return kept.group("value")  # "Of 6 and 9, only 6 satisfies it"
    if items > 1 and (several := _several_values(s, items)) is not None:
        return several
    s = _concluding_clause(s)
    excluded = _EXCLUDED.search(s)
    if excluded is not None and holds_value(s[: excluded.start()]):
        s = s[: excluded.start()]  # "9, not 6"
    hedge = _hedge(s)
    if hedge is not None:
        return hedge
    return _stated_value(_without_side_matter(s, items), items)


# What may stand between a quantity and the same quantity in another unit:
# "2.5 h, i.e. 150 min", "2.5 h (150 min)", "2 m or 200 cm", "90 s, which is 1.5 min".
_RESTATING = re.compile(
    r"\s*(?:,\s*|\(\s*)?(?:(?:i\.\s?e\.|that\s+is|or|which\s+is|which\s+equals|equivalently|"
    r"or\s+equivalently|in\s+other\s+words|=|≈)\s*,?\s*)?",
    re.I,
)


def _first_of_restated(s: str) -> str:
    """``s`` without a restatement of a quantity in another unit: "needs 2.5 hours,
    i.e. 150 minutes, to ..." states 2.5 hours; the value stated first commits."""
    found = [q for q in (quantity(s, n) for n in NUMBER.finditer(s)) if q is not None]
    for first, then in pairwise(found):
        gap = s[first.end : then.start]
        if (
            first.dimension == then.dimension
            and first.unit != then.unit
            and abs(first.size - then.size) <= abs(first.size) / 100  # rounding allowed
            and _RESTATING.fullmatch(gap)
        ):
            end = then.end + (gap.strip().startswith("(") and s[then.end : then.end + 1] == ")")
            return _first_of_restated(s[: first.end] + s[end:])
    return s


def _final_say(s: str) -> str:
    """What follows the sentence's last choice or correction: "7 or 8, but I'd
    say 7", "not 7 but 8", "20 — no wait, 21"."""
    chosen = last_match(CHOSEN, s)
    if chosen is not None and HAS_VALUE.search(s[chosen.end() :]):
        s = s[chosen.end() :]
    not_but = _NOT_BUT.search(s)
    if not_but is not None:
        s = s[not_but.end() :]
    corrected = last_match(_CORRECTED_HERE, s)
    return s if corrected is None else s[corrected.end() :]


def _concluding_clause(s: str) -> str:
    """The clause that concludes: after the last "so" / "hence" ("Each holds 4,
    so 24 are packed"), or after a last ";" that states a quantity."""
    consequence = last_match(_CONSEQUENCE, s)
    if consequence is not None:
        if HAS_VALUE.search(s[consequence.end() :]):
            s = s[consequence.end() :]
        elif HAS_VALUE.search(s[: consequence.start()]):
            s = s[: consequence.start()]  # ", so two solutions": a remark on the values
    clause = last_match(_NEXT_CLAUSE, s)
    if clause is not None:
        rest = s[clause.end() :]
        if _CUT.search(rest) and HAS_VALUE.search(rest) and not _REJECTED.search(rest):
            s = rest  # (not "; the other root, y = -5, is not allowed": a value rejected)
    return s


_PREDICATE = re.compile(r"[;,]\s*(?:is|are|was|were|does|do|did|fails?|works?)\b", re.I)


def _without_valueless_tail(s: str) -> str:
    """``s`` without its last clauses that hold no value (", as required", ", and this
    checks out"): they remark on the value stated before them."""
    while (tail := _VALUELESS_TAIL.search(s)) is not None:
        head = s[: tail.start()]
        inside = head.count("(") > head.count(")")  # "5 (the other root, 75, is too large)"
        # (", is not allowed": the predicate of the clause before it, no remark)
        predicate = _PREDICATE.match(tail.group(0))
        if inside or predicate or holds_value(tail.group(0)) or not HAS_VALUE.search(head):
            break
        s = head
    return s


def _hedge(s: str) -> str | None:
    """``"12 or 14"`` when the sentence offers a second candidate with doubt."""
    hedged = _HEDGED_OTHER.search(s)
    if hedged is None:
        return None
    # "4, although 5 is also possible (to 2 places), assuming ...": the other
    # candidate is the one value of the first clause that holds one, asides aside
    clauses = FIRST_CLAUSE.split(re.sub(r"\s*\([^()]*\)", "", s[hedged.end() :]))
    other = next((only_value(c) for c in clauses if NUMBER.search(c)), None)
    values = [only_value(s[: hedged.start()]) or "", other or ""]
    return " or ".join(values) if all(values) and values[0] != values[1] else None


def _without_side_matter(s: str, items: int) -> str:
    """``s`` without what is not the statement: a restatement replaces what it
    restates; clauses about the value, asides and reasons go."""
    restated = last_match(_RESTATED, s)
    if restated is not None and HAS_VALUE.search(s[restated.end() :]):
        s = _CLAUSE_GOES_ON.split(s[restated.end() :], maxsplit=1)[0]
    # (one inside brackets is the aside's own: "x = 3 (the other root, x = -2, is rejected)")
    about = next(
        (
            m
            for m in _ABOUT_THE_VALUE.finditer(s)
            if s.count("(", 0, m.start()) <= s.count(")", 0, m.start())
        ),
        None,
    )
    if about is not None and holds_value(s[: about.start()]):  # "Seven, assuming 2 weeks off"
        s = s[: about.start()]
    s = number_words_to_digits(_drop_asides(s, items))  # "2 roots (x = 1 and x = -1)"
    side = _SIDE_CLAUSE.search(s)
    if side is not None and holds_value(s[: side.start()]):
        # "x = 2 or x = -5, but since x must be positive, x = 2": a new clause that opens
        # with its reason concludes in its main clause
        reason_first = _REASON_THEN_MAIN.match(s, side.start())
        if reason_first is not None and HAS_VALUE.search(reason_first.group("main")):
            return reason_first.group("main")
        s = number_words_to_digits(s[: side.start()])
    return s


_REASON_THEN_MAIN = re.compile(
    r"(?:(?<=;)|(?<=\bbut))\s*(?:since|because|as)\b[^,;]*,\s*(?P<main>[^,;]+)$", re.I
)


_RATIO_ALONE = re.compile(r"(?:about\s+|roughly\s+)?(\d+\s+(?:out\s+of|in)\s+\d+)[.!]?", re.I)


def _stated_value(s: str, items: int) -> str:
    """The value of a clause cut down to its statement."""
    short = len(s.split()) <= 3  # "x = 5", "15 cm": the value already, as the rules read it
    named = _VALUE_IS_ANSWER.match(s)
    if named is not None and HAS_VALUE.search(named.group("value")):
        return LEAD.sub("", named.group("value").rsplit(",", 1)[-1].strip())
    apposition = _APPOSITION.match(s)
    if apposition is not None and HAS_VALUE.search(apposition.group("value")):
        s = apposition.group("value")
    colon = _COLON.search(s)
    if colon is not None:
        head, tail = s[: colon.start()], s[colon.end() :]
        head = number_words_to_digits(head)  # "two such numbers: 12 and 21"
        # a count before the list it counts; one value after a colon is the value named
        # ("The value of f(2): 39")
        # ("Total age of all 3: 8 + 16 + 6 = 30 years" computes, it lists nothing)
        computed = _COMPUTATION.search(tail)
        listed = (len(NUMBER.findall(tail)) > 1 and not computed) or not NUMBER.search(tail)
        if items == 1 and HAS_VALUE.search(head) and listed:
            s = head
        elif HAS_VALUE.search(tail):
            s = tail
    alternatives = same_unknown(s)
    if alternatives is not None:
        return alternatives
    solved = system(s)
    if solved is not None:
        return solved
    math = MATH_SPAN.search(s)
    if math and math.start() > 0 and not _CURRENCY_PAIR.match(s, math.start()):
        # "The equation of the line is $y = 3 - x$." -> the formula (and any unit after it,
        # not a phrase saying for what: "$4 \times 9 = 36$ kg for the 4 crates").
        adjunct = _ADJUNCT.search(s, math.end(2))
        return s[math.start() : adjunct.start() if adjunct else None].strip()
    ratio = _RATIO_ALONE.fullmatch(s)
    if ratio is not None:
        return ratio.group(1)  # "3 out of 10", "about 2 in 5": one value, a ratio
    if short:
        # "It costs $45.", "Probably 12 cm.": a few words around one value.
        only = only_value(s) if _WORDS_THEN_VALUE.match(s) and reads_as_prose(s) else None
        return only or s
    between = _BETWEEN.search(s)
    if between is not None:  # "x lies between 1 and 4": 1 < x < 4
        sign = "≤" if between.group("inclusive") else "<"
        low, name, high = between.group("low", "name", "high")
        return f"{low} {sign} {name} {sign} {high}"
    total = _A_TOTAL_OF.search(s)
    # ("a total of 2 x 4 = 8", "a total of 12 + 36 which is 48": computed)
    if total is not None and "=" not in s[total.end() :] and not _OPERATOR.match(s, total.end()):
        return total.group(1)  # "A total of 20 outfits is possible with 4 shirts and 5 pants."
    cuts = list(_CUT.finditer(s))
    for at in range(len(cuts) - 1, -1, -1):
        tail = s[cuts[at].end() :].strip()
        if tail and HAS_VALUE.search(tail):
            if cuts[at].group(0) == "=" and _ZERO.match(tail):
                # "The line is 2x + y - 4 = 0.": an equation in general form is one value.
                lhs = s[cuts[at - 1].end() if at else 0 : cuts[at].start()].strip()
                if _FORMULA.fullmatch(lhs):
                    return f"{lhs} = {tail}"
            return _tail_value(tail)
    inequality = _INEQUALITY.search(s)
    if inequality is not None:
        return inequality.group(0)  # "The inequality holds for 1 < x < 4."
    # "24 sweets are shared in all", "3 roots": the value stands before the verb.
    only = only_value(s)
    if only is None:
        # "25 more tickets to reach his goal of 100", "3 more boxes to have 10 in all":
        # the purpose is no value.
        for purpose in _PURPOSE.finditer(s):
            if NUMBER.search(s, 0, purpose.start()):
                only = only_value(s[: purpose.start()])
                break
    if only is None:
        # "She read 45 pages on Monday and 30 on Tuesday, 75 pages in all": the total.
        totals = _TOTAL.findall(s)
        if len(totals) == 1:
            only = only_value(totals[0])
    if only is None:
        # "The car covers 180 km in 3 hours", "From 4 shirts and 5 pants, you can make
        # 20 outfits": numbers in circumstances (from, in, with, at, for ...) are not the value.
        main = _CIRCUMSTANCE.sub(" ", _INTRODUCTION.sub("", s))
        only = only_value(main) if NUMBER.search(main) else None
    if only is None:
        # "The orchard earned $1000 for selling 2000 apples at $5 a bag": the first value of
        # the main clause, before the phrases that say for what, when and how often.
        main = DEFINITE_NUMBER.sub(definite_dropped, _INTRODUCTION.sub("", s))
        only = _before_adjunct(main, whole=True)  # "won 7 of its 10 games"
    if only is None:
        # "So 4 boxes hold 24 eggs", "5 friends eat 20 slices": a subject counted, then
        # what the verb says of it, the value
        subject = _COUNTED_SUBJECT.match(s)
        if subject is not None:
            rest = s[subject.end() :]
            only = only_value(rest) or _before_adjunct(rest, whole=True)
    return s if only is None else only


# a count, a plural noun (an adjective may come between) and a word: "4 boxes hold", "3 tired
# workers need"
_COUNTED_SUBJECT = re.compile(r"[-−+]?\d[\d.,]*\s+(?:[a-z]+\s+)?[a-z]{2,}s\s+(?=[a-z]{2,}\s)", re.I)


_COMPUTATION = re.compile(r"\d\s*[-+×*/−]\s*\$?\d[^=]*=")
_OPERATOR = re.compile(r"\s*[-+×x*/÷−]\s*\$?\d")
_ZERO = re.compile(r"0\s*[.!]?$")
# "$1000 for selling 2000 apples at $5": two currency signs around words, no formula.
_CURRENCY_PAIR = re.compile(r"\$\d[\d,.]*\s+[^$]*[A-Za-z]{3}[^$]*\$\d")
# "2x + y − 4", "x² + y²": algebra without words, with an unknown and an operator.
_FORMULA = re.compile(r"(?=[^A-Za-z]*[A-Za-z](?![A-Za-z]))(?=.*[-−+*/^²³])[\w\s.+\-−*/^²³()√π]+")


# A tail that opens with a word (not a function or a value) and holds no formula (a "$"
# before a digit is a currency sign: "is left with $12").
_WORDS_FIRST = re.compile(
    r"^(?:an?\s+[a-z]{2,}|(?!" + FUNCTION + r")[A-Za-z][a-z]+)\b(?:[^=$\\]|\$(?=\d))*$"
)


def _tail_value(tail: str) -> str:
    """The value after the sentence's last verb or "=": "is about 12 m, which
    we can check" -> ``12 m``."""
    inequality = _INEQUALITY.search(tail)
    if inequality is not None:
        return inequality.group(0)  # "is met for -2 < t < 5"
    valueless = _VALUELESS_TAIL.search(tail)
    if valueless is not None and not HAS_VALUE.search(valueless.group(0)):
        tail = tail[: valueless.start()]
    tail = _TRAILING_WORDS.sub("", _WORDS_BEFORE_BRACKET.sub("", _PREPOSITION.sub("", tail)))
    if _WORDS_FIRST.match(tail):
        # "leaves a remainder of 1", "is filled in 10 minutes": words, then the one value
        # ("split into 8 groups of 7": the first, before the phrase that says of what).
        return only_value(tail) or _before_adjunct(tail) or tail
    if _DIGIT_FIRST.match(tail):
        # "was 10 inches tall after 3 weeks": the value, then when it holds; "69 push-ups",
        # "45 slices/person": the value, then only words that say what it counts.
        spaced = _GLUED_UNIT.sub(_unit_spaced, tail, count=1)  # "10kg of soil left"
        if _NOUNS_AFTER.fullmatch(spaced):
            return only_value(spaced) or tail
        return _before_adjunct(tail) or tail
    return tail


_DIGIT_FIRST = re.compile(r"[-−+$]?\d")
# A unit written against its number ("10kg", "3cm"), not an unknown ("2x").
_GLUED_UNIT = re.compile(r"^(\$?[-−+]?\d[\d.,]*)([A-Za-z]+)(?=\s)")


def _unit_spaced(m: re.Match[str]) -> str:
    return f"{m.group(1)} {m.group(2)}" if lookup(m.group(2)) is not None else m.group(0)


_NOUNS_AFTER = re.compile(r"\$?[-−+]?\d[\d.,]*(?:\s+[A-Za-z][A-Za-z'’/-]+)+\s*[.!]?")
# "1:00 PM", "16:00": a time of day says when, it is no quantity.
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?", re.I)
# A phrase that says for what, when, where, how often or compared with what: "for selling
# 2000 apples", "at $5 a bag", "every 2 days", "than Amber", "after burning from 1:00 PM".
# ("3 to 4", "2 in 5", "6 by 4" join two numbers; "60 km per hour" is a unit.)
_ADJUNCT = re.compile(
    r"\s+(?:(?:for|at|after|before|during|within|every|each|on|from|until|since|over|with|"
    r"than)\b|(?:by|in|to)\b(?!\s*[-−+$]?\d)"
    # "168 slices in 21 pizzas" (a number with its noun), not "2 in 5", "12 m by 7 m"
    r"|(?:by|in)\s+(?=\d+\s+(?:[a-z]+\s+)?[a-z]{3,}s\b)"
    # "121 infected PCs out of 202": the whole they are counted in ("3 out of 10" is a ratio)
    r"|(?<=[^\W\d_]\s)out\s+of\b)",
    re.I,
)


# "buy 2 5 dollar toys": a number right after the count names the kind ("5-dollar toys").
_MODIFIER = re.compile(r"(?<=\d)\s+\d+(?=[\s-]+[a-z])")
# "8 groups of 7", "3 rows of 12 seats": the size of each, after the count.
_GROUPS_OF = re.compile(r"(?<=[a-z]s)\s+of\s+(?=(?:size\s+)?\d)")


def _before_adjunct(s: str, *, whole: bool = False) -> str | None:
    """The one value of ``s`` once what follows the first value's adjunct phrase is cut
    ("earned $1000 for selling 2000 apples at $5 a bag" -> 1000), if one is left;
    ``whole``: also when no such phrase follows ("has 9 5 dollar bills" -> 9)."""
    bare = _MODIFIER.sub("", _CLOCK.sub("time", s))
    first = NUMBER.search(bare)
    if first is None:
        return None
    # the first phrase after the value ("8 rows of 5 stars on the flag": "of 5 stars")
    found = [
        m for m in (_ADJUNCT.search(bare, first.end()), _GROUPS_OF.search(bare, first.end())) if m
    ]
    if not found:
        return only_value(bare) if whole else None
    return only_value(bare[: min(m.start() for m in found)])


_COMPARED = r"[-−+]?[\w.√π]+(?:\s*(?:<|>|≤|≥|⩽|⩾|\\leq?|\\geq?)\s*[-−+]?[\w.√π]+)+"
# "1 < x < 4", "x ≤ -1 or x > 2": a range stated as inequalities.
_INEQUALITY = re.compile(_COMPARED + r"(?:\s+(?:or|and)\s+" + _COMPARED + ")*")


_A_TOTAL_OF = re.compile(r"\ba\s+total\s+of\s+(" + EXPRESSION.pattern + r"|[-−+]?\d[\d.,/]*)", re.I)
# "75 pages in all", "a total of 20 outfits": the number marked as the total.
_TOTAL = re.compile(
    r"(?:(?:a\s+)?total\s+of\s+|in\s+all,?\s+)(?:" + EXPRESSION.pattern + r"|[-−+]?\d[\d.,/]*)"
    r"(?:\s+[A-Za-z]+)?|"
    r"[-−+]?\d[\d.,/]*(?:\s+[A-Za-z]+)?\s+(?:in\s+all|in\s+total|altogether|overall)\b",
    re.I,
)
# "In 3 hours, ...", "From 4 shirts and 5 pants, ...": an opening circumstance.
_INTRODUCTION = re.compile(r"^(?:in|at|from|with|for|after|using|on|by)\b[^,]*,\s*", re.I)
# "in 3 hours", "with 4 shirts and 5 pants", "at 60 km/h": a circumstance with its numbers.
_CIRCUMSTANCE = re.compile(
    r"\b(?:from|in|with|at|for|on|by|using|after|over|of)\s+(?:the\s+)?[-−+]?\d[\d.,/]*"
    r"(?:\s*[A-Za-z/]+)?(?:\s+and\s+[-−+]?\d[\d.,/]*(?:\s*[A-Za-z/]+)?)?",
    re.I,
)
_PURPOSE = re.compile(r"\s+(?:in\s+order\s+|so\s+as\s+)?to\s+(?=[a-z]{2,}\b)")


_BETWEEN = re.compile(
    r"\b(?P<name>[a-z])\s+(?:lies|is|ranges|falls|must\s+be)\s+(?:strictly\s+)?between\s+"
    r"(?P<low>[-−+]?\d+(?:\.\d+)?)\s+and\s+(?P<high>[-−+]?\d+(?:\.\d+)?)"
    r"(?P<inclusive>,?\s+inclusive)?",
    re.I,
)


def system(s: str) -> str | None:
    """``... is x = 2 and y = 3``: the values of several unknowns, kept whole."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    if "=" not in s:
        return None  # each unknown is given with "="
    s = _INLINE_MATH.sub(_unwrapped, s)
    for cut in _CUT.finditer(s):
        if cut.group(0) == "=":
            tail = s[cut.start() :]
            start = max(s.rfind(" ", 0, cut.start() - 1), 0)
            tail = s[start:].strip()
        else:
            tail = s[cut.end() :].strip()
        parts = top_level_split(tail.rstrip(". "), (", ", " and ", "; "))
        if len(parts) > 1 and all(_ASSIGNED.fullmatch(" " + p.strip()) for p in parts):
            return tail.rstrip(". ")
    return None


def _asides(s: str) -> list[tuple[int, int]]:
    """Spans of the top-level parentheses opened after a space, nesting respected."""
    spans = []
    depth = 0
    start = -1
    for i, ch in enumerate(s):
        if ch == "(":
            if depth == 0 and i > 0 and s[i - 1].isspace():
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0 and start >= 0:
                spans.append((start, i + 1))
                start = -1
    return spans


def _drop_asides(s: str, items: int = 1) -> str:
    """Parentheses that hold words or an "=", or that list what a count before
    them counted ("6 outcomes (1, 2, 3, 4, 5, 6)"), are asides, unless nothing
    else holds a value. When the reference has several values, such a list
    after a count is the answer ("2 roots (x = 1 and x = -1)")."""
    kept = []
    last = 0
    for start, end in _asides(s):
        inner = s[start + 1 : end - 1]
        words = WORD.search(LATEX.sub(" ", inner))
        counted = _COUNTED.search(s[:start]) and len(NUMBER.findall(inner)) > 1
        if counted and items > 1:
            listed = inner.strip()
            return same_unknown(listed) or listed
        if "=" in inner or words or counted or _ARITHMETIC.fullmatch(inner.strip()):
            kept.append(s[last:start].rstrip())
            last = end
    kept.append(s[last:])
    dropped = "".join(kept)
    # "Seven (to 2 places)" is 7; against several values, counts in words before the
    # values in brackets ("one real root (x = 2) and two complex ones (...)") leave them
    words_only = items == 1 and holds_value(dropped)
    return dropped if HAS_VALUE.search(dropped) or words_only else s


# "(3 + 5)", "(12 × 4)": the working behind a value, in brackets.
_ARITHMETIC = re.compile(r"[-−]?\d[\d.,]*(?:\s*[-+×x*/÷−]\s*\d[\d.,]*)+")
# "6 possible outcomes", "2 solutions", "the number of roots is 3": a count, before its list.
_COUNTED = re.compile(
    r"\d\s+(?:[A-Za-z-]+\s+){0,2}[A-Za-z-]*[a-z]s\s*$|\b(?:number|count)\s+of\b[^()]*\s\d+\s*$",
    re.I,
)


def same_unknown(s: str) -> str | None:
    """``x = -3 or x = 2`` -> ``-3 or 2``: alternatives each giving the same unknown."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    if "=" not in s:
        return None  # every alternative names the unknown with "="
    s = _INLINE_MATH.sub(_unwrapped, s)  # "$x = 5$ or $x = -75$": the math is the text
    joiner = " or " if re.search(r"\bor\b", s) else " and "
    parts = top_level_split(s, (" or ", " and ", ", "))
    if len(parts) < 2:
        return None
    names: set[str] = set()
    values: list[str] = []
    for i, part in enumerate(parts):
        m = _ASSIGNED.search(part)
        if m is None:
            return None
        names.add(m.group(1).split("_", 1)[0].rstrip("₀₁₂₃₄₅₆₇₈₉"))
        values.append(m.group(2).strip())
        if i == 0 and len(names) != 1:
            return None
    if len(names) != 1:
        return None
    return joiner.join(values)


def only_value(s: str) -> str | None:
    """The one value of a sentence that states it without "is" or "=", with its unit."""
    points = _POINT.findall(s)
    numbers = [m for m in NUMBER.finditer(s) if not any(m.group(0) in p for p in points)]
    expressions = list(EXPRESSION.finditer(s))
    if len(expressions) == 1 and not points:
        # "52 * 1000 * 7 oz": an expression whose terms are the only numbers is one value
        inside = expressions[0]
        if all(inside.start() <= m.start() < inside.end() for m in numbers):
            numbers = [inside]
    if len(points) == 1 and not numbers:
        return points[0]
    if len(numbers) != 1 or points:
        return None
    number = numbers[0]
    # "≥ 12 students" ("at least 12 students"): the bound is kept, being no value
    bound = s[: number.start()].rstrip()[-1:]
    value = number.group(0) if bound not in ("≥", "≤", "<", ">") else f"{bound} {number.group(0)}"
    words = s[number.end() :].split()
    for size in (3, 2, 1):
        unit = " ".join(words[:size]).rstrip(".,;")
        if (
            len(words) >= size
            and lookup(unit) is not None
            and not preposition_here(words[size - 1], len(words) - size)
        ):
            return f"{value} {unit}"
    return value


LATEX = re.compile(r"\$[^$]*\$|\\[A-Za-z]+")
# A word of any alphabet (Arabic, Cyrillic, Greek as Latin), not of CJK, whose characters
# are words of their own and whose units the unit table reads glued to the number.
_LONG_WORD = re.compile(r"(?:(?![\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])[^\W\d_]){3,}")
# "$8. This stays within the budget of $200.": a currency sign before an amount that ends
# its word opens no formula.
_FORMULA_SPAN = re.compile(r"\$(?!\d[\d,.]*(?<![.,])[.,;:!?]?(?:\s|$))[^$]*\$|\\[A-Za-z]+")
# "It's 14", "x is 5", "So 9": two-letter words that only prose has.
_SHORT_PROSE = re.compile(r"\b(?:it|is|so|we|be|as|by)\b|\w['’]s\b", re.I)


def reads_as_prose(text: str) -> bool:
    """Whether ``text`` holds a word that is not a unit: "x = 2, y = 3" and
    "15 metres" are answers already, "the perimeter, 28" is a sentence."""
    bare = _FORMULA_SPAN.sub(" ", text)
    return any(lookup(w) is None for w in _LONG_WORD.findall(bare)) or bool(
        _SHORT_PROSE.search(bare)
    )
