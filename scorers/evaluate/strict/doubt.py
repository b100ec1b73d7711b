"""Doubts strict mode raises over a sure free-text verdict from how the answer
relates to the key as a whole, after the evaluator has read it.

Each signal here was kept because, over the dev halves of the blind batches, read
both with today's rules and with each batch's first-reading rules (answers the
rules were not written from), it marked sure misses from three sources or more, at
least one for every right verdict it marked, and the gain held leaving each batch
out in turn (``benchmarks/strict_uncertainty_signals.py``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import Any

from scorers.evaluate.strict import names
from scorers.evaluate.strict.answer_names import CAPITALISED
from scorers.evaluate.strict.commit import more_sentences_than
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.key_forms import NEAR_SPELLING

_WORD = re.compile(r"[^\W_]+")
_OWN_WORD = 4  # shorter words ("of", "the", "de", "new") are shared by chance


def key_groups(evaluator: str, kwargs: Mapping[str, Any]) -> list[list[str]]:
    """The annotation's key items (or candidate places), one list of variants a group."""
    if evaluator == "location_matching":
        fine, coarse = kwargs.get("location_fine_grained"), kwargs.get("location_coarse_grained")
        return [[v] if isinstance(v, str) else list(v) for v in (fine, coarse) if v]
    items = kwargs.get("key_items") or []
    if all(isinstance(g, list) for g in items):
        return [[v for v in g if isinstance(v, str)] for g in items]
    return [[v for v in items if isinstance(v, str)]]


def partial_key(evaluator: str, kwargs: Mapping[str, Any], segment: str, final: str) -> str | None:
    """A one-sentence answer graded 0 that names half or more of the own words of
    a key item of several words, but not all ("United States" for the United
    States of America, "the National Football Conference" for its West division,
    "rock fragments" for rock cuttings): whether the part names the whole is
    knowledge the words do not hold. A name's word counts only capitalised ("a
    watch maker" names no "Watch Co."); dates and numbers are left out (a shared
    year or month is no part of the same day)."""
    if more_sentences_than(final.strip(), 1):
        return None  # a longer answer shares a word with the key as often by chance
    if (why := _unsegmented_part(evaluator, kwargs, segment)) is not None:
        return why
    raw = _WORD.findall(segment)
    said = {fold_phrase(w) for w in raw}
    named_as_name = {fold_phrase(w) for w in raw if w[:1].isupper()}
    for group in key_groups(evaluator, kwargs):
        if any(set(_WORD.findall(fold_phrase(v))) <= said for v in group):
            continue  # (a group named whole: the rule weighed it)
        for variant in group:
            words = _WORD.findall(variant)
            if len(words) < 2 or any(ch.isdigit() for ch in variant):
                continue
            own = [
                (fold_phrase(w), at > 0 and w[:1].isupper())
                for at, w in enumerate(words)
                if len(w) >= _OWN_WORD and w.isalpha()
            ]
            named = [w for w, name in own if w in (named_as_name if name else said)]
            if named and len(own) <= 2 * len(named) < 2 * len(own):
                if _another_place(segment, named, variant):
                    continue
                return f"names '{' '.join(named)}' of the key '{variant}' but not all of it"
    return None


def near_spelling(
    evaluator: str, kwargs: Mapping[str, Any], segment: str, asked: str
) -> str | None:
    """An answer graded 0 with a word of five letters or more spelled almost as a word
    of a key item it does not name (difflib ratio >= 0.8: "Katherine" for Katharine,
    "ranges" for mountain range, "Vereinigte" for Vereinigtes Königreich): a
    misspelling or an inflection of the key, or another word; the letters cannot tell.
    Not a word of the question's or of an item the answer names, and only against a
    key word the data knows as a word or a word of a place name (no puzzle's string
    of letters) that is no place itself: a place's forms, adjectives and neighbours
    are read as such ("Atlantic City" for Atlanta, "East African" for Africa)."""
    said = _folded_words(segment)
    groups = key_groups(evaluator, kwargs)
    named = [g for g in groups if any(set(_WORD.findall(fold_phrase(v))) <= said for v in g)]
    taken = {w for g in named for v in g for w in _WORD.findall(fold_phrase(v))}
    taken |= _folded_words(asked)
    words = {w for w in said - taken if len(w) > _OWN_WORD and w.isalpha()}
    for group in groups:
        if group in named:
            continue
        for variant in group:
            for key in _WORD.findall(fold_phrase(variant)):
                if len(key) < _OWN_WORD or not key.isalpha() or not _known_word(key):
                    continue
                for word in words - {key}:
                    # (difflib's two upper bounds of the ratio first, as get_close_matches
                    # tries them: the lengths', then the letters' in any order)
                    if 2.0 * min(len(key), len(word)) / (len(key) + len(word)) < NEAR_SPELLING:
                        continue
                    matcher = SequenceMatcher(None, key, word)
                    if matcher.quick_ratio() >= NEAR_SPELLING and matcher.ratio() >= NEAR_SPELLING:
                        return f"'{word}' is spelled almost as the key word '{key}'"
    return None


