"""``answer_contradicts_reasoning``: the reasoning's conclusion, read with the item's evaluator, differs from the answer.

LRM-Eval rubric Q2. The closing sentences that assert something are read from the end; the last
one the item's evaluator reads concludes (what asserts nothing, what was a step: docs/flags.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from text_to_num import alpha2digit

from scorers.errors import EvaluatorError
from scorers.evaluate import strict
from scorers.evaluate.evaluators import evaluate
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.phrases import find_phrase
from scorers.evaluate.strict.question import named
from scorers.evaluate.strict.question import options as question_options
from scorers.flags.behaviour.cues import pattern, regex
from scorers.flags.behaviour.text import Sentence, evidence, flag, last_line_span
from scorers.records import Flag, verdict_of

_KW = Mapping[str, Any]  # an item's record or evaluator kwargs
# Shaped answers (a number, letters, an order) are compared by value; the others are free text.
_NUMERIC = frozenset(
    {"number_matching", "interval_matching", "multi_interval_matching", "math_matching"}
)
SHAPED = _NUMERIC | {"choices_matching", "ordered_list_matching"}

_MARKED = pattern("conclusion_markers")
_SUPPOSITION = pattern("not_assertions", "supposition")
_COMMITMENT = pattern("not_assertions", "commitment")
_ALTERNATIVE = pattern("not_assertions", "alternative")
_MODAL = pattern("not_assertions", "modal")
_REJECTION = pattern("not_assertions", "rejection")
_RETRACTION = pattern("not_assertions", "retraction")
_DECLINE = pattern("decline")
_STRONG_COMMITMENT = pattern("not_assertions", "commitment_strong")
_DOUBT = pattern("hedge_strong")
_UNIT_FACTORS = (10.0, 100.0, 1000.0, 1e6, 1e9, 60.0, 3600.0, 24.0)  # "2.4 km" is 2400 m
_CHECKED = re.compile(r"(?i)\b(?:check|verif|sanity|indeed|confirm)|[✓✔]")  # "Check: 5 × 6 = 30 ✓"
_LINK = re.compile(r"(?i)=|\b(?:total(?:l?ing|s)?|gives|equals|makes)\b")  # inputs, then result
_OPEN = (_ALTERNATIVE, _DECLINE, _SUPPOSITION, _REJECTION)  # a guess that keeps others open
_UNDECIDED = (_MODAL, _ALTERNATIVE, _DECLINE, _DOUBT)
# Values quoted or read off the picture ("the '9' has an open tail") are not asserted.
_QUOTED = re.compile(r"'[^'\n]{1,20}'(?!\w)|\"[^\"\n]{1,40}\"|“[^”\n]{1,40}”")
# Not read as numbers: fractions in words ("three-quarters"), digits spelt out ("one-zero-zero")
_FRACTION_WORDS = re.compile(  # and expressions with a binomial or a root ("\\binom{90}{2}")
    r"(?i)\b(?:(?:a|an|one|two|three|four)[\s-]+(?:half|thirds?|quarters?|fifths?|tenths?)|half|(?:zero|one|two|three|four|five|six|seven|eight|nine)(?:[\s-]+(?:zero|one|two|three|four|five|six|seven|eight|nine))+)\b|\\(?:binom|sqrt)\{\d"
)
_RULED = regex("not_assertions", "contrast").pattern  # "not 55", "rather than B", "No." answers
_CONTRAST = re.compile(rf"(?i)(?:{_RULED})\s(?:(?!but\b)[^,;:.()\n])*")  # up to punctuation, "but"
_NUMBER_WORD = re.compile(
    r"(?i)\d|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|twenty|thirty|forty|fifty|hundred)\b"
)
_UNIT = re.compile(r"(?<=[\d}])(?:\s*(?:\\[)\]]|\$))*\s+[A-Z](?![\w'(*])")  # "10^{-6} \\) C"
_APPLIED = re.compile(r"\b[^\W\d]\w*\([^()]{1,15}\)")  # "P(B)", "f(2)": arguments, no values
# an option, not an event ("A∩B"), a variable ("A + 2G = 115") nor a unit ("144 J"); "C입니다"
_LETTER_CAPS = re.compile(  # (in bold, "**B**", an option; "3*B" a product; Korean particles attach)
    r"(?<![\w'∪∩|+=/^°])(?<![\w)]\*)(?<![+=*/^\d] )[A-HJ](?![^\W\uac00-\ud7a3]|['∪∩|+=/^])(?!\*[\w(])(?! [+=*/^])"
)
# An option as a subject, with no verdict ("Option C covers half", not "B fits best"): assessed
_ASSESSED = re.compile(
    r"(?s)^(?!.*\b(?i:correct|right|best|better|stronger|answer(?!\s+(?:choice|option))|solution|probable|likely|plausible|the\s+one|fits?|match(?:es)?|works|holds|pick|choose|go\s+with)\b).*?(?<![\w*(])\(?[A-HJ-Z]\)?\**\s+(?!(?:then|because|since|though|as)\b)[a-z]"
)
_LETTER = re.compile(_LETTER_CAPS.pattern + r"|\([a-jA-J]\)|(?i:\b(?:option|choice) [a-j\d]\d?\b)")
# A name: a capitalised word that does not open the sentence or list item ("I" is no name).
_NAME = re.compile(r"(?<=[\s(\"'*])(?<!^[-*•] )(?<!^\*   )(?!I\b|I')[A-ZÀ-Ý][\w'’-]+|\*\*[^*]+\*\*")
_LABEL = regex("not_assertions", "label").pattern  # "step 3", "the 4th row": a label, no value
_LABELLED = re.compile(rf"(?i)(?:{_LABEL})\s*#?\d+\b|\b\d+(?:st|nd|rd|th)\b")
_FRAC = re.compile(r"\\?[dt]?frac\{(\d+)\}\{(\d+)\}")  # "\dfrac{1}{4027}" is one number, 1/4027
# A comma before three digits groups thousands ("12,500"); before others it lists values ("-2,1").
_NUMBER = re.compile(
    r"(?=[-\\dtf\d])-?(?:\\?[dt]?frac\{\d+\}\{\d+\}|\d+(?:,\d{3}\b)*(?:\.\d+)?(?:\s*/\s*\d+)?)"
)
# Where a claim's own words end and its justification or caveat begins (opening look-ahead: speed).
_GLOSS = re.compile(
    r"(?=[,\s])(?:,?\s+(?:(?:al)?though|but|however|because|since|as\s+long\s+as)\b|\s[—–]\s)", re.I
)
# A fronted clause ("since X, ..."; before a guess "if forced to, maybe ...") or a premise after
# a guess ("..., assuming X"): their words are not the claim's (alternatives, suppositions).
_FRONTED = re.compile(
    r"(?i)\A\W*(?:(?:but|however|so|and|still|yet|now)\W+)*(?:(since|because)|given|as|if(?=\s+\w+ed\b))\b[^,;.]*(?:,\s+and\b[^,;.]*)?,\s+(?=\w)|,\s+(?:assuming|given|considering|based\s+on)\b.*"
)
_OPERATION = pattern("not_assertions", "operation")  # "..., so we round up": result unstated
_STEP = pattern("not_assertions", "step")  # "let me recount", a plan with no result ("I'll add 6")
CONCEDING = re.compile(r"\W*(?:while|(?:al|even\s+)?though|despite|whereas)\b", re.I)  # a clause
CONCESSIVE = re.compile(r",?\s+(?:but|however)\b", re.IGNORECASE)
# A list item ("- **Focus group**: ...", "(C) 0.32 N"); a result stated as one ("y = 8.1").
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]\s|\d{1,2}[.)]\s|\(?[A-Ja-j][.):]\s)")
_RESULT = re.compile(r"(?:^\W*|,\s*)(?:so|thus|therefore|hence)\b|=", re.IGNORECASE)
_OPENING_DOUBT = re.compile(
    r"(?i)\W*(?:(?:wait|hmm+|but|and|so|well|actually|oh)\W+)*(?:maybe|perhaps|possibly)\b"
)
_LIST_SEPARATOR = re.compile(r"[,;]|→|->|\bthen\b", re.IGNORECASE)
_NON_WORD = re.compile(r"\W+")
_REMARK = re.compile(r"^\W*[^\W\d_]{3,}(?:[ ,]+[^\W\d_]{3,})?[.!]*$|\?$")  # "Done.", "Looks right."
_CUT_OFF = re.compile(r"(?=[\\(\[{&=/^])(?:\\[a-z]*|[(\[{&=/^])\s*$")  # ends on "\times", "("
_NAMED = re.compile(r"(?i)\b(?:the|my)\s+(?:final\s+)?answer\s+(?:is|(?:should|would|must)\s+be)\b")
# A piece of a quotation cut at one of its full stops ('likely "C.', 'B", as ...'): odd quote marks
_QUOTE_MARKS = '"“”'
_WORDS = re.compile(r"[^\W\d_]{3,}")
_POLAR = re.compile(r"(?im)(?:^|[.!?] )\s*(?:is|are|was|were|do|does|did|can|has)\s([^.!?\n]+)\?")
_CLAIM = re.compile(r"\d[\d.,]*|[^\W\d_]{4,}")  # a yes/no question's claim: numbers, long words
_GUESSED = re.compile(r"(?i)\b(?:answer|correct|intended)\b|(?:maybe|perhaps) \d[\d./]*(?:[,.;]|$)")
_NEGATION = re.compile(r"\b(?:not|no|never)\b|n't")
_COPULA = r"\W*(?:it|this|that)(?:\s\w+)?\s*(?:is|was|'s)\W+(?:\w+\W+){0,2}"  # "This is not ..."
_TORN = re.compile(r"\W*(?:I|[Ww]e)\b[^\dA-Z]*?,?\s+(?:but|however)\b")  # the writer's state
# The writer's own doings ("I'm ready to answer"), not a stance on a claim ("I'm sure it is a heron").
_THING = re.compile(r"(?i)\b(?:a|an|the)\s+[^\W\d_]{3,}|^\W*\S+\W*$")  # "a heron", "\\boxed{No}"
_WRITER = re.compile(
    r"(?i)\W*(?:I|we)\b(?!(?:'m|'ve|\s+am|\s+have)?\s+(?:now\s+)?(?:sure|certain|confident|determined|concluded|confirmed|think|believe))"
)


class Conclusion(NamedTuple):
    position: int  # index into the closing sentences
    sentence: Sentence
    value: str  # the sentence without the values it rules out
    read: str  # what the evaluator is given, if the answer does not plainly agree
    marked: bool  # marked as a result; an unmarked conclusion makes a low-confidence flag
    earlier: Conclusion | None  # for an unmarked one: the last marked conclusion before it


def asserted(text: str, question: str) -> tuple[str | None, bool]:
    """What a sentence asserts (None if nothing), and whether it is undecided (a question,
    guess, alternative or decline: if read there, the reasoning concludes nothing)."""
    if (opening := CONCEDING.match(text)) and "," in text[opening.end() :]:  # "While F has
        text = text[text.index(",", opening.end()) + 1 :]  # merit, I fits best"
    elif torn := _TORN.match(text):  # "I'm a bit torn, but I think A fits": the claim follows
        text = text[torn.end() :]
    elif (fronted := _FRONTED.match(text)) and fronted[1]:  # a gloss opening it fronts a clause
        text = text[fronted.end() :]
    # "B, D, A, C, though I'm not sure of the middle": the claim is before the gloss
    gloss = _GLOSS.search(text)
    cut = gloss.start() if gloss else len(text)
    head = text[:cut]
    if head.endswith(("?", "？")) or any(cue.search(text, 0, cut) for cue in _UNDECIDED):
        # "it might be C", "41 or 47", "I can't tell", "18 is just as plausible"; unless it
        # concedes before a marked result: "it may look like 5, but the answer is 4"
        claim = conceded(text, gloss, question)
        return claim, claim is None
    if any(cue.search(text, 0, cut) for cue in (_SUPPOSITION, _REJECTION)):
        return None, False  # "if the row is full, 31", "so D fails": no claim about the answer
    if not _COMMITMENT.search(text, 0, cut) and _STEP.search(head):
        return None, False  # "let me recount row 3", "..., so let me redo it"
    if _OPERATION.search(head):
        return None, True  # "The next digit is 9, so we round up.": its result is not stated
    if question and (len(head) >= 20 or _LIST_ITEM.match(head)) and _squash(head) in question:
        return None, False  # read out from the question ("(C) 0.32 N" is one of its options)
    value = _CONTRAST.sub(" ", _QUOTED.sub(" ", _APPLIED.sub(" ", _UNIT.sub(" ", head))))
    return (_LABELLED.sub(" ", value) if _NUMBER.search(value) else value), False  # "step 3"


def conceded(text: str, gloss: re.Match[str] | None, question: str) -> str | None:
    """The marked result that follows a concession ("..., but the answer is 4"), if any."""
    if gloss is None or not CONCESSIVE.match(gloss.group(0)) or _OPENING_DOUBT.match(text):
        return None  # "Maybe it bounces back, but ... so 32 N": the doubt covers it all
    value, _ = asserted(tail := text[gloss.end() :], question)
    return value if value is not None and _MARKED.search(tail) else None


def unasked(text: str, question: str, least: int = 4) -> str:
    """``text`` with each run of ``least`` or more words that copies the question blanked: a
    restatement of what is asked ("the inverse of -i in this group is i") asserts only the rest."""
    words, i = [m.span() for m in re.finditer(r"\S+", text)], 0
    while i <= len(words) - least:
        j = i + least  # the run words[i:j], extended while it is still a copy
        while j <= len(words) and _squash(text[words[i][0] : words[j - 1][1]]) in question:
            j += 1
        if j > i + least:  # words[i : j - 1] copy the question
            a, b = words[i][0], words[j - 2][1]
            text, i = text[:a] + " " * (b - a) + text[b:], j - 2
        i += 1
    return text


def _squash(text: str) -> str:
    return _NON_WORD.sub("", text).lower()


def _readable_shape(evaluator: str, value: str, stated: bool) -> bool:
    """A cheap test that the evaluator could find a value here (_SHAPES must find what it finds)."""
    if evaluator in _NUMERIC:
        return _NUMBER_WORD.search(value) is not None
    if evaluator == "choices_matching":
        return _LETTER.search(value) is not None
    if evaluator == "ordered_list_matching":
        return len(_LIST_SEPARATOR.findall(value)) >= 2
    # free text: names something, or states a result about it ("That makes it a viola.")
    return bool(_NAME.search(value) or stated and _WORDS.search(value) and not _WRITER.match(value))


# A sentence none of these finds holds nothing _readable finds in what asserted() or a guess
# reads of it: the parts they blank out or cut off end and begin on non-word characters.
_NUMBERISH = _NUMBER_WORD.pattern[4:-3] + r"|half|third|quarter|fifth|tenth)|\bone.*\bone"
_SHAPES = {
    "choices_matching": re.compile(r"[A-HJ](?![a-z])|[A-HJ]n't|\([a-jA-J]\)|(?i:option|choice)"),
    "ordered_list_matching": re.compile(r"(?is)(?:[,;]|→|->|then).*(?:[,;]|→|->|then)"),
    **dict.fromkeys(_NUMERIC, re.compile(rf"(?=[\dztfsenhqod])(?:{_NUMBERISH})", re.S | re.I)),
}

_STOP = frozenset(["the", "and", "with", "from", "that", "this", "which", "what", "final", "answe", "these", "those", "there", "their", "its", "are", "was", "were", "thus", "makes", "make", "made", "one", "seems", "looks", "like", "then", "also", "into", "onto", "over"])  # fmt: skip


def _content(text: str) -> set[str]:
    """A text's content words, cut to five letters ("Austria" and "Austrian" agree)."""
    return {w.lower()[:5] for w in _WORDS.findall(text)} - _STOP


