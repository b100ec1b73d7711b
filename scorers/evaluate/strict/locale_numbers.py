"""Number conventions of the answer's language, from maintained data.

``1,234`` is a thousand and more in English and a little over one in German;
``1,5 Tausend`` is fifteen hundred. The language of the answer comes from
``py3langid`` (see :func:`convention`), the decimal mark and the long multiplier words
(``Tausend``, ``mille``, ``millones``) from the Unicode CLDR through Babel.
Both load on first use, only when an answer holds a number that needs them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scorers.evaluate.strict.diskcache import disk_cached

_MIN_PROBABILITY = 0.5
_MIN_LETTERS = 8  # fewer letters than this say nothing about a language
_DIGITS = re.compile(r"[\d.,%]+")
_TOP_LANGUAGES = 10
_SETTLED = 0.3  # the probability one convention needs to settle the reading
_NOT_ENGLISH = 0.2


@disk_cached("py3langid")
def _identifier():  # type: ignore[no-untyped-def]
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=True)


@lru_cache(maxsize=1024)
def convention(text: str) -> str | None:
    """``"comma"`` or ``"point"`` when the answer's language settles the decimal mark.

    The identifier's probabilities are summed over the languages whose CLDR data
    writes a decimal comma and those that write a point (Spanish, Galician and
    Asturian all say "comma" for a Spanish sentence even when the identifier
    cannot tell them apart). A side settles it when it holds at least 0.3, four
    times the other side, and the most likely language is on it: a short English
    phrase, spread thin over many languages, settles nothing.
    """
    words = _DIGITS.sub(" ", text)
    if sum(c.isalpha() for c in words) < _MIN_LETTERS:
        return None
    mass = {True: 0.0, False: 0.0}
    top: bool | None = None
    for lang, p in _identifier().rank(words)[:_TOP_LANGUAGES]:
        says = decimal_comma(str(lang))
        if says is None:
            continue
        mass[says] += p
        if top is None:
            top = says
    if top is None:
        return None
    if mass[top] >= _SETTLED and mass[top] >= 4 * mass[not top]:
        return "comma" if top else "point"
    return None


@lru_cache(maxsize=1024)
def language(text: str) -> str | None:
    """The answer's language code, or None when the text does not say."""
    words = _DIGITS.sub(" ", text)
    if sum(c.isalpha() for c in words) < _MIN_LETTERS:
        return None
    lang, probability = _identifier().classify(words)
    return str(lang) if probability >= _MIN_PROBABILITY else None


@lru_cache(maxsize=256)
def decimal_comma(lang: str) -> bool | None:
    """The language writes decimals with a comma, as its own CLDR data states;
    None when its data does not say (it would only inherit the root's point)."""
    from babel import localedata

    try:
        data = localedata.load(lang, merge_inherited=False)
    except (OSError, ValueError):
        return None
    mark = data.get("number_symbols", {}).get("latn", {}).get("decimal")
    return None if mark is None else mark == ","


@disk_cached("babel")
def _multipliers() -> dict[str, dict[str, float]]:
    """The scale words of CLDR's compact number patterns, of every base locale and
    script variant: word -> {lang: factor} ("mil millones", "Mrd", "万", "억")."""
    import pickle

    from babel import localedata

    out: dict[str, dict[str, float]] = {}
    for ident in localedata.locale_identifiers():
        # Regional variants repeat their language; script variants ("zh_Hant": 萬,
        # 億) write other words. English's own are read by the number reader.
        if _REGIONAL.search(ident) or ident in ("en", "root"):
            continue
        lang = ident.split("_")[0]
        with open(localedata.resolve_locale_filename(ident), "rb") as f:
            formats = pickle.load(f).get("compact_decimal_formats", {})
        for style in formats.values():
            for forms in style.values():
                for key, pattern in forms.items():
                    text = str(getattr(pattern, "pattern", pattern)).replace("\u00a0", " ")
                    zeros = text.count("0")
                    word = " ".join(text.replace("0", "").replace("'", "").split())
                    word = word.strip(" .\u200f\u200e").lower()
                    # Symbols ("k", "M", "m") are units as often as multipliers:
                    # only words and abbreviations of three letters or more, or
                    # of a script that writes no spaces (万, 億, 만), which no unit is.
                    parts = word.split()
                    if not zeros or not parts or not all(p.isalpha() for p in parts):
                        continue
                    if len(word) < 3 and not unspaced(word):
                        continue
                    out.setdefault(word, {})[lang] = float(key) / 10 ** (zeros - 1)
    return out


_REGIONAL = re.compile(r"_(?![A-Z][a-z]{3}$)")  # "de_AT", not "zh_Hant"


def unspaced(word: str) -> bool:
    """Every letter of ``word`` is of a script written without spaces between words
    (Han, kana, Hangul), so a scale word may follow a number unspaced ("3万")."""
    return bool(word) and all(_UNSPACED.match(c) for c in word)


