"""Key phrases and place names found the way a reader finds them.

A phrase matches as whole words (``la`` is not in ``Atlanta``, ``red`` is not
in ``reddish``) after folding case, accents, quotes, dashes and whitespace
(``Zurich`` is in ``Zürich``, ``New York`` in ``New\\u00a0York``). A
compound's parts count as words (``Tokyo Disney`` is in ``Tokyo DisneySea``),
a plural ``s``/``es`` is allowed after a phrase of three or more letters, and a
mention right after a negation (``not Seattle``, ``rather than Seattle``) does
not count.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scorers.evaluate.strict import names
from scorers.evaluate.strict.commit import drop_excluded
from scorers.evaluate.strict.dates import dates_in, key_date
from scorers.evaluate.strict.fold import as_space, fold_phrase, split_camel
from scorers.evaluate.strict.given_names import person_variants
from scorers.evaluate.strict.names import alternatives, place_of

_DIGIT = re.compile(r"\d")
_NEGATORS = frozenset(("not", "never", "nor", "neither", "except", "excluding", "unlike"))
_NEGATING_PAIRS = frozenset(("rather than", "instead of", "other than"))
_ARTICLES = frozenset(("the", "a", "an"))
_NEGATION_WINDOW = 24
_PLURAL_MIN = 3


def _wordish(ch: str) -> bool:
    # Scripts written without spaces (CJK, kana) have no word boundaries to honour,
    # nor has Korean, whose particles join the word before ("컨벤션입니다"): its
    # syllables, and the jamo folding decomposes them into.
    return ch.isalnum() and ord(ch) < 0x2E80 and not 0x1100 <= ord(ch) <= 0x11FF


def _unhyphen(text: str) -> str:
    # "sea-lion" and "sea lion" are one spelling to a reader.
    return text.replace("-", " ") if "-" in text else text


@lru_cache(maxsize=4096)
def fold_key(key: str) -> str:
    return _unhyphen(fold_phrase(key))


@lru_cache(maxsize=4096)
def fold_camel_key(key: str) -> str:
    return _unhyphen(fold_phrase(split_camel(key)))


def _boundary_after(hay: str, j: int, needle: str) -> bool:
    if j == len(hay) or not _wordish(hay[j]) or not _wordish(needle[-1]):
        return True
    if len(needle) >= _PLURAL_MIN and needle[-1].isalpha():
        for suffix in ("s", "es"):
            k = j + len(suffix)
            if hay.startswith(suffix, j) and (k == len(hay) or not _wordish(hay[k])):
                return True
    return False


def _negated(hay: str, i: int) -> bool:
    """The words just before position ``i`` negate what follows ("not the X")."""
    words = hay[max(0, i - _NEGATION_WINDOW) : i].replace(",", " ").split()
    if words and words[-1] in _ARTICLES:
        words.pop()
    if not words:
        return False
    last = words[-1]
    if last in _NEGATORS or last.endswith("n't"):
        return True
    return len(words) >= 2 and f"{words[-2]} {last}" in _NEGATING_PAIRS


# "X or Y", "X/Y", "X (or possibly Y)", "X, maybe Y", "X unless it's Y", "X, but
# it could just as well be Y", "X; could also be Y": another candidate offered
# after the mention.
_HEDGE_AFTER = re.compile(
    r"[ \t]*[,(]?[ \t]*(?:or[ \t]+|/[ \t]*|,[ \t]*(?=maybe|possibly|perhaps)"
    r"|[,;-]?[ \t]*(?:unless|(?:but|though|although)[ \t]+(?:it|this|that)[ \t]+(?:could|might|may)"
    r"(?:[ \t]+(?:also|just as well|equally|as well))?[ \t]+be"
    r"|(?:(?:it|this|that)[ \t]+)?(?:could|might|may)[ \t]+(?:also|just as well|equally|as well)"
    r"[ \t]+be|[,;][ \t]*(?:could|might|may)[ \t]+be)[ \t]+"
    r"(?:(?:it|this|that)(?:'s|[ \t]+is)[ \t]+)?(?:(?:a|an|the)[ \t]+)?)"
    r"(?:(?:maybe|possibly|perhaps|probably|even|else)[ \t]+)?(?P<other>[^\W\d_][^,.;:()!?]*)"
)
# "X, but Y is a real possibility", "X; Y is also plausible", "X. Y is possible
# too", "X, with Y as an outside chance": another candidate called possible
# after the mention.
_POSSIBLE_AFTER = re.compile(
    r"[ \t]*(?:[,;.-][ \t]*(?:(?:but|though|although|and)[ \t]+)?(?:(?:a|an|the)[ \t]+)?"
    r"(?P<other>[^\W\d_][^,.;:()!?]{0,30}?)[ \t]+(?:is|seems|remains)[ \t]+(?:also[ \t]+|equally[ \t]+)?"
    r"(?:(?:a|an)[ \t]+(?:(?:real|strong|distinct|serious|good|outside)[ \t]+)?"
    r"(?:possibility|option|candidate|chance)|possible|plausible|likely)\b"
    r"|,?[ \t]*with[ \t]+(?:(?:a|an|the)[ \t]+)?(?P<with>[^\W\d_][^,.;:()!?]{0,30}?)[ \t]+as[ \t]+"
    r"(?:an?|the)[ \t]+(?:[^\W\d_]+[ \t]+)?(?:chance|possibility|alternative|option|candidate))"
)
_LIST_OR_AFTER = re.compile(
    r"[ \t]*,[ \t]*(?P<other>[^\W\d_][^,.;:!?()\n]{0,40}?)"
    r"(?:,[ \t]*[^\W\d_][^,.;:!?()\n]{0,40}?){0,4},?[ \t]+or[ \t]+[^\W\d_]"
)
_SOFTENERS = frozenset(("maybe", "possibly", "perhaps"))


def _hedged(hay: str, i: int, j: int, same: tuple[str, ...]) -> bool:
    """The mention at ``hay[i:j]`` is offered beside another candidate ("X or Y")."""
    after = _HEDGE_AFTER.match(hay, j)
    if after is not None and not after.group("other").startswith(same):
        return True
    if any(w in hay for w in ("possib", "likely", "plausib", "candidate", "chance", "alternative")):
        possible = _POSSIBLE_AFTER.match(hay, j)
        if possible is not None and not (
            possible.group("other") or possible.group("with")
        ).startswith(same):
            return True
    listed = _LIST_OR_AFTER.match(hay, j) if "or" in hay else None
    if listed is not None and not listed.group("other").startswith(same):
        return True  # "Armstrong, Aldrin or Collins": the first of a list closed by "or"
    # "Edinburgh or Glasgow" for Glasgow: the words before "or", back to punctuation.
    words = hay[max(0, i - 60) : i].split()
    while words and words[-1] in _SOFTENERS:
        words.pop()
    if len(words) < 2 or words[-1] != "or":
        return False
    other: list[str] = []
    for word in reversed(words[:-1]):
        bare = word.rstrip(",")
        if not bare or not bare.replace("'", "").isalpha():
            break
        other.insert(0, bare)
        if bare != word or len(other) == 3:
            break
    return bool(other) and not " ".join(other).endswith(same)


def find_phrase(hay: str, needle: str, same: tuple[str, ...] = ()) -> bool:
    """``needle`` occurs in ``hay`` as whole words, not negated
    nor offered beside another candidate (both folded). ``same`` are other names
    of the needle, which may stand beside it ("Mumbai or Bombay")."""
    return phrase_at(hay, needle, same) >= 0


def phrase_at(hay: str, needle: str, same: tuple[str, ...] = ()) -> int:
    """Where :func:`find_phrase` finds ``needle`` first, else -1."""
    start = 0
    first_wordish = _wordish(needle[0])
    same = (needle, *same)
    while True:
        i = hay.find(needle, start)
        if i == -1:
            return -1
        j = i + len(needle)
        if (
            (i == 0 or not first_wordish or not _wordish(hay[i - 1]))
            and _boundary_after(hay, j, needle)
            and not _negated(hay, i)
            and not _hedged(hay, i, j, same)
        ):
            return i
        start = i + 1


_MODIFIER_MIN = 3


def inside_word(hay: str, needle: str) -> str | None:
    """The compound ``needle`` ends, as "flower" ends "sunflower": a longer word
    whose first part is itself an English word of three letters or more
    (WordNet's lemmas, through ``wordnet-lookup``). English compounds name their
    kind last, so such a word is most often the key (a teapot is a pot) but not
    always (a pineapple is no apple). A word whose first part is no word
    ("spot", "million", "woman") is another word, not a compound."""
    if len(needle) < _PLURAL_MIN or not needle.isalpha():
        return None
    # The key in either number ("strawberries" ends in "berries").
    forms = "|".join(re.escape(f) for f in (needle, *plurals(needle)))
    for m in re.finditer(r"\b(\w+)(?:" + forms + r")(?:e?s)?\b", hay):
        modifier = m.group(1)
        if len(modifier) >= _MODIFIER_MIN and modifier.isalpha() and is_word(modifier):
            return m.group(0)
    return None


def is_word(word: str) -> bool:
    """``word`` is one of WordNet's English lemmas."""
    from wordnet_lookup import is_wordnet_term

    return bool(is_wordnet_term(word))


# " than X" after "-er", "more", "less" (a fixed look-behind: one test per position).
_COMPARED = re.compile(r"(?<=er|re|ss|ER|RE|SS) than\b[^.;,!?\n]{0,200}", re.IGNORECASE)


# "the Danube, often confused with the Rhine", "not to be mistaken for X".
_CONFUSED = re.compile(
    r"\b(?:confused|confuse|confusing|mistaken|mistake|mixed up|mix up)[ \t]+(?:it[ \t]+)?(?:with|for)"
    r"\b[^.;,!?\n]{0,200}",
    re.IGNORECASE,
)


class Answer:
    """An answer text folded once, with its compound-split form made on demand.

    A mention inside a span the answer rules out ("not Paris", "rather than
    X") does not count; a key also matches by the other names of
    :mod:`scorers.evaluate.strict.names` (``Deutschland`` for Germany)."""

    __slots__ = ("_camel", "_dates", "_spaceless", "_words", "folded", "raw")

    def __init__(self, raw: str) -> None:
        # A no-break or thin space reads as a space ("Atlantic\u00a0City" is one name).
        self.raw = raw = raw if raw.isascii() else as_space(raw)
        kept = drop_excluded(raw)
        if " than " in kept:
            # "Venus is hotter than Mercury": what an answer compares its
            # candidate with is not its answer.
            kept = _COMPARED.sub(" ", kept)
        if "onfuse" in kept or "istake" in kept or "ixed up" in kept:
            kept = _CONFUSED.sub(" ", kept)  # nor what it says it is confused with
        self.folded = _unhyphen(fold_phrase(kept))
        self._camel: str | None = None
        self._spaceless: str | None = None
        self._words: frozenset[str] | None = None
        self._dates: set[tuple[int, int, int]] | None = None

    def contains(self, key: str, *, remove_space: bool = False) -> bool:
        needle = fold_key(key)
        if not needle:
            return False
        if remove_space:
            # Spaces removed on both sides leave no word boundaries to check:
            # the reference's substring test, on folded text.
            if self._spaceless is None:
                self._spaceless = self.folded.replace(" ", "")
            return needle.replace(" ", "") in self._spaceless
        if self._named(needle, key):
            return True
        if _DIGIT.search(needle) and (date := key_date(key)) is not None:
            # "21 de abril de 2017", "2017年4月21日" for "21 April 2017"
            if self._dates is None:
                self._dates = dates_in(self.folded, self.raw)
            if date in self._dates:
                return True
        if (
            key.isupper()
            and key.isalpha()
            and _ABBREVIATION_SIZE[0] <= len(key) <= _ABBREVIATION_SIZE[1]
        ):
            # "UK", "EU": an abbreviation is named by the place name it abbreviates.
            kept = drop_excluded(self.raw)
            if any(
                _initials(m.group()) == key and names.is_place(fold_phrase(m.group()))
                for m in _SPELLED_OUT.finditer(kept)
            ):
                return True
        if " " not in needle:
            # A compound counts only where the key is written as a word of it:
            # "Tokyo Disney" in "Tokyo DisneySea", never "Java" in "JavaScript".
            return False
        if self._camel is None:
            self._camel = (
                _unhyphen(fold_phrase(split_camel(drop_excluded(self.raw))))
                if _has_camel(self.raw)
                else ""
            )
        return bool(self._camel) and find_phrase(self._camel, fold_camel_key(key))

    def _named(self, needle: str, key: str) -> bool:
        hay = self.folded
        if needle in hay:
            same = _alternatives(key) if _maybe_hedged(hay) else ()
            if find_phrase(hay, needle, same) and not _other_place(hay, needle, key):
                return True
        others = _alternatives(key)
        short = names.initials(key) if _has_initials(self.raw) else ()
        if short:
            kept = drop_excluded(self.raw)
            if "." in kept:
                kept = _DOTTED.sub(lambda m: m.group().replace(".", ""), kept)  # "U.S." is US
            if any(re.search(rf"\b{s}\b", kept) for s in short):
                return True
        if not others:
            return False
        # A country has a hundred names or more: look up only those whose first
        # word the answer has (and the few in scripts without spaces).
        by_first, anywhere = _alternatives_by_first_word(key)
        if self._words is None:
            self._words = _words_of(hay)
        candidates = [o for w in self._words & by_first.keys() for o in by_first[w]]
        return any(
            o in hay and find_phrase(hay, o, (needle, *others)) and not _other_place(hay, o, key)
            for o in (*candidates, *anywhere)
        )

    def inside(self, key: str) -> str | None:
        return inside_word(self.folded, fold_key(key))


_WORD = re.compile(r"\w+")


@lru_cache(maxsize=4096)
def _alternatives_by_first_word(key: str) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """A key's other names by their first word, and those that may begin
    inside a word of the answer (CJK, kana: no spaces between words)."""
    by_first: dict[str, list[str]] = {}
    anywhere: list[str] = []
    for other in _alternatives(key):
        first = _WORD.match(other)
        if first is None or not _wordish(other[0]) or not other.isascii() and not _spaced(other):
            anywhere.append(other)
        else:
            by_first.setdefault(first.group(), []).append(other)
    return {k: tuple(v) for k, v in by_first.items()}, tuple(anywhere)


def _words_of(hay: str) -> frozenset[str]:
    """The answer's words, and each without a plural ending (a name may take one)."""
    words = set(_WORD.findall(hay))
    words.update([w[:-1] for w in words if w.endswith("s")])
    words.update([w[:-1] for w in words if w.endswith("e")])  # "-es" after the "s"
    return frozenset(words)


def _spaced(text: str) -> bool:
    # A script that writes spaces between words (Latin, Cyrillic, Greek, ...).
    return all(ord(c) < 0x2E80 for c in text)


@lru_cache(maxsize=4096)
def _alternatives(key: str) -> tuple[str, ...]:
    names_of = (_unhyphen(a) for a in alternatives(key))
    # A capitalised key is a name ("Paris" is no plural of "Pari").
    numbers = plurals(fold_key(key)) if key[:1].islower() else ()
    people = person_variants(key) if " " in key and key[:1].isupper() else ()
    return tuple(dict.fromkeys((*names_of, *numbers, *people)))


# English plural morphology beyond -s/-es, and the irregular plurals English has
# (a closed class of the grammar, not a list of answers).
_IRREGULAR = {
    "mouse": "mice", "goose": "geese", "foot": "feet", "tooth": "teeth", "person": "people",
    "child": "children", "ox": "oxen", "louse": "lice", "die": "dice", "cactus": "cacti",
    "fungus": "fungi", "criterion": "criteria", "phenomenon": "phenomena",
}  # fmt: skip
_SINGULAR = {v: k for k, v in _IRREGULAR.items()}


def plurals(word: str) -> tuple[str, ...]:
    """The other number of a one-word key: "berry"/"berries", "leaf"/"leaves",
    "woman"/"women", "mouse"/"mice" (and back)."""
    irregular = _IRREGULAR.get(word) or _SINGULAR.get(word)
    if irregular is not None:
        return (irregular,)  # ("ox"/"oxen": also under the length of a regular one)
    if " " in word or not word.isalpha() or len(word) < _PLURAL_MIN:
        return ()
    out: list[str] = []
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        out.append(word[:-1] + "ies")
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("fe"):
        out.append(word[:-2] + "ves")
    elif word.endswith("f"):
        out.append(word[:-1] + "ves")
    if word.endswith("ves"):
        out += [word[:-3] + "f", word[:-3] + "fe"]
    if word.endswith("man"):
        out.append(word[:-3] + "men")
    if word.endswith("men"):
        out.append(word[:-3] + "man")
    if word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])  # "apples" keys "apple"
    if word.endswith("es"):
        out.append(word[:-2])
    return tuple(w for w in out if len(w) >= _PLURAL_MIN)