def grade(evaluator: str, kwargs: _KW, text: str, asked: str | None = None) -> Outcome | None:
    """``text`` read in strict mode as grading reads an answer (with the question: by options' words)."""
    try:
        if asked and evaluator != "math_matching":
            return strict.evaluate(evaluator, kwargs, text, asked)
        return evaluate(evaluator, kwargs, text, "strict")
    except (EvaluatorError, LookupError, ValueError, TypeError):
        return None  # a reader bug must not stop flagging


def _readable(evaluator: str, value: str, options: dict[str, str], stated: bool) -> str | None:
    """What the evaluator reads of ``value`` (options by words too): None if no shape, "" if in words."""
    last = [*_FRACTION_WORDS.finditer(value)][-1:] if evaluator in _NUMERIC else []
    if last and (last[0][0][0] == "\\" or not _NUMBER.search(value, last[0].end())):
        return ""  # (in words after its last number: "Half of 24 is 12" states 12)
    if not _readable_shape(evaluator, value, stated) and not (
        options and evaluator == "choices_matching" and _names_option(value, options, stated)
    ):
        return None
    several = evaluator == "choices_matching" and len(set(_LETTER_CAPS.findall(value))) > 1
    if several and not _STRONG_COMMITMENT.search(value):  # compares them, unless a result
        value = value[max([0, *(m.end() for m in _RESULT.finditer(value) if m.start())]) :]
        return value if len(set(_LETTER_CAPS.findall(value))) == 1 else None  # "B fails, so C."
    return value