_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def multiplier(word: str, text: str) -> float | None:
    """The factor ``word`` after a number stands for in the answer's language.

    The identified language's own word counts; so does a word on which every
    language that has it agrees ("millions"), in a text that is not English
    ("Il y a 2,5 millions": the identifier may call it Aragonese), since
    English's own multipliers are read elsewhere and "12 min" is minutes. A word
    whose languages disagree ("mil": a thousand in Spanish, a million in Czech)
    takes the factor of the languages the identifier finds likelier, when they
    hold four times the others' probability."""
    factors = _multipliers().get(word.lower().rstrip("."))
    if not factors:
        return None
    lang = language(text)
    if lang is not None and lang in factors:
        return factors[lang]
    if lang == "en":
        return None
    if len(set(factors.values())) != 1:
        return _likelier(factors, text)
    if _english(text) < _NOT_ENGLISH or unspaced(word):
        return next(iter(factors.values()))
    if _too_short(text) and not _english_word(word.lower().rstrip(".")):
        # "3,5 тыс.", "1,2 Mrd.": too short to tell its language, and the word
        # is no English word ("12 min" and "2 mile" are units).
        return next(iter(factors.values()))
    return None


def unsettled(word: str, text: str) -> float | None:
    """The factor a scale word most of its languages give it, when :func:`multiplier`
    did not settle it and the text is too short to tell its language: "3 mil" is
    3000 in Spanish and Portuguese, 3 million in Czech, and 3 thousandths of an
    inch in English. A word of one language's data only ("12 min": Azerbaijani
    writes a thousand so) is no such doubt."""
    factors = _multipliers().get(word.lower().rstrip("."))
    if not factors or len(factors) < 2 or not _too_short(text):
        return None
    values = list(factors.values())
    return max(set(values), key=values.count)


def _likelier(factors: dict[str, float], text: str) -> float | None:
    words = _DIGITS.sub(" ", text)
    if sum(c.isalpha() for c in words) < _MIN_LETTERS or _english(text) >= _NOT_ENGLISH:
        return None
    mass: dict[float, float] = {}
    for lang, p in _identifier().rank(words)[:_TOP_LANGUAGES]:
        if str(lang) in factors:
            mass[factors[str(lang)]] = mass.get(factors[str(lang)], 0.0) + p
    if not mass:
        return None
    best = max(mass, key=mass.__getitem__)
    rest = sum(mass.values()) - mass[best]
    return best if mass[best] >= 4 * rest else None


def _too_short(text: str) -> bool:
    return sum(c.isalpha() for c in _DIGITS.sub(" ", text)) < _MIN_LETTERS


@lru_cache(maxsize=1024)
def _english_word(word: str) -> bool:
    from wordnet_lookup import is_wordnet_term

    return bool(is_wordnet_term(word)) or word in _ENGLISH_UNITS


_ENGLISH_UNITS = frozenset(("min", "mil", "sec", "hr", "hrs", "mins", "secs", "bil", "tri"))


@lru_cache(maxsize=1024)
def _english(text: str) -> float:
    """The identifier's probability that ``text`` is English (1.0 when too short to say)."""
    words = _DIGITS.sub(" ", text)
    if sum(c.isalpha() for c in words) < _MIN_LETTERS:
        return 1.0
    return float(dict(_identifier().rank(words)).get("en", 0.0))


@disk_cached("babel")
def or_words() -> tuple[str, ...]:
    """The words that offer alternatives in CLDR's "or" list patterns, of every
    locale ("oder", "или", "或", "または", "또는"), lowered. English's own is read
    elsewhere; words of one or two letters are left out unless of a script written
    without spaces: they are other words in other languages (Spanish "no",
    Russian "не", German "an")."""
    from babel.core import Locale
    from babel.localedata import locale_identifiers

    out: set[str] = set()
    for ident in locale_identifiers():
        if _REGIONAL.search(ident) or ident in ("en", "root"):
            continue
        try:
            patterns = Locale.parse(ident).list_patterns.get("or", {})
        except (ValueError, KeyError):
            continue
        for key in ("2", "end"):
            pattern = patterns.get(key)
            if pattern is None or pattern.count("{") != 2:
                continue
            between = pattern.split("{0}", 1)[-1].split("{1}", 1)[0]
            word = " ".join(between.replace(",", " ").replace("、", " ").split()).lower()
            if (
                word
                and word != "or"
                and (len(word) > 2 or unspaced(word))
                and all(c.isalpha() or c == " " for c in word)
            ):
                out.add(word)
    return tuple(sorted(out, key=len, reverse=True))


def text_not_english(text: str) -> bool:
    """The identifier finds ``text`` unlikely to be English (and it is long enough to say)."""
    return _english(text) < _NOT_ENGLISH
