"""``key_items_matching``: every group of key items named in what the answer
commits to, with the readings that make a verdict unsure or turn it."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import polarity, yes_no
from scorers.evaluate.strict.answer_names import SKIP_WORDS, rival_name, unknown_name
from scorers.evaluate.strict.commit import FEW_SENTENCES, conclusion, drop_excluded, sentences
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.key_forms import (
    adjective_of,
    clipped,
    coarser_date,
    finer_date,
    initialism,
    named_with_its_kind,
    near_spelling,
    part_of_name,
)
from scorers.evaluate.strict.kwargs import check_kwargs, fail, strings
from scorers.evaluate.strict.phrase_answer import (
    TURN,
    answer_line,
    phrase_answer,
    settled_elsewhere,
    shown,
)
from scorers.evaluate.strict.phrases import Answer
from scorers.evaluate.strict.reading import Reading
from scorers.evaluate.strict.scores import EXTRACTED_CAP, RIGHT, WRONG


def key_items_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "key_items_matching"
    check_kwargs(name, kwargs)
    key_items = kwargs["key_items"]
    remove_space = kwargs.get("remove_space", False)
    if not isinstance(remove_space, bool):
        raise fail(name, f"remove_space must be true or false, got {json_shown(remove_space)}")
    if not isinstance(key_items, list) or not key_items:
        raise fail(name, "key_items must be a non-empty list")
    if all(isinstance(k, list) for k in key_items):
        groups = [strings(name, "each key_items group", g, allow_str=False) for g in key_items]
        if not all(groups):
            raise fail(name, "a key_items group has no non-empty variant")
    elif all(isinstance(k, str) for k in key_items):
        groups = [strings(name, "key_items", key_items)]
        if not groups[0]:
            raise fail(name, "key_items has no non-empty variant")
    else:
        raise fail(name, "key_items must be all strings or all lists of strings")
    groups = [_with_alternatives(g) for g in groups]

    polar = yes_no.key_polarity(groups[0]) if len(groups) == 1 else None
    if polar is not None:
        said = yes_no.opening((reading.fixed or reading.loc).segment)
        if said is not None:
            # "Nein, ...", "不是。": the answer opens with its yes or no, in any language.
            score = RIGHT if said == polar else WRONG
            note = None if score == RIGHT else f"says {'yes' if said else 'no'}"
            return Outcome(score, (reading.fixed or reading.loc).segment[:EXTRACTED_CAP], note=note)
        stated = (reading.fixed or reading.loc).segment
        if polar and yes_no.first_negated(stated, groups[0]):
            # "并没有记录到..." for 有: the first use of the verb says no; a
            # later "有可能" ("it may be") does not take it back.
            return Outcome(WRONG, stated[:EXTRACTED_CAP], note="says no: its verb negated")

    def has_all(answer: Answer) -> bool:
        return all(any(answer.contains(v, remove_space=remove_space) for v in g) for g in groups)

    answer, doubted = phrase_answer(reading, has_all)
    missing = [
        g[0] for g in groups if not any(answer.contains(v, remove_space=remove_space) for v in g)
    ]
    note = f"missing: {', '.join(missing)}" if missing else None
    score = WRONG if missing else RIGHT
    uncertain = None
    if missing and not remove_space:
        spread = [named_with_its_kind(answer, g) for g in groups if g[0] in missing]
        if all(spread):
            # "The Milky Way is a spiral galaxy" for Milky Way Galaxy: the name,
            # and its kind said of it.
            missing, score, note = [], RIGHT, None
    if missing and all(initialism(answer, g) for g in groups if g[0] in missing):
        # "SUV" for sport utility vehicles: the key's initials
        missing, score, note = [], RIGHT, None
    if missing and all(finer_date(answer, g) for g in groups if g[0] in missing):
        # "on April 6, 1917" for April 1917: the key's month, to the day
        missing, score, note = [], RIGHT, None
    if missing and len(groups) == 1 and (told := _told_yes_no(answer, reading, groups[0])):
        # "It is unlikely that ..." for "no": the answer restates the question's claim.
        yes, sure = told
        if yes == (fold_phrase(groups[0][0]) == "yes"):
            score, note = RIGHT, None
        if yes is None:
            uncertain = _NEITHER
        return Outcome(score, answer.folded[:EXTRACTED_CAP], note=note, uncertain=uncertain)
    if missing and polar is not None and not (answer.contains("yes") or answer.contains("no")):
        # A yes/no key, a question whose claim the reader cannot parse ("heb ik een
        # visum nodig ...", a question without its auxiliary), and an answer with
        # neither word: it may say yes or no in a sentence of its own.
        return Outcome(score, answer.folded[:EXTRACTED_CAP], note=note, uncertain=_NEITHER)
    if doubted:
        uncertain = "a correction follows the final answer but names no key item"
    elif missing and len(groups) == 1 and (coarse := coarser_date(answer, groups[0])):
        # "Answer: 1843." for 15 August 1843: right to the precision it states;
        # whether the question wanted the day only a reader can weigh.
        score, note = RIGHT, None
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
                score, note = RIGHT, None
        if uncertain is None:
            unknown = unknown_name(
                answer,
                [v for g in groups if g[0] in missing for v in g],
                [v for g in groups for v in g],
            )
            near = (
                None
                if unknown is not None
                else near_spelling(answer, missing_variants(groups, missing))
            )
            if near is not None:
                uncertain = f"'{near[0]}' may be another spelling of '{near[1]}'"
            if unknown is not None:
                uncertain = f"names '{unknown}', neither a key item nor a known other name of one"
            adjective = adjective_of(answer, groups) if len(groups) == 1 else None
            if adjective is not None:
                # "the Iranian capital" for Iran, "the Incan Empire" for Inca: the
                # name's adjective answers "which country".
                score, note, uncertain = RIGHT, f"'{adjective}' is the adjective of the key", None
            elif uncertain is None and (clip := clipped(answer, groups, missing)):
                # "hippo" for hippopotamus, "rhino", "photo": English clips a
                # long word to its head; only a reader knows the clipping.
                uncertain = f"'{clip[0]}' may be a short form of '{clip[1]}'"
            elif uncertain is None and len(groups) == 1:
                part = part_of_name(answer, groups[0])
                if part is not None:
                    # "Gandhi" for Mahatma Gandhi, "Titicaca" for Lake Titicaca: a
                    # name's own word most often names it, but not always.
                    phrase, key, within = part
                    if within:
                        score, note = RIGHT, None
                    uncertain = f"'{phrase}' names part of '{key}'"
    if score == RIGHT and uncertain is None and len(groups) == 1:
        rival = settled_elsewhere(reading, has_all, groups[0])
        if rival is not None:
            uncertain = f"names the key outside what it commits to, which names '{rival}'"
        elif (other := _listed_with(reading, groups[0])) is not None:
            # "Which fighter ...?" answered "Rashad Evans and Vitor Belfort": two
            # names for one asked are no choice, as "X or Y" is none.
            score, note = WRONG, f"names '{other}' beside the key, for a question asking one"
        elif (other := _concludes_other(reading, groups[0])) is not None:
            # "Which of Craig and Doherty ...?" answered "... So Doherty ...":
            # the question's alternatives are named on the way; the conclusion chooses.
            score, note = WRONG, f"concludes with '{other}'"
            uncertain = f"concludes with '{other}', the question's other alternative"
        elif (
            len(answer.raw) <= FEW_SENTENCES * 200
            and _undecided(answer.raw)
            and (rival := rival_name(answer.raw, groups[0]))
        ):
            # "Monet? Renoir? I can't decide.": two candidates and no choice.
            score, note = WRONG, "undecided"
            uncertain = f"names '{rival}' beside the key and says it cannot decide"
    if (
        score == RIGHT
        and uncertain is None
        and (line := answer_line(reading)) is not None
        and not has_all(Answer(line))
    ):
        # A reader may take the line for the answer, the keys named above it on the way.
        uncertain = f"ends on '{shown(line)}' without the key, named above it"
    return Outcome(score, answer.folded[:EXTRACTED_CAP], note=note, uncertain=uncertain)


_NEITHER = "says neither yes nor no, nor restates the question's claim"


def _with_alternatives(group: list[str]) -> list[str]:
    """A key that offers two phrases as one ("hit points or health points", "God
    forgave/God gratified": a gold alias joining its alternatives): each phrase is a
    variant too. Only phrases of two words or more on both sides, each with a word in
    lower case: "Truth or Consequences", "To SquarePants or Not to SquarePants", "AC/DC"
    and "24/7" are names."""
    out = list(group)
    for variant in group:
        if (digits := _in_digits(variant)) not in out:
            out.append(digits)  # "13th season" for "thirteenth season"
        parts = _ALTERNATIVES.split(variant)
        if len(parts) == 2 and all(
            len(p.split()) >= 2 and any(_COMMON_WORD.fullmatch(w) for w in p.split()) for p in parts
        ):
            out.extend(p.strip() for p in parts if p.strip() not in out)
    return out


@functools.lru_cache(maxsize=4096)
def _in_digits(key: str) -> str:
    """A key's English number words written in digits (text2num, with its own
    thresholds: "thirteenth season" is "13th season", "three pounds" "3 pounds";
    "one", "first" and "second" stay words)."""
    from text_to_num import alpha2digit

    try:
        return str(alpha2digit(key, "en"))
    except (ValueError, TypeError):  # pragma: no cover - unexpected input to the parser
        return key


_ALTERNATIVES = re.compile(r"[ \t]+or[ \t]+|[ \t]*/[ \t]*")
_COMMON_WORD = re.compile(r"[a-z][a-z'-]{3,}")


def _listed_with(reading: Reading, keys: list[str]) -> str | None:
    """Another capitalised name the answer's committed sentence lists beside the
    key with "and" ("Rashad Evans and Vitor Belfort", "the G7, G20, and EU trio"),
    for a question that asks for one thing ("Which fighter ...?")."""
    if not all(k[:1].isupper() for k in keys) or not reading.asks_one:
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
        if not any(i in folded_keys for i in items) or not _list_ends(text, m, reading):
            continue  # ("Keaton and Nicholson starred; Keaton played him": not the answer)
        others = [i for i in items if i not in folded_keys and i not in SKIP_WORDS]
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


def _list_ends(text: str, m: re.Match[str], reading: Reading) -> bool:
    """The list ends its sentence, but for a lower-case word the question writes
    after its last name ("the EU trio")."""
    if _TAIL_ONLY.fullmatch(text, m.end()):
        return True
    word = _TAIL_WORD.match(text, m.end())
    if word is None:
        return False
    last = _LIST_SPLIT.split(m.group())[-1]
    return fold_phrase(f"{last} {word.group(1)}") in fold_phrase(reading.question)


def _concludes_other(reading: Reading, keys: list[str]) -> str | None:
    """The question's other alternative ("Which of Jonny Craig and Pete Doherty
    ...?", "..., Lucie Hradecká or Raffaella Reggi?") that the answer's concluding
    sentence names instead of the key: an answer weighs both on the way, so
    finding the key in it says nothing; its conclusion chooses."""
    if not all(k[:1].isupper() for k in keys):
        return None
    others = reading.alternatives(tuple(keys))
    if not others:
        return None
    loc = reading.fixed or reading.loc
    if loc.how == "box":
        return None
    text = drop_excluded(conclusion(loc.segment) if loc.how == "whole" else loc.segment)
    turns = list(TURN.finditer(text))  # "Reggi 1965, Hradecká 1985, so Reggi"
    last = Answer(text[turns[-1].end() :] if turns and turns[-1].end() < len(text) else text)
    if any(last.contains(k) for k in keys):
        return None
    named = [o for o in others if last.contains(o)]
    # (the one named last: "the person on Alan's right is Emily" concludes Emily)
    return max(named, key=lambda o: last.folded.rfind(fold_phrase(o)), default=None)


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


def missing_variants(groups: list[list[str]], missing: list[str]) -> list[str]:
    return [v for g in groups if g[0] in missing for v in g]