def _names_option(value: str, options: dict[str, str], stated: bool) -> bool:
    """Whether ``value``, a result or the closing sentence, names one option by its whole text."""
    result = _STRONG_COMMITMENT.search(value) or _RESULT.search(value)  # "y = 8.1": "(G) 8.1"
    if _LIST_ITEM.match(value) or not (stated or result):
        return False
    if len(found := named(folded := fold_phrase(value), options)) != 1:
        return False
    option = options[found[0]]  # a plain closing sentence holds it verbatim; a number, by value
    if _NUMBER.match(option):
        return True
    return find_phrase(folded, option) if result else option in folded


def offered(asked: str | None, kwargs: _KW) -> dict[str, str]:
    """The question's options if they hold the item's label ("b", "BC": as graded), not a quote."""
    words, found = re.findall(r"\w+", str(kwargs.get("label")).upper()), question_options(asked)
    return found if set(words) <= found.keys() or set("".join(words)) <= found.keys() else {}


def _read(evaluator: str, kwargs: _KW, value: str, asked: str | None) -> Outcome | None:
    outcome = grade(evaluator, kwargs, value, asked)
    if outcome is None or not outcome.extracted.strip() or (outcome.note or "").startswith("names"):
        return None
    return None if outcome.uncertain and evaluator == "choices_matching" else outcome  # unsure


