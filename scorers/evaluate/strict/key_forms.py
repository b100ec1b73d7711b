"""Other forms of a key a short answer may use, which only a reader can confirm:
another spelling, a clipped word, part of a name, the name's adjective, a date
to a coarser precision."""

from __future__ import annotations

import re
from typing import Any

from scorers.evaluate.strict import adjectives, dates, names
from scorers.evaluate.strict.answer_names import CAPITALISED, SHORT_ANSWER
from scorers.evaluate.strict.commit import drop_excluded
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.given_names import person_variants
from scorers.evaluate.strict.phrases import Answer, is_word, plurals


def coarser_date(answer: Answer, group: list[str]) -> str | None:
    """ "month" or "year" when the answer names a key date to that precision only."""
    for key in group:
        date = dates.key_date(key) if any(c.isdigit() for c in key) else None
        if date is not None:
            return dates.coarser(answer.folded, answer.raw, date)
    return None


def finer_date(answer: Answer, group: list[str]) -> bool:
    """The answer names, to the day, the month a key spells ("April 6, 1917" for
    April 1917)."""
    for key in group:
        month = dates.key_month(key) if any(c.isdigit() for c in key) else None
        if month is not None and dates.finer(answer.folded, answer.raw, *month):
            return True
    return False


def initialism(answer: Answer, group: list[str]) -> str | None:
    """A word in capitals that is the initials of a key of three words or more ("SUV"
    for sport utility vehicles, "IWC" for International Watch Co.), its small words
    ("of", "and") left out or kept: the key's usual abbreviation."""
    words = set(_CAPITALS.findall(drop_excluded(answer.raw)))
    if not words:
        return None
    for key in group:
        parts = [w for w in re.split(r"[\s-]+", key) if w[:1].isalpha()]
        if len(parts) < 2:
            continue
        full = "".join(w[0] for w in parts).upper()
        short = "".join(w[0] for w in parts if w.lower() not in _SMALL_WORDS).upper()
        for word in words:
            if word.rstrip("s") in (full, short) and len(word.rstrip("s")) >= _INITIALS_MIN:
                return word
    return None


_CAPITALS = re.compile(r"(?<![\w.])[A-Z]{3,6}s?(?!\w|\.\w)")
_INITIALS_MIN = 3  # ("CD" may be anyone's initials: two letters say too little)
_SMALL_WORDS = frozenset(("of", "and", "the", "for", "in", "on", "de", "a", "an", "to", "&"))


_FIRST_CLAUSE = re.compile(r"[;,.:(—–]")
# difflib's ratio of two spellings of one word or name: "Chaikovsky" and "Tchaikovsky" are
# 0.95, "Paris" and "Pisa" 0.67 (doubt.near_spelling reads a word against a key's words with it)
NEAR_SPELLING = 0.8
_NEAR_MIN = 5


def near_spelling(answer: Answer, keys: list[str]) -> tuple[str, str] | None:
    """A phrase of a short answer spelled almost as a key ("Chaikovsky" for
    Tchaikovsky, "Kandinski" for Kandinsky): a transliteration or a misspelling
    that only a reader can tell from another name. Known places are other places."""
    from difflib import SequenceMatcher

    raw = answer.raw
    if len(answer.folded.split()) > SHORT_ANSWER:
        stop = _FIRST_CLAUSE.search(raw)  # "Tschaikowsky; it premiered in ..."
        raw = raw[: stop.start()] if stop else raw
        if len(raw.split()) > SHORT_ANSWER:
            return None
    # Names only: capitalised words of the answer, against keys that are names.
    words = fold_phrase(" ".join(m.group() for m in CAPITALISED.finditer(raw))).split()
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
            if SequenceMatcher(None, phrase, folded).ratio() >= NEAR_SPELLING:
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


def clipped(answer: Answer, groups: list[list[str]], missing: Any) -> tuple[str, str] | None:
    """A word of a short answer that begins a one-word lower-case key not
    found, two or more letters short of it, whose rest is no word: perhaps its
    clipped form ("hippo"; "pine" begins the compound "pineapple"); names are
    not clipped so ("Congo" for Congo-Brazzaville)."""
    words = answer.folded.split()
    if len(words) > SHORT_ANSWER:
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


def part_of_name(answer: Answer, keys: list[str]) -> tuple[str, str, bool] | None:
    """A name in a short answer that shares a word of its own with a key of
    several words ("Gandhi" for Mahatma Gandhi, "Titicaca" for Lake Titicaca),
    not a known place of its own ("North Korea" for South Korea); and whether
    all its words are the key's."""
    raw = drop_excluded(answer.raw)
    if len(raw.split(maxsplit=SHORT_ANSWER)) > SHORT_ANSWER:
        return None
    for key in keys:
        words = fold_phrase(key).replace("-", " ").split()
        if len(words) < 2 or not key[:1].isupper():
            continue
        own = {w for w in words if len(w) > 2 and w not in _NAME_WORDS}
        for m in CAPITALISED.finditer(raw):
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


