"""``strict`` rule grading: ROME's evaluators as a careful human applies them.

Each evaluator reads the final answer (``scorers.records.final_answer``), finds where
the model states its answer (:mod:`scorers.evaluate.strict.final`), and compares what it
states with the annotation. Every departure from the reference grader is listed
with an example in the README section "Strict mode".

``Outcome.extracted`` is a canonical form of what was read, so two answers can
be compared through it: sorted option letters (``"AC"``), a number
(``"1234"``, ``"45%"``), list items joined by ``", "``, a time ``h:mm:ss``, or
the folded answer text for phrase evaluators.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from scorers.errors import EvaluatorError
from scorers.evaluate.memo import MAX_TEXT, Memo, kwargs_key
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import choices, intervals, mentions, numbers, orders, polarity, yes_no
from scorers.evaluate.strict.commit import (
    before_remark,
    conclusion,
    correction,
    drop_excluded,
    firm,
    first_sentence_end,
    reaffirms,
    sentences,
)
from scorers.evaluate.strict.final import (
    Located,
    before_invented_question,
    locate,
    without_closing,
    without_echo,
)
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import Number, canonical, find_numbers, pick_number
from scorers.evaluate.strict.phrases import Answer, is_word
from scorers.evaluate.strict.question import by_position, from_other_end, lower_labels
from scorers.evaluate.strict.question import named as option_named
from scorers.evaluate.strict.question import named_one as option_named_one
from scorers.evaluate.strict.reading import (
    FACTS,
    Reading,
    number_doubt,
    question_facts,
    resolve_number,
)
from scorers.records import final_answer

if TYPE_CHECKING:
    from scorers.evaluate.mathmatch.units import Unit

__all__ = ["EVALUATORS", "evaluate"]

_EXTRACTED_CAP = 300
# Binary evaluators score with ints, as the reference does, so the two modes
# aggregate alike; location returns its configured credit values.
_RIGHT, _WRONG = 1, 0


def _fail(evaluator: str, problem: str) -> EvaluatorError:
    return EvaluatorError(f"{evaluator}: {problem}")


_KWARGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # evaluator: (required, allowed)
    "key_items_matching": (frozenset({"key_items"}), frozenset({"key_items", "remove_space"})),
    "choices_matching": (frozenset({"label"}), frozenset({"label"})),
    "number_matching": (frozenset({"value_to_match"}), frozenset({"value_to_match"})),
    "ordered_list_matching": (frozenset({"order"}), frozenset({"order"})),
    "location_matching": (
        frozenset({"location_fine_grained"}),
        frozenset(
            {
                "location_fine_grained",
                "location_coarse_grained",
                "fine_grained_score",
                "coarse_grained_score",
            }
        ),
    ),
    "interval_matching": (frozenset({"interval"}), frozenset({"interval", "units"})),
    "multi_interval_matching": (frozenset({"intervals"}), frozenset({"intervals", "units"})),
}


def _check_kwargs(evaluator: str, kwargs: Mapping[str, Any]) -> None:
    if type(kwargs) is dict:  # the common case, without the ABC check
        names = kwargs.keys()
        if names <= _KWARGS[evaluator][1] and _KWARGS[evaluator][0] <= names:
            return
    if not isinstance(kwargs, Mapping):
        raise _fail(evaluator, f"evaluator_kwargs must be an object, got {type(kwargs).__name__}")
    required, allowed = _KWARGS[evaluator]
    keys = kwargs.keys()
    if keys <= allowed and required <= keys:
        return
    unknown = sorted(map(str, keys - allowed))
    if unknown:
        raise _fail(evaluator, f"unknown evaluator_kwargs {', '.join(unknown)}")
    missing = sorted(required - keys)
    raise _fail(evaluator, f"missing evaluator_kwargs {', '.join(missing)}")


def _strings(evaluator: str, name: str, value: Any, *, allow_str: bool = True) -> list[str]:
    """A list of non-empty strings; a bare string is one candidate, not its letters."""
    if isinstance(value, str) and allow_str:
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(evaluator, f"{name} must be a list of strings, got {value!r:.80}")
    return [v for v in value if v.strip()]


def _folded_answer(text: str) -> str:
    return " ".join(text.split())[:_EXTRACTED_CAP]


def _phrase_text(loc: Located) -> str:
    # Free-text answers run on past their marker line: everything after it counts,
    # but a closing formula ("Hope this helps!").
    return without_closing(loc.tail) if loc.how == "marker" else loc.segment


def _phrase_answer(reading: Reading, found: Callable[[Answer], bool]) -> tuple[Answer, bool]:
    """The answer text a phrase evaluator grades: a correction after the final
    answer replaces it when it names a candidate or says it corrects ("scratch
    that"); after a mere "actually" or "sorry" naming none, the original answer
    stands and the doubt is reported by the caller."""
    answer = Answer(_phrase_text(reading.loc))
    if reading.fixed is None:
        return answer, False
    fixed = Answer(reading.fixed.segment)
    if found(fixed) or firm(reading.fixed):
        return fixed, False
    return answer, not reaffirms(reading.fixed)


def _unknown_name(
    answer: Answer, keys: list[str], every_key: list[str], *, places_only: bool = True
) -> str | None:
    """A name in a short answer that is neither one of the ``keys`` (those not
    found), nor a known other name of one, nor a place the data knows, when
    those keys are places the data knows: it may be a name of the key that the
    data lacks ("Pozsony" for Bratislava). A name holding a known place
    ("Leeds United") names that place; a capital that starts a sentence
    ("Unable to tell") is no name."""
    from scorers.evaluate.strict import names

    text = drop_excluded(answer.raw)
    # The length first: it needs no place look-up, and a long answer is no name.
    if len(text.split(maxsplit=_SHORT_ANSWER)) > _SHORT_ANSWER:
        return None
    places = [k for k in keys if not places_only or names.place_of(k) != (None, None)]
    if not places:
        return None
    folded_keys = {fold_phrase(k) for k in every_key}
    for m in _CAPITALISED.finditer(text):
        if _LOWER_WORD_NEXT.match(text, m.end()):
            continue
        name = fold_phrase(m.group())
        if name.startswith("the "):
            name = name[4:]  # "The Dominican Republic"
        if name in _SKIP_WORDS or name in folded_keys or names.is_initials(m.group()):
            continue
        if names.is_place(name):
            # A known place is another place, unless the data puts it where a
            # key is under a name not the key's own ("Calcutta", which Kolkata
            # shares with a smaller town; "St. Petersburg, Florida" is the
            # key's name placed elsewhere).
            where = names.place_of(name)
            if (
                where == (None, None)
                or all(names.place_of(k) != where for k in places)
                or any(name in names.alternatives(k) or name == fold_phrase(k) for k in places)
            ):
                continue
            return m.group()
        if " " in name and any(names.is_major_place(w) for w in name.split()):
            continue
        if any(name in names.alternatives(k) for k in places):
            continue
        return m.group()
    return None


# A capital followed by a verb or "to" starts a sentence ("Unable to tell",
# "Cannot be determined"); one followed by a particle may be a name ("Terreiro
# do Paço"). The words are English's closed classes, not a list of answers.
_LOWER_WORD_NEXT = re.compile(
    r" (?:to|be|is|are|was|were|not|can|could|cannot|will|would|has|have|had|seems?|looks?)\b"
)
# Only a short answer is a name; in a sentence, capitalised words are many things.
_SHORT_ANSWER = 6
_CONTEXT = 600  # the end of a long answer is enough to tell its language


# A capitalised name, its words joined by particles ("Democratic Republic of
# the Congo", "Terreiro do Paço").
_CAPITALISED = re.compile(
    r"(?<![\w'])[A-Z][^\W\d_]+(?:(?:\.?[ -]|[ ](?:of(?: the)?|de|del|da|do|di|du)[ ])[A-Z][^\W\d_]+)*"
)
# Capitalised words that start sentences or dress answers, not names.
_SKIP_WORDS = frozenset(
    [
        "final",
        "answer",
        "the",
        "this",
        "that",
        "it",
        "its",
        "is",
        "in",
        "on",
        "at",
        "a",
        "an",
        "of",
        "and",
        "or",
        "not",
        "but",
        "so",
        "my",
        "i",
        "city",
        "country",
        "place",
        "location",
        "photo",
        "image",
        "picture",
    ]
)


def key_items_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "key_items_matching"
    _check_kwargs(name, kwargs)
    key_items = kwargs["key_items"]
    remove_space = kwargs.get("remove_space", False)
    if not isinstance(remove_space, bool):
        raise _fail(name, f"remove_space must be true or false, got {remove_space!r:.40}")
    if not isinstance(key_items, list) or not key_items:
        raise _fail(name, "key_items must be a non-empty list")
    if all(isinstance(k, list) for k in key_items):
        groups = [_strings(name, "each key_items group", g, allow_str=False) for g in key_items]
        if not all(groups):
            raise _fail(name, "a key_items group has no non-empty variant")
    elif all(isinstance(k, str) for k in key_items):
        groups = [_strings(name, "key_items", key_items)]
        if not groups[0]:
            raise _fail(name, "key_items has no non-empty variant")
    else:
        raise _fail(name, "key_items must be all strings or all lists of strings")

    polar = yes_no.key_polarity(groups[0]) if len(groups) == 1 else None
    if polar is not None:
        said = yes_no.opening((reading.fixed or reading.loc).segment)
        if said is not None:
            # "Nein, ...", "不是。": the answer opens with its yes or no, in any language.
            score = _RIGHT if said == polar else _WRONG
            note = None if score == _RIGHT else f"says {'yes' if said else 'no'}"
            return Outcome(
                score, (reading.fixed or reading.loc).segment[:_EXTRACTED_CAP], note=note
            )
        stated = (reading.fixed or reading.loc).segment
        if polar and yes_no.first_negated(stated, groups[0]):
            # "并没有记录到..." for 有: the first use of the verb says no; a
            # later "有可能" ("it may be") does not take it back.
            return Outcome(_WRONG, stated[:_EXTRACTED_CAP], note="says no: its verb negated")

    def has_all(answer: Answer) -> bool:
        return all(any(answer.contains(v, remove_space=remove_space) for v in g) for g in groups)

    answer, doubted = _phrase_answer(reading, has_all)
    missing = [
        g[0] for g in groups if not any(answer.contains(v, remove_space=remove_space) for v in g)
    ]
    note = f"missing: {', '.join(missing)}" if missing else None
    score = _WRONG if missing else _RIGHT
    uncertain = None
    if missing and len(groups) == 1 and (told := _told_yes_no(answer, reading, groups[0])):
        # "It is unlikely that ..." for "no": the answer restates the question's claim.
        yes, sure = told
        if yes == (fold_phrase(groups[0][0]) == "yes"):
            score, note = _RIGHT, None
        if yes is None:
            uncertain = "says neither yes nor no, nor restates the question's claim"
        elif not sure:
            uncertain = "restates the question's claim with a word of its own"
        return Outcome(score, answer.folded[:_EXTRACTED_CAP], note=note, uncertain=uncertain)
    if doubted:
        uncertain = "a correction follows the final answer but names no key item"
    elif missing and len(groups) == 1 and (coarse := _coarser_date(answer, groups[0])):
        # "Answer: 1843." for 15 August 1843: right to the precision it states;
        # whether the question wanted the day only a reader can weigh.
        score, note = _RIGHT, None
        uncertain = f"names the date '{groups[0][0]}' to its {coarse} only"
    elif missing and not remove_space:
        compounds = [
            (g[0], next((w for v in g if (w := answer.inside(v))), None))
            for g in groups
            if g[0] in missing
        ]
        found = [(key, word) for key, word in compounds if word is not None]
        if found:
            key, word = found[0]
            uncertain = f"'{key}' only ends the compound '{word}'"
            if len(found) == len(compounds):
                # The compound's last part names its kind: the likelier reading.
                score, note = _RIGHT, None
        if uncertain is None:
            unknown = _unknown_name(
                answer,
                [v for g in groups if g[0] in missing for v in g],
                [v for g in groups for v in g],
            )
            near = (
                None
                if unknown is not None
                else _near_spelling(answer, missing_variants(groups, missing))
            )
            if near is not None:
                uncertain = f"'{near[0]}' may be another spelling of '{near[1]}'"
            if unknown is not None:
                uncertain = f"names '{unknown}', neither a key item nor a known other name of one"
            adjective = _adjective_of(answer, groups) if len(groups) == 1 else None
            if adjective is not None:
                # "the Iranian capital" for Iran, "the Incan Empire" for Inca: the
                # name's adjective most often answers "which country", but not always.
                score, note = _RIGHT, None
                uncertain = f"'{adjective}' is the adjective of '{groups[0][0]}'"
            elif uncertain is None and (clip := _clipped(answer, groups, missing)):
                # "hippo" for hippopotamus, "rhino", "photo": English clips a
                # long word to its head; only a reader knows the clipping.
                uncertain = f"'{clip[0]}' may be a short form of '{clip[1]}'"
            elif uncertain is None and len(groups) == 1:
                part = _part_of_name(answer, groups[0])
                if part is not None:
                    # "Gandhi" for Mahatma Gandhi, "Titicaca" for Lake Titicaca: a
                    # name's own word most often names it, but not always.
                    phrase, key, within = part
                    if within:
                        score, note = _RIGHT, None
                    uncertain = f"'{phrase}' names part of '{key}'"
    if score == _RIGHT and uncertain is None and len(groups) == 1:
        rival = _settled_elsewhere(reading, has_all, groups[0])
        if rival is not None:
            uncertain = f"names the key outside what it commits to, which names '{rival}'"
        elif (other := _listed_with(reading, groups[0])) is not None:
            # "Which fighter ...?" answered "Rashad Evans and Vitor Belfort": two
            # names for one asked are no choice, as "X or Y" is none.
            score, note = _WRONG, f"names '{other}' beside the key, for a question asking one"
        elif (other := _concludes_other(reading, groups[0])) is not None:
            # "Which of Craig and Doherty ...?" answered "... So Doherty ...":
            # the question's alternatives are named on the way; the conclusion chooses.
            score, note = _WRONG, f"concludes with '{other}'"
            uncertain = f"concludes with '{other}', the question's other alternative"
        elif (
            len(answer.raw) <= _FEW_SENTENCES * 200
            and _undecided(answer.raw)
            and (rival := _rival(answer.raw, groups[0]))
        ):
            # "Monet? Renoir? I can't decide.": two candidates and no choice.
            score, note = _WRONG, "undecided"
            uncertain = f"names '{rival}' beside the key and says it cannot decide"
    return Outcome(score, answer.folded[:_EXTRACTED_CAP], note=note, uncertain=uncertain)


def _coarser_date(answer: Answer, group: list[str]) -> str | None:
    """ "month" or "year" when the answer names a key date to that precision only."""
    from scorers.evaluate.strict import dates

    for key in group:
        date = dates.key_date(key) if any(c.isdigit() for c in key) else None
        if date is not None:
            return dates.coarser(answer.folded, answer.raw, date)
    return None


def _listed_with(reading: Reading, keys: list[str]) -> str | None:
    """Another capitalised name the answer's committed sentence lists beside the
    key with "and" ("Rashad Evans and Vitor Belfort", "the G7, G20, and EU trio"),
    for a question that asks for one thing ("Which fighter ...?")."""
    question = reading.question or ""
    if not _ASKS_ONE.match(question) or not all(k[:1].isupper() for k in keys):
        return None
    loc = reading.fixed or reading.loc
    if loc.how == "whole":
        text = conclusion(loc.segment)
    else:
        parts = sentences(loc.segment)
        text = parts[0] if parts else ""
    text = drop_excluded(text)
    if " and " not in text:
        return None
    folded_keys = [fold_phrase(k) for k in keys]
    for m in _NAME_LIST.finditer(text):
        items = [fold_phrase(x).removeprefix("the ") for x in _LIST_SPLIT.split(m.group())]
        if not any(i in folded_keys for i in items) or not _list_ends(text, m, question):
            continue  # ("Keaton and Nicholson starred; Keaton played him": not the answer)
        others = [i for i in items if i not in folded_keys and i not in _SKIP_WORDS]
        if others:
            return next(
                x
                for x in _LIST_SPLIT.split(m.group())
                if fold_phrase(x).removeprefix("the ") == others[0]
            )
    return None


_NAME = r"(?<![\w'])(?:the )?[A-Z][\w-]*(?: [A-Z][\w-]*)*"  # ("G20", "NATO Quint")
_NAME_LIST = re.compile(rf"{_NAME}(?:, {_NAME})*,? and {_NAME}")
_LIST_SPLIT = re.compile(r",? and |, ")
_TAIL_ONLY = re.compile(r"[\s.!?*_)\]]*")
_TAIL_WORD = re.compile(r" ([a-z]+)(?=[\s.!?*_)\]]*$)")


def _list_ends(text: str, m: re.Match[str], question: str) -> bool:
    """The list ends its sentence, but for a lower-case word the question writes
    after its last name ("the EU trio")."""
    if _TAIL_ONLY.fullmatch(text, m.end()):
        return True
    word = _TAIL_WORD.match(text, m.end())
    last = _LIST_SPLIT.split(m.group())[-1]
    return word is not None and fold_phrase(f"{last} {word.group(1)}") in fold_phrase(question)


# A question asking for one thing: "Which fighter ...", "What part ...", not "Which two ...".
_ASKS_ONE = re.compile(
    r"[ \t]*(?:which|what)[ \t]+(?:[\"“][^\"”]*[\"”][ \t]+)?(?!two|three|four|several|some|all|of)[a-z]+(?<!s)\b",
    re.I,
)


def _concludes_other(reading: Reading, keys: list[str]) -> str | None:
    """The question's other alternative ("Which of Jonny Craig and Pete Doherty
    ...?", "..., Lucie Hradecká or Raffaella Reggi?") that the answer's concluding
    sentence names instead of the key: an answer weighs both on the way, so
    finding the key in it says nothing; its conclusion chooses."""
    question = reading.question or ""
    if not question or not all(k[:1].isupper() for k in keys):
        return None
    others = _alternatives(question, keys)
    if not others:
        return None
    loc = reading.fixed or reading.loc
    if loc.how == "box":
        return None
    text = drop_excluded(conclusion(loc.segment) if loc.how == "whole" else loc.segment)
    turns = list(_TURN.finditer(text))  # "Reggi 1965, Hradecká 1985, so Reggi"
    last = Answer(text[turns[-1].end() :] if turns and turns[-1].end() < len(text) else text)
    if any(last.contains(k) for k in keys):
        return None
    return next((o for o in others if last.contains(o)), None)


def _alternatives(question: str, keys: list[str]) -> list[str]:
    """The capitalised names the question joins to a key with "or"/"and"."""
    out = []
    for key in keys:
        at = question.find(key)
        if at < 0:
            continue
        after = _JOINED_AFTER.match(question, at + len(key))
        if after and (m := _CAPITALISED.match(question, after.end())):
            out.append(m.group())
        before = _JOINED_BEFORE.search(question[:at])
        if before is not None:
            names_before = [
                m.group()
                for m in _CAPITALISED.finditer(question[: before.start()])
                if m.end() == before.start()
            ]
            out.extend(names_before)
    return [o for o in out if fold_phrase(o) not in _SKIP_WORDS]


_JOINED_AFTER = re.compile(r",?[ \t]+(?:or|and)[ \t]+")
_JOINED_BEFORE = re.compile(r",?[ \t]+(?:or|and)[ \t]+\Z")


def _told_yes_no(
    answer: Answer, reading: Reading, group: list[str]
) -> tuple[bool | None, bool] | None:
    """(yes, sure) for a yes/no key when the answer says neither word but
    restates the question's claim (``polarity.said``)."""
    if {fold_phrase(v) for v in group} - {"yes", "no"} or answer.contains("yes"):
        return None
    if answer.contains("no"):
        return None
    return polarity.said(answer.raw, reading.question)


# What an answer settles on, inside the text a phrase evaluator reads: after
# the last turn of its committed sentence ("..., but the photo shows Bohr").
_TURN = re.compile(
    r"\b(?:but|yet|however|instead|so|therefore|thus|hence|though|although)\b[ \t,:]*",
    re.IGNORECASE,
)


def _committed(reading: Reading, read: str) -> str | None:
    """The part of the answer it commits to, when narrower than ``read``, what
    phrase evaluators read: the first sentence of a marker's answer, or the
    concluding sentence of an answer without one or of a correction that
    replaced it ("Wait, no — Ag is gold. Silver is Au."), from its last turn on."""
    loc = reading.loc
    if reading.fixed is not None:
        if read is not reading.fixed.segment:
            return None
        text = _BRACKETED_CLAUSE.split(conclusion(read), 1)[0]
    elif loc.how == "box":
        return None
    elif loc.how == "whole":  # its concluding sentence, before a clause in brackets
        text = _BRACKETED_CLAUSE.split(conclusion(loc.segment), 1)[0]
    else:  # the answer's first sentence, before a remark after a dash or in brackets
        parts = sentences(loc.segment)
        text = _REMARK.split(parts[0], 1)[0] if parts else ""
    turns = list(_TURN.finditer(text))
    if turns and turns[-1].end() < len(text):
        text = text[turns[-1].end() :]
    return text if text.strip() != read.strip() else None


# A remark after the answer: after a spaced dash, or a clause in brackets (a
# name or two there is the answer's other name: "Old Bridge (Ponte Vecchio)").
_BRACKETED_CLAUSE = re.compile(r"[ \t]*[(\[](?=[ \t]*(?:[^\s()\[\]]+[ \t]+){2}[^\s()\[\]])")
_REMARK = re.compile(r"[ \t]+[—–-][ \t]+|" + _BRACKETED_CLAUSE.pattern)


def _settled_elsewhere(
    reading: Reading, found: Callable[[Answer], bool], keys: list[str]
) -> str | None:
    """A name the answer commits to in place of the keys it mentions only
    elsewhere ("At first I suspected Handel. ... this is pure Bach.", "It looks
    like Sydney, yet the skyline is Melbourne's"): the keys are found in the
    text read, not in the committed part, and that part names another
    capitalised name. Two readings (all the text, the committed part) then
    disagree, and only a reader can weigh them ("This is Kyoto. The temple is
    Kinkaku-ji" names a part of the key): the verdict stands, unsure. Returns
    the rival name, a place first where the keys are places."""
    if not all(k[:1].isupper() for k in keys):
        return None  # names against names: "oak" has no capitalised rival
    read = _phrase_text(reading.loc)
    fixed = reading.fixed
    if fixed is not None and (found(Answer(fixed.segment)) or firm(fixed)):
        read = fixed.segment  # (what _phrase_answer read)
    if len(read) > _FEW_SENTENCES * 200:
        return None  # a long answer's last sentence is as often a remark
    text = _committed(reading, read)
    if text is None:
        return None
    lowered = text.lower()
    if any(k.lower() in lowered for k in keys):
        return None  # (the usual case, told without folding: the key is in it)
    if len(sentences(read)) > _FEW_SENTENCES or found(Answer(text)):
        return None
    return _rival(text, keys)


# An answer that says it cannot choose ("I can't decide", "hard to tell which").
_UNDECIDED = re.compile(
    r"\b(?:can't|cannot|can not|couldn't) (?:decide|choose|tell which|say which)"
    r"|\b(?:not sure|unsure|undecided|torn) (?:which|whether|between)|\bhard to (?:tell|say) which\b",
    re.IGNORECASE,
)


def _undecided(text: str) -> bool:
    # (substring tests first: the regex opens with an alternation tried everywhere)
    return any(w in text for w in ("decide", "choose", "which", "whether", "between")) and bool(
        _UNDECIDED.search(text)
    )


def _rival(text: str, keys: list[str]) -> str | None:
    """A capitalised name of ``text`` other than the keys and their other names,
    a place first where the keys are places."""
    from scorers.evaluate.strict import names

    folded_keys = [fold_phrase(k) for k in keys]
    kept = drop_excluded(text).strip(" \t*_.[(")
    places = all(names.place_of(k) != (None, None) for k in keys)
    rival = None
    for m in _CAPITALISED.finditer(kept):
        name = fold_phrase(m.group())
        if name.startswith("the "):
            name = name[4:]
        if name in _SKIP_WORDS or any(k in name or name in k for k in folded_keys):
            continue
        if m.start() == 0 and m.end() < len(kept):
            continue  # a capital that opens a sentence ("Note: ...", "Definitely a shark")
        if any(name in names.alternatives(k) for k in keys):
            continue
        if places and names.is_place(name):
            return m.group()
        rival = rival or m.group()
    return rival


_FEW_SENTENCES = 3


def missing_variants(groups: list[list[str]], missing: list[str]) -> list[str]:
    return [v for g in groups if g[0] in missing for v in g]


_FIRST_CLAUSE = re.compile(r"[;,.:(—–]")
_NEAR = 0.8  # difflib's ratio: "Chaikovsky" and "Tchaikovsky" are 0.95, "Paris" and "Pisa" 0.67
_NEAR_MIN = 5


def _near_spelling(answer: Answer, keys: list[str]) -> tuple[str, str] | None:
    """A phrase of a short answer spelled almost as a key ("Chaikovsky" for
    Tchaikovsky, "Kandinski" for Kandinsky): a transliteration or a misspelling
    that only a reader can tell from another name. Known places are other places."""
    from difflib import SequenceMatcher

    from scorers.evaluate.strict import names

    raw = answer.raw
    if len(answer.folded.split()) > _SHORT_ANSWER:
        stop = _FIRST_CLAUSE.search(raw)  # "Tschaikowsky; it premiered in ..."
        raw = raw[: stop.start()] if stop else raw
        if len(raw.split()) > _SHORT_ANSWER:
            return None
    # Names only: capitalised words of the answer, against keys that are names.
    words = fold_phrase(" ".join(m.group() for m in _CAPITALISED.finditer(raw))).split()
    for key in keys:
        folded = fold_phrase(key)
        size = len(folded.split())
        if (
            len(folded) < _NEAR_MIN
            or not key[:1].isupper()
            or not folded.replace(" ", "").isalpha()
        ):
            continue
        for at in range(len(words) - size + 1):
            phrase = " ".join(words[at : at + size])
            if phrase.startswith(folded) or folded.startswith(phrase) or len(phrase) < _NEAR_MIN:
                continue  # the key itself, or a word it begins (another rule's case)
            wider = " ".join(words[max(0, at - 1) : at + size + 1])
            if names.is_place(phrase) or any(names.is_place(w) for w in _spans_of(wider)):
                continue
            if SequenceMatcher(None, phrase, folded).ratio() >= _NEAR:
                return phrase, key
    return None


# Words many names are made with, which name nothing alone ("Lake", "Saint", "of").
_NAME_WORDS = frozenset((
    "lake", "mount", "mountain", "mountains", "river", "sea", "ocean", "bay", "gulf", "island",
    "islands", "isle", "city", "saint", "san", "santa", "st", "mt", "fort", "port", "new",
    "old", "north", "south", "east", "west", "northern", "southern", "eastern", "western",
    "upper", "lower", "great", "little", "grand", "united", "republic", "kingdom", "state",
    "states", "federal", "democratic", "people's", "university", "king", "queen", "prince",
    "princess", "sir", "lord", "lady", "emperor", "pope", "the", "of", "and", "de", "da", "di",
    "del", "du", "von", "van", "der", "den", "la", "le", "el", "al", "bin", "ibn",
))  # fmt: skip


_CLIP_MIN = 4  # letters of a clipped head ("hippo", "rhino", "photo", "exam")


def _clipped(answer: Answer, groups: list[list[str]], missing: Any) -> tuple[str, str] | None:
    """A word of a short answer that begins a one-word lower-case key not
    found, two or more letters short of it, whose rest is no word: perhaps its
    clipped form ("hippo"; "pine" begins the compound "pineapple"); names are
    not clipped so ("Congo" for Congo-Brazzaville)."""
    words = answer.folded.split()
    if len(words) > _SHORT_ANSWER:
        return None
    for group in groups:
        if group[0] not in missing:
            continue
        for key in group:
            folded = fold_phrase(key)
            if not (key[:1].islower() and folded.isalpha()) or len(folded) < _CLIP_MIN + 2:
                continue
            for word in words:
                word = word.strip(".,;:!?()'\"")
                rest = folded[len(word) :]
                if (
                    len(word) >= _CLIP_MIN
                    and len(rest) >= 2
                    and folded.startswith(word)
                    and not (len(rest) >= _CLIP_MIN - 1 and is_word(rest))
                ):
                    return word, key  # (not "pine" of "pineapple": a compound's first part)
    return None


def _part_of_name(answer: Answer, keys: list[str]) -> tuple[str, str, bool] | None:
    """A name in a short answer that shares a word of its own with a key of
    several words ("Gandhi" for Mahatma Gandhi, "Titicaca" for Lake Titicaca),
    not a known place of its own ("North Korea" for South Korea); and whether
    all its words are the key's."""
    from scorers.evaluate.strict import names

    raw = drop_excluded(answer.raw)
    if len(raw.split(maxsplit=_SHORT_ANSWER)) > _SHORT_ANSWER:
        return None
    for key in keys:
        words = fold_phrase(key).replace("-", " ").split()
        if len(words) < 2 or not key[:1].isupper():
            continue
        own = {w for w in words if len(w) > 2 and w not in _NAME_WORDS}
        for m in _CAPITALISED.finditer(raw):
            found = fold_phrase(m.group()).replace("-", " ").split()
            if not own.intersection(found) or own < set(found):
                continue  # (the key's own words and more: the key, which other rules weighed)
            phrase = " ".join(found).removeprefix("the ")
            if names.is_place(phrase) and phrase not in names.alternatives(key):
                continue  # another place that shares a word ("North Korea")
            return m.group(), key, all(w in words for w in found)
    return None


def _spans_of(text: str) -> list[str]:
    """The runs of two or more words of ``text``: the place names it may hold."""
    words = text.split()
    return [" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 2, len(words) + 1)]


# English adjectives of place names: the name, less a final vowel, and a suffix
# ("Iran" -> "Iranian", "Canada" -> "Canadian", "Mexico" -> "Mexican", "China" -> "Chinese").
_DEMONYM = re.compile(r"(?:ian|an|n|ese|ish|i|ic)")


def _adjective_of(answer: Answer, groups: list[list[str]]) -> str | None:
    """A capitalised word of the answer that is a key's adjective ("Incan"),
    not inside a place's own name ("the Dominican Republic" is no Dominica)."""
    from scorers.evaluate.strict import names

    stems = {v[:3].capitalize() for v in groups[0]} | {
        v.rpartition(" ")[2][:3].capitalize() for v in groups[0]
    }
    if not any(stem in answer.raw for stem in stems):
        return None  # (a substring test first: the adjective is capitalised, "Incan")
    for m in _CAPITALISED.finditer(drop_excluded(answer.raw)):
        phrase = fold_phrase(m.group())
        for v in groups[0]:
            # "Southeast Asian" for Southeast Asia: the name's last word made an adjective
            head, _, last = fold_phrase(v).rpartition(" ")
            if head and phrase.startswith(head + " ") and _demonym(phrase[len(head) + 1 :], last):
                return m.group()
        for word in m.group().split():
            if word[:3].capitalize() not in stems or not any(_demonym(word, v) for v in groups[0]):
                continue
            if " " in m.group() and names.is_place(fold_phrase(m.group()).removeprefix("the ")):
                break
            return word
    return None


def _demonym(word: str, key: str) -> bool:
    word, key = fold_phrase(word), fold_phrase(key)
    if " " in word or len(key) < 4 or word == key:
        return False  # (the name itself, hedged or ruled out, is no adjective of it)
    stems = {key, key[:-1]} if key[-1] in "aeiouy" else {key}
    return any(word.startswith(s) and _DEMONYM.fullmatch(word[len(s) :]) for s in stems)


def location_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "location_matching"
    _check_kwargs(name, kwargs)
    fine = _strings(name, "location_fine_grained", kwargs["location_fine_grained"])
    coarse = _strings(name, "location_coarse_grained", kwargs.get("location_coarse_grained", []))
    if not fine and not coarse:
        raise _fail(name, "no non-empty location candidate")
    fine_score = kwargs.get("fine_grained_score", 1.0)
    coarse_score = kwargs.get("coarse_grained_score", 0.5)
    for label, value in (
        ("fine_grained_score", fine_score),
        ("coarse_grained_score", coarse_score),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(name, f"{label} must be a number, got {value!r:.40}")
    answer, doubted = _phrase_answer(
        reading, lambda a: any(a.contains(c) for c in (*fine, *coarse))
    )
    uncertain = "a correction follows the final answer but names no candidate" if doubted else None
    if any(answer.contains(c) for c in fine):
        rival = None if uncertain else _settled_elsewhere(reading, _has_any(fine), fine)
        if rival is not None:
            uncertain = f"names the place outside what it commits to, which names '{rival}'"
        return Outcome(
            fine_score,
            answer.folded[:_EXTRACTED_CAP],
            note="fine-grained match",
            uncertain=uncertain,
        )
    if uncertain is None and (adjective := _adjective_of(answer, [fine])) is not None:
        # "a Southeast Asian country" for Southeast Asia, as for key items
        return Outcome(
            fine_score,
            answer.folded[:_EXTRACTED_CAP],
            note="the place's adjective",
            uncertain=f"'{adjective}' is the adjective of a candidate",
        )
    coarse_named = any(answer.contains(c) for c in coarse)
    if uncertain is None:
        # With the city right, an unknown name beside it may be the landmark's
        # own other name ("Karlův most, Prague" for Charles Bridge).
        unknown = _unknown_name(answer, fine, [*fine, *coarse], places_only=not coarse_named)
        if unknown is not None:
            uncertain = f"names '{unknown}', neither a candidate nor a known other name of one"
    if coarse_named:
        return Outcome(
            coarse_score,
            answer.folded[:_EXTRACTED_CAP],
            note="coarse-grained match",
            uncertain=uncertain,
        )
    return Outcome(
        _WRONG, answer.folded[:_EXTRACTED_CAP], note="no candidate named", uncertain=uncertain
    )


def _has_any(candidates: list[str]) -> Callable[[Answer], bool]:
    return lambda answer: any(answer.contains(c) for c in candidates)


def _letters(loc: Located, reading: Reading, single: bool) -> tuple[list[str], str | None]:
    """The option letters ``loc`` commits to: written as letters, else named by
    the options' text, and why a reading by text is unsure. Letters that are no
    option of the question are words ("the letter F"); the question is read only
    when that could matter. ``single``: the question takes one answer."""
    whole = loc.how == "whole"
    segment = drop_excluded(loc.segment)
    letters = choices.read_letters(segment, last=whole)
    if letters and all(x in _USUAL_OPTIONS for x in letters):
        return letters, None
    options = reading.options
    doubt = None
    if options:
        letters = [x for x in letters if x in options]
        if not letters and lower_labels(reading.question):
            letters = [
                x for x in choices.read_letters(segment, last=whole, lower=True) if x in options
            ]
        elif not letters and (end := _LOWER_LETTER_END.search(segment)):
            # "I believe b": an option's letter in lower case, ending the answer
            letters = [x for x in end.group(1).upper() if x in options]
        if not letters:
            # (the concluding sentence found before what it rules out is cut)
            text = drop_excluded(conclusion(loc.segment)) if whole else segment
            folded = fold_phrase(text)
            if single:
                letters, doubt = option_named_one(folded, options, reading.question)
            else:
                letters = option_named(folded, options)
            letters = letters or by_position(folded, options)
    return letters, doubt


def _settled_among(reading: Reading, read: frozenset[str]) -> frozenset[str] | None:
    """The one option of ``read`` that a marker's paragraph concludes with, when
    its first sentence named several."""
    loc = reading.loc
    if reading.fixed is not None or loc.how != "marker":
        return None
    last = conclusion(loc.segment)
    if last == loc.segment.strip():
        return None
    chosen = frozenset(choices.read_letters(drop_excluded(last), last=True))
    return chosen if len(chosen) == 1 and chosen <= read else None


# "... so B. Note that C would be Venus.", "... so B. If it asked for the largest, D
# would be right.": after a sentence that commits, a last sentence that speaks of an
# option as a supposition (a modal with the letter as its subject or under "if"), or
# an aside opened by "note", is a remark, unless it takes the choice back.
_CONCLUDES = re.compile(r"\b(?:so|therefore|thus|hence|answer|choose|chose|pick|go with)\b", re.I)
_SUPPOSED = re.compile(
    r"^(?:note|notice|nb|by the way|incidentally)\b"
    r"|\b[A-H] (?:would|could|might)\b"
    r"|\b(?:if|unless|otherwise|had)\b.*\b(?:would|could|might)\b"
    r"|\b(?:would|could|might)\b.*\b(?:if|unless|otherwise)\b",
    re.I,
)
_TAKES_BACK = re.compile(
    r"\b(?:actually|wait|instead|rather|correct(?:ion|ed)?|mistake|sorry|oops|re-?read|final)\b",
    re.I,
)


def _before_supposition(loc: Located) -> Located | None:
    """An answer without a marker less a closing supposition about another option,
    when the sentence before it commits (see ``_SUPPOSED``)."""
    if loc.how != "whole":
        return None
    parts = sentences(loc.segment)
    if len(parts) < 2:
        return None
    last = parts[-1]
    if not _SUPPOSED.search(last) or _TAKES_BACK.search(last):
        return None
    at = loc.segment.rstrip().rfind(last)
    body = loc.segment[:at].rstrip() if at > 0 else ""
    if not body or not _CONCLUDES.search(conclusion(body)):
        return None
    return Located("whole", body, body)


def _remark_passed(reading: Reading) -> Reading | None:
    """The reading of an answer without a marker less its closing remark
    (``before_remark``), for an evaluator that found nothing of its kind in it."""
    loc, fixed = reading.loc, reading.fixed
    if fixed is not None:
        # a correction read as a conclusion ("Oops ... The order is D, C, B, A. ...")
        body = before_remark(fixed.segment)
        fixed = None if body is None else fixed._replace(segment=body)
        if fixed is None:
            return None
    elif loc.how == "whole" and (body := before_remark(loc.segment)) is not None:
        loc = Located("whole", body, body)
    else:
        return None
    return Reading(loc, fixed, reading.raw_question, reading.raw_final)


_USUAL_OPTIONS = frozenset("ABCD")
_LOWER_LETTER_END = re.compile(r"(?:^|[ \t:(])([a-h])\)?[.!]?[ \t]*\Z")
# An answer that declines or rules everything out names no option on purpose.
_DECLINES = re.compile(r"\b(?:none|neither|cannot|can't|unable|not|no|unclear|impossible)\b", re.I)


def _names_none(reading: Reading) -> str | None:
    """Why a verdict is unsure when the answer names no option of a question
    that lists some, in words of its own ("It's circular" for "a circle",
    "ping-pong" for "table tennis"): only a reader who knows the words can say."""
    if not reading.options:
        return None
    loc = reading.fixed or reading.loc
    text = conclusion(loc.segment) if loc.how == "whole" else loc.segment
    if not re.search(r"[^\W\d_]{3}", text) or _DECLINES.search(text):
        return None
    return f"names none of the options in their words ('{text.strip()[:60]}')"


_WORD = re.compile(r"[^\W\d_]{3}")
# A letter that opens a sentence about it ("A is tempting, yet ..."), not its option's dress.
_TALKED_ABOUT = re.compile(r"[A-Z] (?:is|was|seems|looks|might|may|could|would)\b")
_SHORT_WHOLE = 80


def _text_disagrees(
    reading: Reading, read: frozenset[str], loc: Located | None = None
) -> str | None:
    """Why a letter is unsure when the answer also names another option by its
    whole text ("Rabat (option D)" where Rabat is C): the two readings disagree."""
    loc = loc or reading.fixed or reading.loc
    if len(loc.segment) > _SHORT_WHOLE:
        return None  # a long answer's letters are read from its end, often after its reasons
    segment = conclusion(loc.segment) if loc.how == "whole" else loc.segment
    head = segment.lstrip(" \t*_([")
    if head[:1] in read and not _TALKED_ABOUT.match(head):
        return None  # "C) towel", the usual dress: the letter first, then its text
    if not _WORD.search(segment) or not reading.options:
        return None
    named = option_named(fold_phrase(drop_excluded(segment)), reading.options)
    if len(named) == 1 and named[0] not in read and len(reading.options[named[0]]) > 2:
        return f"names option {''.join(read)} by letter but {named[0]} by its text"
    return None


def choices_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    if reading.fixed is None and reading.loc.how == "whole":
        # An answer that goes on to repeat the question's options ("'B': 'x'\n
        # 'A': ..., 'B': ..., 'E': ...") would name the last option, read at its end.
        stated = without_echo(reading.loc.segment, reading.question)
        if stated is not reading.loc.segment:
            head = Reading(
                Located("whole", stated, stated), None, reading.raw_question, reading.raw_final
            )
            outcome = _choices(kwargs, head)
            reading.used |= head.used
            return outcome
    return _choices(kwargs, reading)


def _choices(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "choices_matching"
    _check_kwargs(name, kwargs)
    label = kwargs["label"]
    expected = choices.read_label(label) if isinstance(label, str) else None
    if expected is None:
        raise _fail(name, f"label must be option letters such as 'B' or 'A,C', got {label!r:.40}")
    letters: list[str] = []
    doubt = None
    single = len(expected) == 1
    if reading.fixed is not None:
        letters, doubt = _letters(reading.fixed, reading, single)
    read_in: Located | None = None  # the part of the answer read, when not all of it
    if not letters:
        letters, doubt = _letters(reading.loc, reading, single)
        if letters and reading.fixed is None and (body := _before_supposition(reading.loc)):
            committed, why = _letters(body, reading, single)
            if len(set(committed)) == 1 and not set(committed) <= set(letters):
                letters, doubt, read_in = committed, why, body
    read = frozenset(letters)
    extracted = "".join(sorted(read))
    if not read and (retry := _remark_passed(reading)) is not None:
        # "... Between them lies the Indian Ocean. This matches the question.":
        # a closing remark that names no option is passed over.
        outcome = _choices(kwargs, retry)
        reading.used |= retry.used
        if outcome.extracted:
            # (unsure: a reader may find the option named in the last sentence's words)
            why = outcome.uncertain or "its last sentence names no option; the one before is read"
            return dataclasses.replace(outcome, uncertain=why)
    if not read:
        return Outcome(_WRONG, "", note="no option letter found", uncertain=_names_none(reading))
    if len(read) == 1 and choices.kept_open(reading.loc.segment, read):
        return Outcome(_WRONG, extracted, note="another option kept open")
    if doubt is None and len(read) == 1:
        doubt = _text_disagrees(reading, read, read_in)
    if read == expected:
        return Outcome(_RIGHT, extracted, uncertain=doubt)
    if single and (copy := _same_text(reading, read | expected)) is not None:
        # "(B) 6 kmph" where E is "6 kmph" too: the question lists one answer
        # twice, and the letter names it; which copy the key meant only a reader can weigh.
        return Outcome(_RIGHT, extracted, uncertain=f"options {copy} have the same text")
    if len(expected) == 1 and len(read) > 1 and (settled := _settled_among(reading, read)):
        # "Answer: I'm between B and C. ... which settles it: C.": the paragraph
        # goes on to choose one of the options its first sentence weighed.
        read, extracted = settled, "".join(settled)
        if read == expected:
            return Outcome(_RIGHT, extracted)
    if len(expected) == 1 and len(read) > 1:
        return Outcome(_WRONG, extracted, note=f"names {len(read)} options")
    return Outcome(_WRONG, extracted, uncertain=doubt)


def _same_text(reading: Reading, letters: frozenset[str]) -> str | None:
    """The letters, joined, when the question gives each of them the same text."""
    options = reading.options
    if not options or not letters <= options.keys():
        return None
    texts = {fold_phrase(options[x]) for x in letters}
    return "".join(sorted(letters)) if len(texts) == 1 and "" not in texts else None


def _target(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise _fail(name, f"value_to_match must be a number, got {value!r}")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise _fail(name, f"value_to_match must be finite, got {value!r}")
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip().replace(",", ""))
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
    raise _fail(name, f"value_to_match must be a number, got {value!r:.40}")


def _tolerance(target: Any, value: float) -> float:
    # The reference's semantics by JSON type, kept: a float target was written
    # as an estimate (10 % relative band), an int as a count (1e-3 absolute).
    # The fix is at the edges: a float 0.0 is matched exactly, bands are
    # inclusive, and a 1e-9 relative slack absorbs binary rounding so that
    # decimals decide (3.001 vs 3 passes, 3.0011 does not).
    band = 0.1 * abs(value) if isinstance(target, float) else 0.001
    return band + 1e-9 * max(1.0, abs(value))


def _read_number(reading: Reading) -> tuple[Number | None, str, Located, list[Number]]:
    """The stated number, from a correction after the final answer if it has one,
    and, for an answer without a marker, the other numbers its sentence states
    beside it (rivals when they grade differently)."""
    for loc in (reading.fixed, reading.loc):
        if loc is None:
            continue
        segment = drop_excluded(loc.segment)
        number, text = pick_number(segment, last=loc.how == "whole")
        if number is not None:
            rivals: list[Number] = []
            if loc.how == "whole":
                number, rivals = _in_asked_unit(number, text, reading)
            elif (again := _RESTATED.search(text, number.end, number.end + _RESTATED_REACH)) and (
                found := find_numbers(text[again.end() :])
            ):
                rivals = found[:1]  # "Answer: 149.6 million km, so about 150."
            return number, text, loc, rivals
    return None, "", reading.loc, []


# A stated number restated right after it: "42.195 km, i.e. 42.2", "149.6 million, so about 150".
_RESTATED = re.compile(
    r"[,;]?[ \t]+(?:i\.[ \t]?e\.|that is|or|(?:so|thus|hence)[ \t,]+(?:about|around|roughly"
    r"|approximately|nearly|≈|~))[ \t,]+(?=\D{0,16}\d)"
)
_RESTATED_REACH = 40
_DIGIT = re.compile(r"\d")
# The unit a question asks its number in, at its end ("..., in °C?", "(in km)"),
# or the thing it counts ("How many eggs ...", "How much flour ...").
_ASKED_UNIT = re.compile(r"\bin[ \t]+(°[ \t]?[CFK]|%|[^\W\d_]{1,3})[ \t]*\)?[ \t]*[?.]?[ \t]*$")
_ASKED_NOUN = re.compile(r"\bhow[ \t]+(?:many|much)[ \t]+([^\W\d_]{3,})", re.IGNORECASE)
# A question that asks for a year, or for a share.
_ASKED_YEAR = re.compile(r"\b(?:what|which)[ \t]+year\b|^[ \t]*when\b", re.IGNORECASE)
_ASKED_SHARE = re.compile(r"\b(?:what|which)[ \t]+(?:percentage|percent|share)\b|%", re.IGNORECASE)
# Where a sentence settles its number: after an equals sign or a conclusion
# ("3 on the left and 2 on the right, so 5"); the numbers before it lead there.
_SETTLES = re.compile(
    r"=|≈|→|\b(?:so|therefore|thus|hence|total|totals|makes|making|gives|giving|but|yet|however"
    r"|instead|is|are|was|were|equals)\b",
    re.IGNORECASE,
)
# A later sentence concludes with its number after one of these, not after a
# mere "is" ("There are 3 rows of 6 chairs" explains).
_CONCLUDES = re.compile(
    r"=|≈|→|\b(?:so|therefore|thus|hence|total|makes|making|gives|giving|instead)\b", re.IGNORECASE
)
# (a period after a one-letter word abbreviates: "i.e.", "e.g.")
_SENTENCE_END = re.compile(r"(?<!\b[^\W\d_])[.;!?](?:\s|$)|\n")
_SENTENCE_REACH = 300
_ENDS = (". ", ".\n", "! ", "? ", "\n")
_WORD_AFTER = re.compile(r"[ \t]*[^\W\d_]")


def _sentence_of(text: str, number: Number) -> tuple[int, int]:
    """The bounds of the sentence holding ``number`` (a period after a one-letter
    word abbreviates: "i.e.", "e.g."), looked for within a few hundred characters."""
    lo = start = max(0, number.start - _SENTENCE_REACH)
    at = number.start
    while at > lo:
        at = max(text.rfind(e, lo, at) for e in _ENDS)
        if at < 0:
            break
        if not _ABBREVIATES.match(text, max(0, at - 2)):
            start = at + 1
            break
    hi = min(len(text), number.end + _SENTENCE_REACH)
    end = hi
    at = number.end
    while at < hi:
        found = [i for i in (text.find(e, at, hi) for e in _ENDS) if i >= 0]
        if not found:
            break
        at = min(found)
        if not _ABBREVIATES.match(text, max(0, at - 2)):
            end = at
            break
        at += 1
    return start, end


_ABBREVIATES = re.compile(r"(?:^|\W)[^\W\d_]\.")


def _in_asked_unit(number: Number, text: str, reading: Reading) -> tuple[Number, list[Number]]:
    """Without a marker the last number is read, unless the question asks for a
    unit or a thing that only another number of the answer carries ("About
    −89.2 °C, measured in 1983" for "..., in °C?"; "8 legs and 2 body segments"
    for "How many legs ...?"): that one is the answer, the others remarks. Else
    the other numbers of its sentence, after where it settles and outside
    brackets, are returned: read another way, the answer states one of them
    ("3 eggs for every 250 g of flour"). The question is read only when the
    answer holds another number (outcomes that read it are remembered by its text)."""
    if _DIGIT.search(text, 0, number.start) is None and _DIGIT.search(text, number.end) is None:
        if _DIGIT.search(text) is not None or numbers.LARGE_WORD.search(text):
            return number, []
        # Number words only ("Five, one per region"): the other words of its sentence.
        start, end = _sentence_of(text, number)
        asides = [p.span() for p in _PAREN.finditer(text, start, end)] if "(" in text else []
        rivals = [
            n
            for n in numbers.word_numbers(text, start, end)
            if n.start != number.start and not any(s <= n.start < e for s, e in asides)
        ]
        if not rivals:
            return number, []
        return _asked_one(number, rivals, text, reading)
    question = reading.question
    first_line = question[: question.find("\n")] if "\n" in question else question
    m = _ASKED_UNIT.search(first_line.rstrip()[-24:])  # (its end only)
    if m is None and len(text) > _FEW_SENTENCES * 200:
        return number, []  # a long answer's last sentence is as often a remark: not weighed
    start, end = _sentence_of(text, number)
    if m is None and not (
        _DIGIT.search(text, start, number.start) or _DIGIT.search(text, number.end, end)
    ):
        return number, []
    # The other numbers of its sentence, from where it settles on, outside brackets.
    for settle in _SETTLES.finditer(text, start, number.start):
        start = settle.end()
    asides = (
        [(p.start(), p.end()) for p in _PAREN.finditer(text, start, end)] if "(" in text else []
    )
    rivals = [
        n._replace(start=n.start + start, end=n.end + start)
        for n in find_numbers(text[start:end])
        if n.start + start != number.start
        and not any(s <= n.start + start and n.end + start <= e for s, e in asides)
    ]
    if m is not None:
        unit = m.group(1).replace(" ", "")
        carrying = [
            n
            for n in find_numbers(text)
            if text[n.end : n.end + 12].replace(" ", "").startswith(unit)
        ]
        return (carrying[0], []) if len(carrying) == 1 else (number, rivals)
    if not rivals:
        return number, []
    return _asked_one(number, rivals, text, reading)


def _asked_one(
    number: Number, rivals: list[Number], text: str, reading: Reading
) -> tuple[Number, list[Number]]:
    """The one number of a sentence that carries what the question counts, a
    year or a share it asks for; else ``number`` with its rivals."""
    question = reading.question
    first_line = question[: question.find("\n")] if "\n" in question else question
    if (m := _ASKED_NOUN.search(first_line)) is not None:
        stem = m.group(1)[:3].lower()
        if not all(_WORD_AFTER.match(text, n.end) for n in [number, *rivals]):
            return number, rivals  # a bare number may count the same thing ("206 bones; ... 270")

        def carries(n: Number) -> bool:
            return text[n.end : n.end + 12].lstrip(" \t").lower().startswith(stem)

    elif _ASKED_YEAR.search(first_line) is not None:

        def carries(n: Number) -> bool:  # a year: four digits, whole
            return 1000 <= n.value < 3000 and n.value == int(n.value) and not n.percent

    elif _ASKED_SHARE.search(first_line) is not None:

        def carries(n: Number) -> bool:
            return n.percent

    else:
        return number, rivals
    carrying = [n for n in [number, *rivals] if carries(n)]
    if len(carrying) == 1:
        return carrying[0], []
    return number, rivals


_PAREN = re.compile(r"\([^()\n]*\)")


def _later_number(reading: Reading) -> Number | None:
    """A number the text after a marker's answer concludes with, in a sentence
    that settles on it ("Final Answer: 14 ... so the real total is 12"): read
    that way, the answer was revised without a cue to say so."""
    loc = reading.loc
    if loc.how != "marker" or reading.fixed is not None:
        return None
    at = loc.tail.find(loc.segment)
    after = loc.tail[at + len(loc.segment) :] if at >= 0 else ""
    if _DIGIT.search(after) is None or _CONCLUDES.search(after) is None:
        return None
    number, text = pick_number(drop_excluded(after), last=True)
    if number is None or _PAREN.search(text[number.end : number.end + 1] + "x"):
        return None
    start = 0
    for end in _SENTENCE_END.finditer(text, 0, number.start):
        start = end.end()
    if _CONCLUDES.search(text, start, number.start) is None:
        return None
    return number


def number_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "number_matching"
    _check_kwargs(name, kwargs)
    raw_target = kwargs["value_to_match"]
    target = _target(name, raw_target)
    number, text, _, rivals = _read_number(reading)
    if number is None:
        return Outcome(_WRONG, "", note="no number found")
    if number.other is None:
        # Only a lone group's two readings need the question or the answer's
        # language; not reading them lets the memo key this outcome by the answer.
        number, doubt = resolve_number(number, text, "")
    else:
        number, doubt = resolve_number(
            number, text, reading.question, (reading.final[-_CONTEXT:], reading.question)
        )
    extracted = canonical(number.value, number.percent)
    if number_doubt(number, text):
        return Outcome(_WRONG, extracted, note="two values offered")
    kind = raw_target
    if isinstance(raw_target, str):  # "2.5" is written as an estimate, "3" as a count
        kind = target if any(c in raw_target for c in ".eE") else 0
    tolerance = _tolerance(kind, target)

    percent = number.percent
    # "How many people (in millions)?": "14 Mio." or "14,000,000" is 14 of them.
    scale = 1.0
    if any(
        abs(value - target) > tolerance
        and any(abs(value / s - target) <= tolerance for s in _SCALES.values())
        for value in (number.value, number.other)
        if value is not None
    ):
        scale = _asked_scale(reading.question)  # (read only when a scale would match)

    def right(value: float) -> bool:
        return (
            abs(value - target) <= tolerance
            or (percent and abs(value / 100 - target) <= tolerance)
            or (scale > 1 and abs(value / scale - target) <= tolerance)
        )

    uncertain = None
    rival = next((n for n in rivals if right(n.value) != right(number.value)), None)
    if rival is not None:
        # Read another way, the sentence states another number: only a reader can tell.
        uncertain = f"its sentence also states {canonical(rival.value, rival.percent)}"
    elif (later := _later_number(reading)) is not None and right(later.value) != right(
        number.value
    ):
        uncertain = f"the text after it settles on {canonical(later.value, later.percent)}"
    if number.other is not None and right(number.value) != right(number.other):
        if doubt is not None:
            uncertain = doubt
        elif right(number.other):
            # Only the reading of the other convention matches and nothing
            # settles which the answer uses: read it, unsure.
            written = text[number.start : number.end].strip()
            uncertain = f"'{written}' matches only as {number.other:g}, in the other convention"
            number = number._replace(value=number.other)
            extracted = canonical(number.value, number.percent)
    if abs(number.value - target) <= tolerance:
        if uncertain is None and (units := _other_unit(number, text, reading)):
            uncertain = f"the number is right, but stated in {units[0]}, asked in {units[1]}"
        if (
            uncertain is None
            and _BOUND.search(text[max(0, number.start - _BOUND_REACH) : number.start])
            and not _ASKED_BOUND.search(reading.question or "")
        ):
            uncertain = "states a bound, not the value"  # "at least 12" for "How many ...?"
        return Outcome(_RIGHT, extracted, uncertain=uncertain)
    if uncertain is None and (figures := _rounds_to(number, text, target)):
        # "≈ 3.84·10⁵ km" for 384,400: exact, it is another number; read to the
        # precision it states, it is the value.
        uncertain = f"an approximation to {figures} significant figures that the value rounds to"
    if scale > 1 and abs(number.value / scale - target) <= tolerance:
        return Outcome(_RIGHT, extracted, note="read in the question's unit", uncertain=uncertain)
    if number.percent and abs(number.value / 100 - target) <= tolerance:
        return Outcome(_RIGHT, extracted, note="percent read as a fraction", uncertain=uncertain)
    if uncertain is None and (units := _other_unit(number, text, reading)):
        stated, asked, factor = units
        if right(number.value * factor):
            # "12,000 m" for "How long is the trail, in km?": the same quantity in
            # another unit; a reader may hold the answer to the unit asked.
            return Outcome(_RIGHT, extracted, uncertain=f"stated in {stated}, asked in {asked}")
    if uncertain is None and (converted := _converted(number, text, reading, target)):
        # "about 1670 kilometers per hour" for 460 (m/s): a question that names no
        # unit leaves the key's unit unknown; only a reader knows it is m/s.
        return Outcome(_RIGHT, extracted, uncertain=converted)
    return Outcome(_WRONG, extracted, uncertain=uncertain)


_UNIT_AFTER = re.compile(r"[ \t\u00a0]*([^\W\d_]+(?:/[^\W\d_]+)?)")
_UNIT_PER = re.compile(r"[ \t\u00a0]*([^\W\d_]+[ \t]+per[ \t]+[^\W\d_]+)")


def _figures(value: int) -> int:
    """Significant figures of a whole number as written (460: 2)."""
    digits = str(abs(value)).rstrip("0")
    return max(1, len(digits))


def _converted(number: Number, text: str, reading: Reading, target: float) -> str | None:
    """Why the number is the key read in another unit of its dimension, when it
    is stated with a unit, the question names none, and the key is a whole
    number that the converted value rounds to at the key's own figures
    ("1670 kilometers per hour" is 463.9 m/s, 460 to two figures)."""
    if not target or target != int(target) or not isinstance(target, (int, float)):
        return None
    found = _stated_unit(number, text, per=True)
    if found is None or _asked_unit(reading.question) is not None:
        return None  # (a unit asked for is read by _other_unit)
    written, stated = found
    from scorers.evaluate.mathmatch.units import units_of

    figures = _figures(int(target))
    for unit in units_of(stated.dimension):
        if unit.factor == stated.factor:
            continue
        value = number.value * float(stated.factor / unit.factor)
        if value and round(value, figures - 1 - math.floor(math.log10(abs(value)))) == target:
            return f"{written} read in {unit.name} is {value:.4g}, the key to its figures"
    return None


# The unit a question asks in, spelt out: "..., in grams?", "How many hours ...".
_ASKED_IN_REACH = 40
_ASKED_IN = re.compile(r"\bin[ \t]+([^\W\d_]+(?:/[^\W\d_]+)?)[ \t]*\)?[ \t]*[?.]?[ \t]*$")


def _other_unit(number: Number, text: str, reading: Reading) -> tuple[str, str, float] | None:
    """(the unit written after the number, the unit the question asks in, the
    factor from the first to the second) when both are units of one dimension
    and differ ("12,000 m" for "..., in km?"). The question is read only when a
    unit follows the number."""
    found = _stated_unit(number, text)
    if found is None:
        return None
    asked = _asked_unit(reading.question)
    if asked is None:
        return None
    from scorers.evaluate.mathmatch.units import lookup

    written, stated = found
    wanted = lookup(asked.group(1))
    if wanted is None or stated.dimension != wanted.dimension or stated.factor == wanted.factor:
        return None
    return written, asked.group(1), float(stated.factor / wanted.factor)


def _stated_unit(number: Number, text: str, *, per: bool = False) -> tuple[str, Unit] | None:
    """The unit written right after the number (``per``: "kilometers per hour"
    read whole) and what it is, unless it only counts things."""
    after = (per and _UNIT_PER.match(text, number.end)) or _UNIT_AFTER.match(text, number.end)
    if after is None:
        return None
    from scorers.evaluate.mathmatch.units import lookup

    stated = lookup(after.group(1))
    if stated is None or stated.dimension == "count":
        return None
    return after.group(1), stated


def _asked_unit(question: str) -> re.Match[str] | None:
    """The unit a question asks in ("..., in grams?", "How many hours ...")."""
    return _ASKED_IN.search(question[-_ASKED_IN_REACH:]) or _ASKED_NOUN.search(question)


# "at least 12", "no more than 12": a bound right before the number; right
# when the question asks for one ("What is the least number ...?").
_BOUND = re.compile(
    r"\b(?:at[ \t]+(?:least|most)|no[ \t]+(?:more|less|fewer)[ \t]+than|(?:more|less|fewer|greater)"
    r"[ \t]+than|over|under|up[ \t]+to)[ \t]*$",
    re.IGNORECASE,
)
_BOUND_REACH = 24
_ASKED_BOUND = re.compile(r"\b(?:least|most|minimum|maximum|fewest|at[ \t]+(?:least|most))\b", re.I)


# An answer that says it approximates: "≈ 3.84·10⁵", "about 384,000", "roughly 3.8 million".
_APPROXIMATE = re.compile(
    r"(?:≈|~|\\approx|\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|ca\.))"
    r"[ \t]*$",
    re.IGNORECASE,
)
_MANTISSA = re.compile(r"[\d.,' \u00a0\u202f]+")
_FIGURES_MIN = 3  # fewer figures than this say too little to be read this way ("about 20")


def _rounds_to(number: Number, text: str, target: float) -> int:
    """The significant figures of an approximate number the target rounds to, else 0."""
    if not number.value or not _APPROXIMATE.search(text, max(0, number.start - 16), number.start):
        return 0
    mantissa = _MANTISSA.match(text, number.start)
    digits = re.sub(r"\D", "", mantissa.group()).lstrip("0").rstrip("0") if mantissa else ""
    figures = len(digits)
    if figures < _FIGURES_MIN:
        return 0
    unit = 10 ** (math.floor(math.log10(abs(number.value))) - figures + 1)
    return figures if abs(target - number.value) <= unit / 2 * (1 + 1e-9) else 0


_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_ASKED_SCALE = re.compile(
    r"\b(?:in|of)[ \t]+(thousand|million|billion)s\b|\((thousand|million|billion)s\)"
)


def _asked_scale(question: str) -> float:
    """The scale a question counts in ("in millions", "(thousands)"), else 1."""
    if "illion" not in question and "housand" not in question:
        return 1.0
    m = _ASKED_SCALE.search(question.lower())
    return 1.0 if m is None else _SCALES[m.group(1) or m.group(2)]


_LEAD_WORD = re.compile(r"\b(?:so|therefore|thus|hence)\b,?")
_ORDER_IS = re.compile(r"\b(?:order|sequence|ranking) (?:is|would be|should be)\b,?")


def _list_lead(segment: str) -> int:
    """Where a list after the last colon, "so"/"therefore"/"thus"/"hence" or
    "the order is" begins, else 0 (one linear scan)."""
    lead = segment.rfind(":") + 1
    for m in _LEAD_WORD.finditer(segment, lead):
        lead = m.end()
    if "order" in segment or "sequence" in segment or "ranking" in segment:
        for m in _ORDER_IS.finditer(segment, lead):
            lead = m.end()
    return lead


def _last_block(text: str) -> str:
    """The last paragraph of ``text`` with its lines and sentences as list
    items ("The tiniest is the mouse. The cat is bigger. Then the horse."),
    when it has several, else ""."""
    parts = sentences(text.strip().rsplit("\n\n", 1)[-1])
    # A line's remark after a spaced dash ("2) K2 – 8611 m") is no item.
    parts = [_DASH_REMARK.sub("", p) for p in parts]
    return "; ".join(parts) if len(parts) > 1 else ""


def _numbered_heads(text: str, expected: list[str]) -> str:
    """The heads of the items of the one list numbered 1 to n at the starts of
    lines, as many as ``expected`` (each up to a colon or the line's end),
    joined as list items, else "". A head that names no item but gives its
    other name in brackets ("Network Interface Layer (also called Link Layer)")
    is read as that name."""
    heads = [(int(m.group(1)), m.group(2)) for m in _NUMBERED_LINE.finditer(text)]
    if [n for n, _ in heads] != list(range(1, len(expected) + 1)):
        return ""
    items = [fold_phrase(x) for x in expected]
    out = []
    for _, head in heads:
        head = _DASH_REMARK.sub("", _DRESS_MARKS.sub("", head)).strip()
        main, _, aside = head.partition("(")
        other = _ALSO_CALLED.match(aside)
        if other and not _names_any(main, items) and _names_any(other.group(1), items):
            head = other.group(1)
        out.append(head)
    return "; ".join(out)


def _names_any(text: str, items: list[str]) -> bool:
    folded = f" {fold_phrase(text)} "
    return any(f" {item} " in folded for item in items)


_ALSO_CALLED = re.compile(
    r"(?:also |often |sometimes )?(?:called|known as|named|aka|or)[ \t]+([^()]+)\)"
)


_NUMBERED_LINE = re.compile(r"^[ \t]{0,3}(\d{1,2})[.)][ \t]+([^\n:：]{1,120})", re.MULTILINE)
_DRESS_MARKS = re.compile(r"[*_`#]+")
_DASH_REMARK = re.compile(r"[ \t]+[—–-][ \t]+[^\n]{0,200}$")


def _mentioned_order(
    reading: Reading, segment: str, expected: list[str], asked: tuple[str, str] | None
) -> mentions.Reading | None:
    """The order of the items' mentions in the stated answer, else in the last
    paragraph of an answer without a marker, from the end the question asks."""
    asked = asked or reading.asked_ends
    texts = [segment]
    loc = reading.fixed or reading.loc
    if loc.how == "whole":
        texts.append(drop_excluded(loc.segment.strip().rsplit("\n\n", 1)[-1]))
    for text in texts:
        said = mentions.read(text, expected, reading.options, asked)
        if said is not None:
            if asked is not None and from_other_end(text, asked):
                said = said._replace(order=said.order[::-1])
            return said
    return None


def ordered_list_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    outcome = _ordered_list(kwargs, reading)
    items = _order_items(kwargs)
    if (
        outcome.score == _RIGHT
        or outcome.extracted.count(", ") + 1 == len(items)  # a list of its own, wrong
        or (retry := _remark_passed(reading)) is None
    ):
        return outcome
    read, passed = reading.fixed or reading.loc, retry.fixed or retry.loc
    remark = f" {fold_phrase(read.segment[len(passed.segment) :])} "
    if any(f" {fold_phrase(str(x))} " in remark for x in items):
        return outcome  # it names an item: no remark
    # "Red, orange, green, blue. This matches the question.": the list before a
    # closing remark that names no item.
    other = _ordered_list(kwargs, retry)
    reading.used |= retry.used
    return other if other.score == _RIGHT else outcome


def _order_items(kwargs: Mapping[str, Any]) -> list[Any]:
    order = kwargs.get("order")
    return order.split(",") if isinstance(order, str) else list(order or [])


def _ordered_list(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "ordered_list_matching"
    _check_kwargs(name, kwargs)
    order = kwargs["order"]
    if isinstance(order, str):
        parts = [p.strip() for p in order.replace("，", ",").split(",")]
        if len(parts) == 1 and parts[0].isalpha() and parts[0].isupper() and len(parts[0]) > 1:
            parts = list(parts[0])
        items = parts
    elif isinstance(order, list) and all(type(x) in (str, int) for x in order):
        items = [x.strip() if type(x) is str else str(x) for x in order]
    else:
        raise _fail(name, f"order must be a list of strings or a string, got {order!r:.60}")
    if not items or not all(items):
        raise _fail(name, "order is empty or has an empty item")
    expected = orders.read_order(items)
    asked: tuple[str, str] | None = None
    got: list[str] = []
    turned = False  # the list was read from the end its direction words say
    for loc in (reading.fixed, reading.loc):
        if loc is None:
            continue
        whole = orders.untable(loc.segment)
        segment = drop_excluded(conclusion(whole) if loc.how == "whole" else whole)
        got = orders.read_list(segment, expected, lambda: reading.options, None)
        if got != expected:  # the question's ends, read only when they may matter
            asked = reading.asked_ends
            if asked is not None:
                got = orders.read_list(segment, expected, lambda: reading.options, asked)
        if len(got) != len(expected) and (lead := _list_lead(segment)) > 0:
            # "I swapped the last two: A, C, B", "Mercury is closer, so Mercury,
            # Venus, Earth": the list follows the last colon or "so".
            after = orders.read_list(segment[lead:], expected, lambda: reading.options, asked)
            if len(after) == len(expected):
                got = after
        if len(got) > 1:
            asked = asked or reading.asked_ends
            if asked is not None and from_other_end(segment, asked):
                got = got[::-1]  # listed from the other end than the question asks
                turned = True
        if loc.how == "whole" and (
            len(got) != len(expected) or (got != expected and set(got) != set(expected))
        ):
            # No marker, a list on its own lines ("1) mouse\n2) cat"): the
            # concluding sentence is its last line; read the block of lines
            # when the sentence alone does not name the items.
            block = _last_block(whole)
            # "1. **Application Layer** ... 4. **Link Layer**": an answer laid out
            # as a numbered list, each item explained below its head.
            heads = _numbered_heads(whole, expected) if len(got) != len(expected) else ""
            for lined in (block, heads):
                if not lined:
                    continue
                lines = orders.read_list(
                    drop_excluded(lined), expected, lambda: reading.options, asked
                )
                if len(lines) == len(expected) and (
                    len(got) != len(expected) or set(lines) == set(expected)
                ):
                    got = lines
                    break
        if len(got) > 1:
            break
    if got != expected and (
        orders.sloppy(got, expected, reading.options)
        or (
            (read := reading.fixed or reading.loc).how == "whole"
            and len(got) < len(expected)
            and "\n" not in read.segment.strip()
        )
    ):
        # (an answer of a few sentences read at its last, which names too few
        # items: "X came first and Y last. Of the two in the middle, ...")
        # Not read as a list of the items: read the order of their mentions.
        said = _mentioned_order(reading, segment, expected, asked)
        if said is not None:
            extracted = ", ".join(said.order)[:_EXTRACTED_CAP]
            score = _RIGHT if said.order == expected else _WRONG
            return Outcome(
                score, extracted, note="read from the items' mentions", uncertain=said.doubt
            )
    extracted = ", ".join(got)[:_EXTRACTED_CAP]
    if got == expected:
        return Outcome(_RIGHT, extracted)
    uncertain = None
    labelled = bool(reading.options) and set(expected) <= set(reading.options)
    if labelled and segment:
        related = orders.relation(segment, reading.options)
        if related is not None:
            # "the horse is bigger than the cat": an order told by comparisons
            # between items is for a reader to assemble.
            uncertain = f"orders items by comparing them ('{related[:60]}')"
    if (
        uncertain is None
        and not turned
        and len(got) > 1
        and got[::-1] == expected
        and _DIRECTION.search(segment)
    ):
        # "1776, 1492, 1215, 1066 — newest to oldest, so reverse it": read
        # from its other end the list is right, and the answer speaks of its direction.
        uncertain = "right read from its other end, and it speaks of its direction"
    if uncertain is None and (item := orders.unmapped(got, expected, reading.options)):
        uncertain = f"'{item[:40]}' names no option of the question, or several"
    elif uncertain is None and orders.unread(segment, got, expected, reading.options):
        uncertain = "names every item of the order but not as a list"
    if len(got) != len(expected):
        note = f"{len(got)} items, expected {len(expected)}"
        return Outcome(_WRONG, extracted, note=note, uncertain=uncertain)
    return Outcome(_WRONG, extracted, uncertain=uncertain)


# Words an answer says the direction of its list with: the ends of a scale, a
# "first", a chain of "<" or ">", or turning the list around.
_DIRECTION = re.compile(
    r"[<>]|\b(?:revers\w*|backwards?|opposite|other way|ascending|descending|increasing|after"
    r"|before|behind|ahead|follow\w*|preced\w*"
    r"|decreasing|[a-z]+est (?:to|first|last)\b|to (?:the )?[a-z]+est)\b",
    re.IGNORECASE,
)


def _interval(name: str, value: Any) -> intervals.Interval:
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(name, f"an interval must be [low, high], got {value!r:.60}")
    low, high = value
    if isinstance(low, str) and isinstance(high, str):
        lo, hi = intervals.time_seconds(low), intervals.time_seconds(high)
        if lo is None or hi is None:
            raise _fail(name, f"a time interval must be 'h:mm[:ss]' strings, got {value!r:.60}")
        time = True
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        lo, hi, time = float(low), float(high), False
    else:
        raise _fail(name, f"an interval must be two numbers or two times, got {value!r:.60}")
    if lo > hi:
        raise _fail(name, f"interval low end is above its high end: {value!r:.60}")
    return intervals.Interval(time, lo, hi)


def interval_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "interval_matching"
    loc = reading.loc
    _check_kwargs(name, kwargs)
    interval = _interval(name, kwargs["interval"])
    units = _strings(name, "units", kwargs.get("units", []), allow_str=False)
    ok, read, why = intervals.check(loc.segment, interval, units, last=loc.how == "whole")
    return Outcome(_RIGHT if ok else _WRONG, read, note=why)


def multi_interval_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "multi_interval_matching"
    loc = reading.loc
    _check_kwargs(name, kwargs)
    raw = kwargs["intervals"]
    if not isinstance(raw, list) or not raw:
        raise _fail(name, "intervals must be a non-empty list of [low, high]")
    ivs = [_interval(name, v) for v in raw]
    raw_units = kwargs.get("units", [[] for _ in ivs])
    if not isinstance(raw_units, list) or len(raw_units) != len(ivs):
        raise _fail(name, "units must be a list with one list of units per interval")
    unit_lists = [_strings(name, "units", u, allow_str=False) for u in raw_units]
    last = loc.how == "whole"
    first_read, first_why = "", None
    for iv, units in zip(ivs, unit_lists, strict=False):
        ok, read, why = intervals.check(loc.segment, iv, units, last=last)
        if ok:
            return Outcome(_RIGHT, read)
        if not first_read:
            first_read, first_why = read, why
    return Outcome(_WRONG, first_read, note=first_why)


EVALUATORS: dict[str, Callable[[Mapping[str, Any], Reading], Outcome]] = {
    "key_items_matching": key_items_matching,
    "choices_matching": choices_matching,
    "ordered_list_matching": ordered_list_matching,
    "number_matching": number_matching,
    "location_matching": location_matching,
    "interval_matching": interval_matching,
    "multi_interval_matching": multi_interval_matching,
}


def evaluate(
    evaluator: str, kwargs: Mapping[str, Any], response: str, question: str | None = None
) -> Outcome:
    """Grade ``response`` for one item in strict mode.

    ``response`` may be the whole model output: only its final answer
    (``scorers.records.final_answer``, the text after the first ``</think>``) is
    graded. ``question`` is the annotation's question text: its options let an
    answer choose by an option's text or order by the items' names. Raises
    :class:`EvaluatorError` naming the evaluator and the kwarg when the
    annotation does not fit.
    """
    func = EVALUATORS.get(evaluator)
    if func is None:
        raise EvaluatorError(f"unknown evaluator {evaluator!r}")
    if not isinstance(response, str):
        response = "" if response is None else str(response)
    asked = question if isinstance(question, str) else ""
    final = before_invented_question(final_answer(response), asked)
    loc = locate(final)
    if loc.how == "marker" and ". " in loc.segment:
        loc = _reasoned(loc)
    kwargs_text = kwargs_key(kwargs)
    if kwargs_text is None or len(loc.tail) > MAX_TEXT:
        return func(kwargs, Reading(loc, correction(loc), asked, final))
    # The outcome is a function of the kwargs and the located answer (its
    # correction is one too), and of what the evaluator read of the question.
    key = (evaluator, kwargs_text, loc)
    known = _MEMO.get(key)
    if type(known) is Outcome:
        return known
    if known is not None:  # this answer's outcome depends on the question
        if known == _BY_TEXT:
            known = _MEMO.get((key, asked))
        else:
            known = _MEMO.get((key, known, question_facts(asked, known)))
        if known is not None:
            return known
    reading = Reading(loc, correction(loc), asked, final)
    outcome = func(kwargs, reading)
    used = reading.used
    if not used:
        _MEMO.put(key, outcome)
    elif used <= FACTS:
        # Read only facts of the question: the same for every question that has them.
        names = tuple(sorted(used))
        _MEMO.put(key, names)
        _MEMO.put((key, names, question_facts(asked, names)), outcome)
    elif "final" not in used:
        _MEMO.put(key, _BY_TEXT)
        _MEMO.put((key, asked), outcome)
    return outcome


_REASONING_WORDS = 6  # a first sentence longer than this after a marker reasons


def _reasoned(loc: Located) -> Located:
    """A marker whose answer opens with a sentence of reasoning rather than a short
    statement ("Answer: 61 is a home keyboard and 76 a stage piano; neither is
    standard. A full piano has 88."): its paragraph is read as an answer without
    a marker, at its concluding sentence."""
    if loc.how != "marker":
        return loc
    stop = loc.segment.find(". ")
    if stop == -1:
        return loc  # (one sentence: the usual answer)
    if loc.segment.count(" ", 0, stop) < _REASONING_WORDS:
        # A short first sentence is the answer, unless the paragraph goes on to
        # a conclusion of its own ("Answer: Gametes carry 23. ... So a cell holds 46.").
        last = conclusion(loc.segment)
        if last == loc.segment or not _CONCLUDING_OPENER.match(last):
            return loc
        return Located("whole", loc.segment, loc.segment)
    end = first_sentence_end(loc.segment)
    if end is None or len(loc.segment[:end].split()) <= _REASONING_WORDS:
        return loc
    return Located("whole", loc.segment, loc.segment)


_CONCLUDING_OPENER = re.compile(
    r"(?:so|thus|therefore|hence|that leaves|this leaves|which means|in the end|finally|final)\b",
    re.IGNORECASE,
)


# Strict outcomes by (evaluator, kwargs, located answer). An answer whose outcome
# depends on the question holds instead the names of the question's facts it
# read (its outcome is keyed by their values too) or _BY_TEXT (keyed by the
# question's text).
_MEMO = Memo()
_BY_TEXT = "question text"