def conclusion(
    record: _KW, closing: list[Sentence], evaluator: str, kwargs: _KW
) -> Conclusion | None:
    """From the end of ``closing``: the last assertion read marked as a result, or a plain one of
    the last two bar remarks (``earlier``: the marked one before); None if undecided or retracted."""
    asked = record.get("question")
    choices = isinstance(asked, str) and evaluator == "choices_matching"
    options = offered(asked, kwargs) if choices else {}
    stem = fold_phrase(str(asked)) if options else ""  # options stated by their text: see _by_text
    # sentences with nothing of the answer's shape are skipped; if one is found, whether they retract it
    shapes, pending = None if options else _SHAPES.get(evaluator), []
    question = stem_only = _squash(asked) if isinstance(asked, str) else ""
    for option in options.values():  # the question's own words, not its options' (of 3+ letters)
        stem_only = stem_only.replace(o, "|") if len(o := _squash(option)) > 2 else stem_only
    polar = _POLAR.findall(asked) if isinstance(asked, str) and evaluator not in SHAPED else []
    claim = _CLAIM.findall(polar[-1].lower()) if polar else []
    plain: Conclusion | None = None
    retracted = seen = False
    after = 0  # assertions after this one (read as the last two when a plain one concludes)
    for index in range(len(closing) - 1, -1, -1):
        sentence = closing[index]
        text = _by_text(sentence.text, options, stem) if options else sentence.text
        remark = closing[index + 1].text.strip() if after < 2 and index + 1 < len(closing) else "?"
        after += not (_REMARK.search(remark) or _STEP.search(remark))  # (or a plan, a question)
        if sum(map(text.count, _QUOTE_MARKS)) % 2 or shapes is not None and not shapes.search(text):
            pending += [] if seen else [text]
            continue
        marked = _MARKED.search(text) is not None
        if plain is not None and not marked:
            continue  # after a plain conclusion only a marked one before it can matter: not read
        value, undecided = asserted(text, question)
        if value is not None:  # a marked result whose only value copies the question's states it
            kept = unasked(value, stem_only)
            value = value if marked and shapes and not shapes.search(kept) else kept
        if claim and value is not None and (pole := _pole(text, claim)) is not None:
            return Conclusion(index, sentence, pole, " ".join(claim), True, None)  # the claim, read
        if not (last := index == len(closing) - 1) and re.fullmatch(r"\d{1,2}[.)]", text):
            continue  # "2." of "2. Quick take": the number of an item, no value
        if value is None:
            read = None
            head = _GLOSS.split(_FRONTED.sub("", text, 2), 1)[0]
            several = evaluator == "choices_matching" and len(set(_LETTER_CAPS.findall(head))) > 1
            if undecided and (several or _readable(evaluator, head, options, last) is not None):
                # ends on a guess or an alternative: nothing concluded, unless it guesses at
                # the answer itself ("Maybe the correct answer is (D).") and nothing follows
                guess = plain is None and _GUESSED.search(head) and not head.endswith(("?", "？"))
                guess = guess and not any(cue.search(head) for cue in _OPEN)
                return Conclusion(index, sentence, head, head, False, None) if guess else plain
        else:  # the last sentence, or for free text a marked claim, undoubted, may name its
            # value in lowercase or by an option's words alone
            stated = last or evaluator not in SHAPED and _MARKED.search(value) is not None
            if stated and evaluator not in SHAPED and not _THING.search(value):  # not "That's all."
                others = (_content(s.text) for s in closing if s is not sentence)
                stated = bool(_content(value) & _content(str(asked)).union(*others))
            read = _readable(evaluator, value, options, stated and not _DOUBT.search(text))
        if read == "":
            return plain  # "three and a half bar": a value it states but cannot be compared
        if read is None or value is None:  # withdrawn unless a claim follows ("Wait. 8 x 7 is 56.")
            retracted = retracted or (_RETRACTION.search(text, 0, 40) is not None and not seen)
            continue
        seen = True
        if marked:
            if retracted or any(_RETRACTION.search(t, 0, 40) for t in pending):
                return plain  # "So 3. Wait, the dip near 3 ... let me reconsider": withdrawn
            found = Conclusion(index, sentence, value, read, True, None)
            return found if plain is None else plain._replace(earlier=found)
        # a plain statement concludes with one value ("The pallet holds 12 crates.", "23 times 4 is
        # 92"), not a listing ("2021 sales 40 units, 2022 sales 55"), nor an option it assesses
        n = len(_NUMBER.findall(value)) if evaluator in _NUMERIC else 0
        single = not _ASSESSED.match(text) if evaluator == "choices_matching" else n <= 1
        if after <= 1 and plain is None and single:
            plain = Conclusion(index, sentence, value, read, False, None)
    return plain


