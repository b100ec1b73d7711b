"""Number conventions of the answer's language, from maintained data.

``1,234`` is a thousand and more in English and a little over one in German;
``1,5 Tausend`` is fifteen hundred. The language of the answer comes from
``py3langid`` (trusted only when its normalised probability is at least 0.5 on
the answer's words), the decimal mark and the long multiplier words
(``Tausend``, ``mille``, ``millones``) from the Unicode CLDR through Babel.
Both load on first use, only when an answer holds a number that needs them.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

_MIN_PROBABILITY = 0.5
_MIN_LETTERS = 8  # fewer letters than this say nothing about a language
_DIGITS = re.compile(r"[\d.,%]+")


@cache
def _identifier():  # type: ignore[no-untyped-def]
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=True)


@lru_cache(maxsize=1024)
def language(text: str) -> str | None:
    """The answer's language code, or None when the text does not say."""
    words = _DIGITS.sub(" ", text)
    if sum(c.isalpha() for c in words) < _MIN_LETTERS:
        return None
    lang, probability = _identifier().classify(words)
    return str(lang) if probability >= _MIN_PROBABILITY else None


@lru_cache(maxsize=256)
def decimal_comma(lang: str) -> bool:
    """The language writes decimals with a comma (CLDR number symbols)."""
    from babel import Locale, UnknownLocaleError

    try:
        symbols = Locale.parse(lang).number_symbols.get("latn", {})
    except (UnknownLocaleError, ValueError):
        return False
    return symbols.get("decimal") == ","


@cache
def _multipliers() -> dict[str, dict[str, float]]:
    """Long and short multiplier words of every base locale: word -> {lang: factor}."""
    import pickle

    from babel import localedata

    out: dict[str, dict[str, float]] = {}
    for ident in localedata.locale_identifiers():
        if "_" in ident or ident in ("en", "root"):
            continue
        with open(localedata.resolve_locale_filename(ident), "rb") as f:
            formats = pickle.load(f).get("compact_decimal_formats", {})
        for style in formats.values():
            for forms in style.values():
                for key, pattern in forms.items():
                    text = str(getattr(pattern, "pattern", pattern)).replace("\u00a0", " ")
                    zeros = text.count("0")
                    word = text.replace("0", "").strip(" .'\u200f\u200e").lower()
                    if not word or not zeros or not word.isalpha():
                        continue
                    out.setdefault(word, {})[ident] = float(key) / 10 ** (zeros - 1)
    return out


def multiplier(word: str, text: str) -> float | None:
    """The factor ``word`` after a number stands for in the answer's language."""
    factors = _multipliers().get(word.lower().rstrip("."))
    if not factors:
        return None
    lang = language(text)
    return factors.get(lang) if lang is not None else None