def _folded_words(text: str) -> set[str]:
    """``{fold_phrase(w) for w in _WORD.findall(text)}``: an ASCII word (letters and
    digits) folds to itself lowered, so ASCII text is lowered once, not word by word."""
    if text.isascii():
        return set(_WORD.findall(text.lower()))
    return {fold_phrase(w) for w in _WORD.findall(text)}


def _known_word(word: str) -> bool:
    from wordnet_lookup import is_wordnet_term

    return not names.is_place(word) and (word in names.name_words() or bool(is_wordnet_term(word)))


def _another_place(segment: str, named: list[str], key: str) -> bool:
    """The words are those of a name the data knows as another place than the key
    ("South Sudan" for South Africa): a place of its own, no part of the key."""
    where = names.place_of(key)
    if where == (None, None):
        return False
    for m in CAPITALISED.finditer(segment):
        phrase = fold_phrase(m.group())
        shares = not set(named).isdisjoint(phrase.split())
        if shares and names.is_place(phrase) and names.place_of(phrase) != where:
            return True
    return False


# Scripts written without spaces between words: a name's part is a run of its
# characters, not a word ("奥寺美纪" for 奥寺前辈 shares the surname 奥寺).
_UNSEGMENTED = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")
_SHORT = 12  # characters of a one-name answer in these scripts ("张新杰（石不转）")


def _script(ch: str) -> str | None:
    """The script of a letter, by the first word of its Unicode name ("CJK",
    "LATIN", "CYRILLIC", "HIRAGANA", ...); None for what is no letter."""
    if not ch.isalpha():
        return None
    return unicodedata.name(ch, "?").split(" ")[0]


def _scripts(text: str) -> set[str]:
    return {s for ch in text if (s := _script(ch)) is not None}


def _unsegmented_part(evaluator: str, kwargs: Mapping[str, Any], segment: str) -> str | None:
    """A short answer graded 0 in a script without word spaces that shares a run
    of two characters or more, half or more of a key's, with it ("拉斯扎加尔" for
    拉莎加尔, two transcriptions of one name; "奥寺美纪" for 奥寺前辈, a name for a
    title), or that writes a key's name partly in another script ("凩まなつ" for
    凩真夏, its given name in kana): whether it names the key only a reader of the
    names knows. Known places are left to the place data."""
    letters = "".join(ch for ch in segment if _script(ch) is not None)
    if not letters or len(letters) > _SHORT or not _scripts(letters) <= {*_UNSEGMENTED}:
        return None
    if names.is_place(fold_phrase(segment.strip(" .。"))):
        return None
    for group in key_groups(evaluator, kwargs):
        for variant in group:
            key = "".join(ch for ch in variant if _script(ch) is not None)
            if (
                not key
                or not _scripts(key) <= {*_UNSEGMENTED}
                or names.is_place(fold_phrase(variant))
            ):
                continue
            blocks = SequenceMatcher(None, letters, key, autojunk=False).get_matching_blocks()
            shared = "".join(letters[b.a : b.a + b.size] for b in blocks if b.size >= 1)
            longest = max((b.size for b in blocks), default=0)
            if longest >= 2 and 2 * len(shared) >= len(key):
                return f"shares '{shared}' with the key '{variant}', a name written without spaces"
            if (
                longest >= 1
                and _scripts(letters) != _scripts(key)
                and _scripts(letters) & _scripts(key)
            ):
                return f"writes the key '{variant}' partly in another script"
    return None


# A stored reasoning cut off before it commits: the text ends inside a sentence.
_ENDS_SENTENCE = tuple(".。!！?？…)）]】」』\"”'’*`$")
_CUT_MIN = 250  # characters: a short answer without a stop is a phrase, not a cut
# Doubt a reasoning casts on what it recalled ("But I'm not sure of the exact name").
_DOUBT = re.compile(
    r"(?i)\b(?:not (?:entirely |completely |quite |fully )?(?:sure|certain)|unsure|uncertain"
    r"|(?:may|might|could) be (?:wrong|mistaken|misremembering)|misremember\w*"
    r"|(?:can't|cannot|don't|do not) (?:recall|remember))\b"
    r"|不(?:太|完全|是很|很)?确定|记错|记不清|不记得|想不起"
)


def cut_before_committing(
    evaluator: str, kwargs: Mapping[str, Any], final: str, how: str
) -> str | None:
    """A credited answer that is a reasoning cut off mid-sentence, with no answer
    marker, which after its last mention of the key doubts what it recalled
    ("I think it was the Ember Lynx, but I'm not sure of the name. Let me think
    about what the", cut there): a reader takes the last position the reasoning
    settled on, and this one had left the key in doubt when it stopped."""
    text = final.rstrip()
    if how != "whole" or len(text) < _CUT_MIN or text.endswith(_ENDS_SENTENCE):
        return None
    folded = fold_phrase(text)
    last = max(
        (
            folded.rfind(fold_phrase(v))
            for g in key_groups(evaluator, kwargs)
            for v in g
            if v.strip()
        ),
        default=-1,
    )
    if last < 0:
        return None
    doubt = _DOUBT.search(folded, last)
    if doubt is None:
        return None
    return f"a reasoning cut off mid-sentence, which doubts the key after naming it ('{doubt.group()}')"