def _by_text(text: str, options: dict[str, str], stem: str) -> str:
    """``text`` with each option of several words named once in the question (``stem``) as its
    letter, so that its own words gloss or rule out nothing ("no, because it is hearsay": "**B**")."""
    original = folded = fold_phrase(text)
    for label, option in options.items() if not _LIST_ITEM.match(text) else ():
        if (o := option.rstrip(". ")) in folded:  # quoted whole in a sentence: 'has "Moby Dick."'
            folded = re.sub(rf"(?<=\S )[\"“]{re.escape(o)}[.,]?[\"”]", f"**{label}**", folded)
        if o in folded and len(_WORDS.findall(o)) > 1 == stem.count(o):
            folded = re.sub(rf"(?<!\w){re.escape(o)}(?!\w)", f"**{label}**", folded)
    return text if folded == original else folded


def _pole(text: str, claim: list[str]) -> str | None:
    """A sentence restating a yes/no question's claim in order, or negated ("476 is not larger")."""
    low, at = text.lower(), [0]
    claim = claim[-1:] if re.match(_COPULA + re.escape(claim[-1]), low) else claim
    for word in claim:  # each after the one before
        at.append(low.find(word, at[-1]) if at[-1] >= 0 else -1)
    if -1 in at:  # ("This is not plausible": its predicate stands for the claim)
        return None
    return "no" if _NEGATION.search(low, max(0, at[1] - 20), at[-1]) else "yes"  # (at[0]: 0)