def singular(word: str) -> str:
    """The singular of an English plural that does not end in a plain ``s``
    ("mice", "cherries", "leaves"); other words as they are."""
    if word in _SINGULAR:
        return _SINGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("men") and len(word) > 4:
        return word[:-3] + "man"
    return word


def _maybe_hedged(hay: str) -> bool:
    return " or " in hay or "/" in hay


_ABBREVIATION_SIZE = (2, 5)
# Capitalised words, with the lower-case particles a full name keeps inside it
# ("United States of America", "Bosnia and Herzegovina").
_SPELLED_OUT = re.compile(r"\b[A-Z][a-z]+(?:[ \t]+(?:(?:of|the|and|for)[ \t]+)*[A-Z][a-z]+)+")


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


_has_camel = re.compile(r"[a-z][A-Z]").search
_has_initials = re.compile(r"\b[A-Z](?:\.?[A-Z]){1,3}\b").search

_DOTTED = re.compile(r"\b(?:[A-Z]\.){2,4}")


def _other_place(hay: str, needle: str, key: str) -> bool:
    """Every mention of a place key is part of a longer place's name that lies
    elsewhere ("York" in "New York"; not "Mexico" in "Mexico City", which is in
    Mexico), or is qualified by a region it is not in ("Saint Petersburg,
    Florida" for the Russian city)."""
    code, city = place_of(key)
    if code is None and city is None:
        return False
    start = 0
    while True:
        i = hay.find(needle, start)
        if i == -1:
            return True
        j = i + len(needle)
        start = i + 1
        if (i and _wordish(hay[i - 1])) or not _boundary_after(hay, j, needle):
            continue
        while j < len(hay) and _wordish(hay[j]):
            j += 1  # a plural ending belongs to the mention ("athen" in "athens")
        if not _elsewhere(hay, i, j, code, city):
            return False