def adjective_of(answer: Answer, groups: list[list[str]]) -> str | None:
    """A capitalised word of the answer that is a key's adjective ("Incan"),
    not inside a place's own name ("the Dominican Republic" is no Dominica)."""
    stems = {v[:3].capitalize() for v in groups[0]} | {
        v.rpartition(" ")[2][:3].capitalize() for v in groups[0]
    }
    if not any(stem in answer.raw for stem in stems):
        # (a substring test first: the English adjective is capitalised, "Incan")
        return _adjective_in_any_language(answer, groups[0]) or _country_of_adjective(
            answer, groups[0]
        )
    for m in CAPITALISED.finditer(drop_excluded(answer.raw)):
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
    return _adjective_in_any_language(answer, groups[0]) or _country_of_adjective(answer, groups[0])


_WORDS = re.compile(r"[^\W\d_]+")


def _country_of_adjective(answer: Answer, group: list[str]) -> str | None:
    """For a key that is a country's adjective ("British", "Argentinian"), a
    capitalised name of the answer that is that country ("the United Kingdom",
    "Argentine"), by the same data read the other way."""
    wanted: set[str] = set()
    for v in group:
        folded = fold_phrase(v)
        if " " in folded or names.is_place(folded):
            continue
        if (code := adjectives.territory_of(v)) is not None:
            wanted.add(code)
    english = [v for v in group if " " not in v.strip() and not names.is_place(fold_phrase(v))]
    if not wanted and not english:
        return None
    for m in CAPITALISED.finditer(drop_excluded(answer.raw)):
        phrase = fold_phrase(m.group()).removeprefix("the ")
        if not names.is_place(phrase):
            continue
        if names.territory(phrase) in wanted or any(_demonym(v, phrase) for v in english):
            return m.group()
    return None


def _adjective_in_any_language(answer: Answer, group: list[str]) -> str | None:
    """A word of the answer that is a key country's adjective in some language,
    by CLDR's names of languages and their regional forms ("polacca" for
    Polonia, "американское" for США, "Amerikanisch" for Vereinigte Staaten).
    Words inside a longer place's name ("Dominican Republic") are that place."""
    wanted = {code for v in group if (code := names.territory(fold_phrase(v))) is not None}
    if not wanted:
        return None
    text = drop_excluded(answer.raw)
    for m in CAPITALISED.finditer(text):
        if " " in m.group() and names.is_place(fold_phrase(m.group()).removeprefix("the ")):
            text = text.replace(m.group(), " ")
    keys = {fold_phrase(v) for v in group}
    for word in _WORDS.findall(text):
        folded = fold_phrase(word)
        if folded in keys or names.is_place(folded):
            continue  # a name, not an adjective ("Georgia" placed in the US)
        if adjectives.territory_of(word) in wanted:
            return word
    return None


def _demonym(word: str, key: str) -> bool:
    word, key = fold_phrase(word), fold_phrase(key)
    if " " in word or len(key) < 4 or word == key:
        return False  # (the name itself, hedged or ruled out, is no adjective of it)
    stems = {key, key[:-1]} if key[-1] in "aeiouy" else {key}
    return any(word.startswith(s) and _DEMONYM.fullmatch(word[len(s) :]) for s in stems)


# Between a name's words and its kind: one more capitalised word of the name that
# English morphology makes an adjective ("the Antarctic Polar Desert"; not "the Blue
# Ridge Mountains" for the Blue Mountains), or up to four lower-case words that say
# what the name is ("the Milky Way is a spiral galaxy", "the Sahara, the largest hot
# desert").
_ADJECTIVE_ENDINGS = "al|ar|ic|ian|an|ern|ese|ish|ive|ous|ful|ary|ory|ine"
_NAME_INSERT = rf"(?P<inserted>[A-Z][a-z]+(?:{_ADJECTIVE_ENDINGS})) "
_PREDICATED = (
    r"(?:,| is| was| remains)(?: (?:a|an|the|its|our))?"
    r"(?: (?!(?:and|or|nor|but|than|not|no|other)\b)[a-z][\w'-]*){0,3} "
)


def named_with_its_kind(answer: Answer, group: list[str]) -> str | None:
    """A key name ending in a word for its kind ("Antarctic Desert", "Milky Way
    Galaxy") that the answer states with words between: an adjective of the name
    ("the Antarctic Polar Desert") or a predicate saying what the name is ("The
    Milky Way is a spiral galaxy"). The name's own words stand together as the key
    writes them and its kind follows within the clause. Not a person's name ("John
    Quincy Adams" for John Adams), nor a place, whose other names are the data's."""
    raw = drop_excluded(answer.raw)
    for key in group:
        words = key.split()
        if len(words) < 2 or not all(w[:1].isupper() for w in words[:-1]):
            continue
        kind = words[-1].lower()
        if not kind.isalpha() or not is_word(kind) or person_variants(key):
            continue
        if names.is_place(kind) or names.is_place(fold_phrase(key)):
            continue  # (a place has its own names: "the United Mexican States" is another)
        name = re.escape(" ".join(words[:-1]))
        kinds = "|".join(re.escape(k) for k in {kind, *plurals(kind)})
        pattern = re.compile(
            rf"(?<![\w-]){name}(?: {_NAME_INSERT}|{_PREDICATED})(?i:{kinds})(?![\w-])"
        )
        for m in pattern.finditer(raw):
            if m.group("inserted") and names.is_place(fold_phrase(m.group())):
                continue  # another place
            return m.group()
    return None