def answer_outcome(record: _KW, evaluator: str, kwargs: _KW, answer: str) -> Outcome | None:
    """The answer as the evaluator read it when grading (``rule:strict``), else read now."""
    verdict = verdict_of(record, "rule:strict")
    if verdict and not verdict.get("error") and isinstance(verdict.get("extracted"), str):
        score = verdict.get("score")
        if isinstance(score, (int, float)):
            return Outcome(score=score, extracted=verdict["extracted"] or "")
    asked = q if isinstance(q := record.get("question"), str) else None  # read as grading does
    return grade(evaluator, kwargs, answer, asked)


def _number(text: str) -> tuple[float, int] | None:
    """The first number of ``text`` and its count of decimals."""
    m = _NUMBER.search(text)
    num, _, den = _FRAC.sub(r"\1/\2", m.group(0).replace(",", "") if m else "").partition("/")
    try:
        return (float(num) / float(den), 9) if den else (float(num), len(num.partition(".")[2]))
    except (ValueError, ZeroDivisionError):
        return None


def _same_number(x: tuple[float, int], y: tuple[float, int], factors: bool = True) -> bool:
    (a, _), (b, _), places = x, y, min(x[1], y[1])
    tolerance = max(1e-9 * max(1.0, abs(a), abs(b)), 0.5 * 10.0**-places if places else 0.0)
    if abs(a - b) <= tolerance:
        return True
    if a and b and factors:
        ratio = max(abs(a), abs(b)) / min(abs(a), abs(b))
        return ratio > 9.9 and any(abs(ratio - f) <= 1e-9 * f for f in _UNIT_FACTORS)  # (f >= 10)
    return False


