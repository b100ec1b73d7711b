"""Capitalised names an answer writes beyond its keys: a rival it may commit to,
and a name neither a key nor a known other name of one."""

from __future__ import annotations

import re

from scorers.evaluate.strict import names
from scorers.evaluate.strict.commit import drop_excluded
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.phrases import Answer


def unknown_name(
    answer: Answer, keys: list[str], every_key: list[str], *, places_only: bool = True
) -> str | None:
    """A name in a short answer that is neither one of the ``keys`` (those not
    found), nor a known other name of one, nor a place the data knows, when
    those keys are places the data knows: it may be a name of the key that the
    data lacks ("Pozsony" for Bratislava). A name holding a known place
    ("Leeds United") names that place; a capital that starts a sentence
    ("Unable to tell") is no name."""
    text = drop_excluded(answer.raw)
    # The length first: it needs no place look-up, and a long answer is no name.
    if len(text.split(maxsplit=SHORT_ANSWER)) > SHORT_ANSWER:
        return None
    places = [k for k in keys if not places_only or names.place_of(k) != (None, None)]
    if not places:
        return None
    folded_keys = {fold_phrase(k) for k in every_key}
    for m in CAPITALISED.finditer(text):
        if _LOWER_WORD_NEXT.match(text, m.end()):
            continue
        name = name_of(m.group())  # ("The Dominican Republic": the name after "The")
        if name is None or name in folded_keys or names.is_initials(m.group()):
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
            return without_function_words(m.group())
        if " " in name and any(names.is_major_place(w) for w in name.split()):
            continue
        if any(name in names.alternatives(k) for k in places):
            continue
        return without_function_words(m.group())
    return None


# A capital followed by a verb or "to" starts a sentence ("Unable to tell",
# "Cannot be determined"); one followed by a particle may be a name ("Terreiro
# do Paço"). The words are English's closed classes, not a list of answers.
_LOWER_WORD_NEXT = re.compile(
    r" (?:to|be|is|are|was|were|not|can|could|cannot|will|would|has|have|had|seems?|looks?)\b"
)
# Only a short answer is a name; in a sentence, capitalised words are many things.
SHORT_ANSWER = 6
_CONTEXT = 600  # the end of a long answer is enough to tell its language


# A capitalised name, its words joined by particles ("Democratic Republic of
# the Congo", "Terreiro do Paço").
CAPITALISED = re.compile(
    r"(?<![\w'])[A-Z][^\W\d_]+(?:(?:\.?[ -]|[ ](?:of(?: the)?|de|del|da|do|di|du)[ ])[A-Z][^\W\d_]+)*"
)
# English's closed classes: pronouns, determiners, prepositions, conjunctions
# and auxiliaries. Capitalised, such a word opens a sentence ("They play in
# Atlanta", "In Atlanta"), never a name. (Not "may", "will", "can": also names.)
_CLOSED_CLASSES = """
    i me my mine myself you your yours yourself yourselves he him his himself she her hers
    herself it its itself we us our ours ourselves they them their theirs themselves this that
    these those who whom whose which what whatever whoever whichever someone somebody something
    anyone anybody anything everyone everybody everything nobody nothing none one ones there here
    a an the some any each every either neither no all both few many much more most several such
    other another own
    about above across after against along amid among around as at before behind below beneath
    beside besides between beyond by despite down during except for from in inside into like near
    of off on onto out outside over past per since through throughout till to toward towards under
    underneath unlike until up upon via with within without
    and but or nor so yet because although though while whereas if unless whether than then once
    when where why how not
    am is are was were be been being have has had having do does did doing would shall should
    could might must
"""
FUNCTION_WORDS = frozenset(_CLOSED_CLASSES.split())
# Capitalised words that start sentences or dress answers, not names.
_DRESS = frozenset(
    ["final", "answer", "city", "country", "place", "location", "photo", "image", "picture"]
)
SKIP_WORDS = FUNCTION_WORDS | _DRESS


def name_of(written: str) -> str | None:
    """A capitalised match as the name it writes, folded: without the
    function words that open it ("In Atlanta", "The Dominican Republic"), None
    when nothing else is left ("They"). A word all in capitals ("US") is no
    function word."""
    name = fold_phrase(without_function_words(written))
    return name if name and name not in _DRESS else None


def without_function_words(written: str) -> str:
    """``written`` less the capitalised function words that open it."""
    words = written.split(" ")
    while words and words[0][1:].islower() and fold_phrase(words[0]) in FUNCTION_WORDS:
        words.pop(0)
    return " ".join(words)


def rival_name(text: str, keys: list[str]) -> str | None:
    """A capitalised name of ``text`` other than the keys and their other names,
    a place first where the keys are places."""
    folded_keys = [fold_phrase(k) for k in keys]
    kept = drop_excluded(text).strip(" \t*_.[(")
    places = all(names.place_of(k) != (None, None) for k in keys)
    rival = None
    for m in CAPITALISED.finditer(kept):
        name = name_of(m.group())
        if name is None or any(k in name or name in k for k in folded_keys):
            continue
        if m.start() == 0 and m.end() < len(kept):
            continue  # a capital that opens a sentence ("Note: ...", "Definitely a shark")
        if any(name in names.alternatives(k) for k in keys):
            continue
        if places and names.is_place(name):
            return without_function_words(m.group())
        rival = rival or without_function_words(m.group())
    return rival