def _neighbours(words: list[str], backwards: bool, reach: int) -> list[str]:
    """Up to ``reach`` words next to a mention, stopping at punctuation; an
    apostrophe inside a word keeps it a word ("people's")."""
    out: list[str] = []
    for word in reversed(words[-reach:]) if backwards else words[:reach]:
        bare = word.strip('.,;:!?()"')
        if not bare.replace("'", "").isalpha():
            break
        out.append(bare)
        if bare != word:
            break
    return out


_QUALIFIED = re.compile(r"([^\W\d_]+(?: [^\W\d_]+){0,2}),[ \t]*\Z")


def _elsewhere(hay: str, i: int, j: int, code: str | None, city: int | None) -> bool:
    mention = hay[i:j]
    # A longer name can reach as far as the longest country name has words, on
    # either side ("Îles Vierges des États-Unis" around "États-Unis").
    reach = names.longest_name() - len(mention.split())
    span = 16 * reach
    left = (
        []
        if i and not hay[i - 1].isspace()
        else _neighbours(hay[max(0, i - span) : i].split(), True, reach)
    )
    right = (
        []
        if j < len(hay) and not hay[j].isspace()
        else _neighbours(hay[j : j + span].split(), False, reach)
    )
    words = names.name_words()  # a neighbour outside it makes no longer name
    left = left[: next((k for k, w in enumerate(left) if w not in words), len(left))]
    right = right[: next((k for k, w in enumerate(right) if w not in words), len(right))]
    for n_left in range(len(left) + 1):
        for n_right in range(min(len(right), reach - n_left) + 1):
            if not n_left and not n_right:
                continue
            # The answer's hyphens are spaces: "Guinea-Bissau" as the data spells it.
            name = names.as_written(" ".join([*reversed(left[:n_left]), mention, *right[:n_right]]))
            other = names.city(name)
            if other is not None and other != city:
                return names.city_info(other).country != code
            if names.us_state(name) is not None:  # "New Jersey" is no Jersey
                return code != "US"
            longer = names.territory(name)
            if longer is not None and longer != code:  # "Papua New Guinea" is no Guinea
                return True
    if code is not None and names.us_state(mention) is not None:
        # "Atlanta, Georgia": a country's name qualifying a city elsewhere is
        # that city's state ("Tbilisi, Georgia" stays the country).
        before = _QUALIFIED.search(hay[max(0, i - 40) : i])
        if before is not None:
            preceding = before.group(1).split()
            for n in range(1, len(preceding) + 1):  # "savannah", "in savannah", ...
                place = names.city(" ".join(preceding[-n:]))
                if place is not None:
                    if names.city_info(place).country != code:
                        return True
                    break
    if city is not None:
        qualifier = re.match(r"[ \t]*,[ \t]*([^\W\d_][^,.;()]*)", hay[j:])
        if qualifier is not None:
            region = qualifier.group(1).strip()
            info = names.city_info(city)
            state = names.us_state(region)
            territory = names.territory(region)
            if state is None and territory is None:
                return False
            # "Tbilisi, Georgia" is the country; "Athens, Georgia" the state.
            in_state = state is not None and info.country == "US" and info.admin1 == state
            return not in_state and territory != info.country
    return False