def _holds(text: str, value: tuple[float, int], factors: bool = True) -> bool:
    """Whether ``text`` holds ``value``, in another unit too if ``factors`` (else "5/10" holds 5)."""
    found = _NUMBER.findall(text) + ([] if factors else re.findall(r"-?\d[\d,]*(?:\.\d+)?", text))
    return any(n is not None and _same_number(n, value, factors) for n in map(_number, found))


def _plainly_agrees(
    evaluator: str, found: Conclusion, theirs: Outcome, answer: str, kwargs: Mapping[str, Any]
) -> bool:
    """Whether the conclusion visibly holds the answer's number, letters, order or line's words."""
    b = theirs.extracted.strip()
    if not b:
        return True  # nothing to compare with
    if evaluator in _NUMERIC:
        return (y := _number(b)) is not None and _held(found.value, y, None)  # (_differ: asked)
    if evaluator == "choices_matching":
        return set(_LETTER_CAPS.findall(found.read)) == set(b.upper())  # extracted: "BDE"
    if evaluator == "ordered_list_matching":  # not all the answer's items named in another order
        items = [i.strip(" .*").lower() for i in _LIST_SEPARATOR.split(b) if i.strip(" .*")]
        at = [re.search(rf"(?<!\w){re.escape(i)}(?!\w)", found.value.lower()) for i in items]
        return None in at or (places := [m.start() for m in at if m]) == sorted(places)
    line, value = answer[slice(*last_line_span(answer))], found.value  # "1949" is not "in 1958"
    numbers = set(_NUMBER.findall(line)) <= set(_NUMBER.findall(value))
    return numbers and _content(line) - _broad(kwargs) <= _content(value)


def _differ(
    evaluator: str,
    found: Conclusion,
    mine: Outcome,
    theirs: Outcome,
    answer: str,
    kwargs: Mapping[str, Any],
    asked: str | None,
) -> bool:
    a, b = mine.extracted.strip(), theirs.extracted.strip()
    if not a or not b:
        return False
    if evaluator in _NUMERIC:
        x, y = _number(a.rpartition("=")[2]), _number(b.rpartition("=")[2])  # "8 * 5 = 40": 40
        if (x is None) != (y is None):  # an option's letter against its value cannot be compared
            return False
        # Either value in the other's text agrees ("9 + 12 + 21 = 42"), mine as a step of the
        # answer's working only if not named the answer ("so the answer is 2 weeks") nor stated
        said, step = alpha2digit(found.value, "en"), not _NAMED.search(found.sentence.text)
        count = re.search(r"(?i)\bhow many (\w+)", asked or "")  # as the count asked ("has 2 cats")
        step = step and not (count and re.search(rf"(?i)(?<!the )\b\d+\s{count[1]}", said))
        held = _held(said, y, asked) if y else False  # (not as an input only: "35 + 50 = 85")
        if x and y and (_same_number(x, y) or held or step and _holds(answer, x, False)):
            return False  # (a value spelt two ways, "33,\\!306" and "33,306": the evaluator tells)
        same = evaluator == "math_matching" and grade(evaluator, {**kwargs, "answer": b}, a)
        return not (same and same.score >= 1)
    if evaluator == "choices_matching":  # (a letter the question offers no option for: "of G")
        return set(b.upper()) != set(a.upper()) <= (set(offered(asked, kwargs)) or set(a.upper()))
    # Free text: the two score differently and the answer's last line says something the
    # conclusion does not ("France" after "Paris, France" agrees); a conclusion scoring
    # lower must commit in so many words, and name something.
    strong = _STRONG_COMMITMENT.search(found.sentence.text) and _NAME.search(found.value)
    if mine.score == theirs.score or mine.score < theirs.score and not strong:
        return False  # (both right or both wrong: the key cannot tell them apart)
    line = _content(answer[slice(*last_line_span(answer))])
    return not line - _broad(kwargs) <= _content(found.value)


def _held(said: str, y: tuple[float, int], asked: str | None) -> bool:
    """Whether ``said`` holds the answer's value, not only as an input of the sum it ends on."""
    *_, link = [None, *_LINK.finditer(said)]  # a check of it ("85 - 50 = 35 ✓") holds it
    result = said[link.end() :] if link and not _CHECKED.search(said) else ""
    r = None if _holds(result, y) else _number(result)  # (or one ending on a value given)
    return _holds(said, y) and (r is None or _holds(asked or "", r, False))


def _broad(kwargs: Mapping[str, Any]) -> set[str]:
    """The words of a location's coarse answers (\"Italy\" after \"It's Venice.\" adds nothing)."""
    words = coarse if isinstance(coarse := kwargs.get("location_coarse_grained"), list) else []
    return _content(" ".join(c for c in words if isinstance(c, str)))


def _contradicts(
    evaluator: str, kwargs: _KW, found: Conclusion, theirs: Outcome, answer: str, asked: str | None
) -> Outcome | None:
    """The conclusion as the evaluator reads it, when it differs from the answer."""
    if found.value in ("yes", "no"):  # a yes/no claim: the answer's last line says yes or no,
        line = answer[last_line_span(answer)[0] :].lower()  # or restates the claim
        said = (re.findall(r"\b(?:yes|no)\b", line) or [_pole(line, found.read.split())])[-1]
        return None if said in (None, found.value) else Outcome(score=1, extracted=found.value)
    if _plainly_agrees(evaluator, found, theirs, answer, kwargs):
        return None
    if evaluator == "ordered_list_matching":
        return Outcome(score=0, extracted=found.read)  # compared by the items' places above
    by_words = evaluator == "choices_matching" and not _LETTER.search(found.read)  # "4F" by words
    by = asked if by_words or any(map(str.isdigit, offered(asked, kwargs))) else None  # "option 4"
    mine = _read(evaluator, kwargs, found.read.lower() if by_words else found.read, by)  # (or None)
    return mine if mine and _differ(evaluator, found, mine, theirs, answer, kwargs, asked) else None


def _restated(
    asked: str | None,
    closing: list[Sentence],
    found: Conclusion,
    theirs: Outcome,
    answer: str,
    evaluator: str,
    kwargs: Mapping[str, Any],
) -> bool:
    """Whether a later sentence arrives at the answer's value ("leaves 9. 9 times 2 is 18."): a step."""
    y = _number(theirs.extracted) if evaluator in _NUMERIC else None
    question = _squash(asked) if asked else ""
    for sentence in closing[found.position + 1 :]:
        value, _ = asserted(sentence.text, question)
        if value is None or sum(map(sentence.text.count, _QUOTE_MARKS)) % 2:
            continue
        if evaluator in _NUMERIC:
            if (x := _number((_NUMBER.findall(value) or [""])[-1])) and y and _same_number(x, y):
                return True
        elif _readable_shape(evaluator, value, False) and _plainly_agrees(
            evaluator, found._replace(value=value, read=value), theirs, answer, kwargs
        ):  # (a remark, "Okay, that should be it.", names no order)
            return True
    return False


def detect(
    record: Mapping[str, Any],
    reasoning: str,
    answer: str,
    closing: list[Sentence],
    found: Conclusion,
    evaluator: str,
    kwargs: Mapping[str, Any],
) -> Flag | None:
    theirs = answer_outcome(record, evaluator, kwargs, answer)
    if theirs is None or _CUT_OFF.search(answer):  # an answer cut off mid-formula gave no value
        return None
    asked = q if isinstance(q := record.get("question"), str) else None
    mine = _contradicts(evaluator, kwargs, found, theirs, answer, asked)
    if mine is None or _restated(asked, closing, found, theirs, answer, evaluator, kwargs):
        return None
    # an option chosen by its words rather than its letter is a reading a reviewer checks
    by_words = evaluator == "choices_matching" and not _LETTER.search(found.read)
    if (
        (earlier := found.earlier) is not None
        and _contradicts(evaluator, kwargs, earlier, theirs, answer, asked) is None
        and (by_words or evaluator not in ("ordered_list_matching", "choices_matching"))
    ):
        return None  # a plain remark after a marked result the answer gives (not a letter, order)
    at = answer.rfind(theirs.extracted.strip()) if theirs.extracted.strip() else -1
    a_start, a_end = (at, at + len(theirs.extracted.strip())) if at >= 0 else last_line_span(answer)
    confident = found.marked and not by_words and (evaluator in SHAPED or mine.score > 0)
    spans = [evidence("reasoning", reasoning, found.sentence.start, found.sentence.end)]
    spans.append(evidence("answer", answer, a_start, a_end))
    detail = f"reasoning concludes {mine.extracted!r}, answer gives {theirs.extracted!r}"
    return flag("answer_contradicts_reasoning", spans, detail, "high" if confident else "low")
