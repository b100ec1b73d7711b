"""The options a question lists, and which of them an answer names by their text.

A reader who sees "B. 15" in the question and "15" in the answer knows the
answer chose B. Options are read from the annotation's ``question`` text in the
usual layouts: one per line (``A. 12``, ``(B) 15``, ``C) 18``, ``D: 21``), in a
run on one line (``A. cat B. dog``), or as ``1 = woman in a hat, 2 = child``.

An option is named by its whole text (folded, as key items are: whole words,
without a leading article), by its number when the options are numbers (``4``
and ``four`` name the option ``Four``), or, for options of several words, by a
word that no other option has (``red`` names "runner in red" when the others are
"runner in blue", ...). A mention that the answer negates does not name it.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from scorers.evaluate.strict import option_letters
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import find_numbers, pick_number
from scorers.evaluate.strict.phrases import find_phrase, phrase_at, singular

_LINE_OPTION = re.compile(
    # (lower-case labels only bracketed, "(a) sunny" or "a) sunny": "a." opens prose)
    # (a circled number, "① cat" or "①cat", needs no stop after it)
    r"^[ \t>*_-]*[(\[]?(?P<label>[A-Z]|[a-z](?=[)\]])|\d{1,2}|[①-⑳])"
    r"(?:(?:[.)\]:：]|[ \t]*[-=])[ \t]+|(?<=[①-⑳])[ \t]*)"
    r"(?P<text>\S.*?)[ \t]*$",
    re.MULTILINE,
)
# "A. cat B. dog C. mouse" on one line: each label begins where the last text ends.
_INLINE_OPTION = re.compile(r"(?:^|(?<=[\s|:;,]))[(\[]?(?P<label>[A-Z])[.)\]][ \t]+")
# What every _INLINE_OPTION match holds, searched for first: a pattern that opens with a
# look-behind is tried at every position, one that opens with a class is not (each of
# the gates here and below skips what cannot match in a question that lists no options).
_INLINE_LABEL = re.compile(r"[A-Z][.)\]][ \t]")
# A mapping written out, as JSON or a Python dict prints one: 'A': 'cat', "B": "dog".
_QUOTED_OPTION = re.compile(
    r"""['"‘“](?P<label>[A-Z])['"’”][ \t]*[:：][ \t]*['"‘“](?P<text>[^'"‘’“”\n]+)['"’”]"""
)
_EQUALS_OPTION = re.compile(r"(?<![\w.])(?P<label>[A-Z]|\d{1,2})[ \t]*=[ \t]*(?P<text>[^,;\n|]+)")
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "and",
        "or",
        "by",
        "from",
        "is",
        "are",
        "its",
        "it",
        "this",
        "that",
    ]
)


def _clean(text: str) -> str:
    text = text.strip().rstrip(".;,،|").rstrip()
    folded = fold_phrase(text)
    for article in ("the ", "a ", "an "):
        if folded.startswith(article) and len(folded) > len(article):
            return folded[len(article) :]
    return folded


CIRCLED = {chr(0x2460 + k): str(k + 1) for k in range(20)}  # ① .. ⑳ as 1 .. 20


def _accept(found: list[tuple[str, str]]) -> dict[str, str] | None:
    found = [(CIRCLED.get(label, label), text) for label, text in found]
    labels = [label.upper() for label, _ in found]
    if len(found) < 2 or len(set(labels)) != len(labels):
        return None
    options = {label.upper(): _clean(text) for label, text in found}
    return options if all(options.values()) else None


@lru_cache(maxsize=2048)
def options(question: str | None) -> dict[str, str]:
    """Label -> folded option text, or {} when the question lists no options."""
    if not question:
        return {}
    found = _accept([(m.group("label"), m.group("text")) for m in _LINE_OPTION.finditer(question)])
    if found is not None and any(" " in t for t in found.values()):
        # Two options to a line ("A. apple  B. banana"): read the labels across lines.
        pairs = []
        for line in question.splitlines():
            starts = list(_INLINE_OPTION.finditer(line))
            if not starts:
                continue
            pairs += [
                (m.group("label"), line[m.end() : nxt.start() if nxt else len(line)])
                for m, nxt in zip(starts, [*starts[1:], None], strict=True)
            ]
        labels = [label for label, _ in pairs]
        if labels == [chr(ord("A") + k) for k in range(len(labels))]:
            found = _accept(pairs) or found
    # Each scan runs only where the literal it needs is present: regexes that
    # open with a look-behind are tried at every position.
    if found is None and ("':" in question or '":' in question or "’:" in question):
        found = _accept(
            [(m.group("label"), m.group("text")) for m in _QUOTED_OPTION.finditer(question)]
        )
    if found is None and "=" in question:
        found = _accept(
            [(m.group("label"), m.group("text")) for m in _EQUALS_OPTION.finditer(question)]
        )
    if found is None and "[" in question:
        found = _listed(question)
    if found is None and _INLINE_LABEL.search(question) is not None:
        for line in question.splitlines():
            if "." not in line and ")" not in line and "]" not in line:
                continue  # no label can end here
            starts = list(_INLINE_OPTION.finditer(line))
            if len(starts) >= 2:
                pairs = [
                    (m.group("label"), line[m.end() : nxt.start() if nxt else len(line)])
                    for m, nxt in zip(starts, [*starts[1:], None], strict=True)
                ]
                found = _accept(pairs)
                if found is not None:
                    break
    if found is None and ("(" in question or "①" in question or "②" in question):
        found = _inline_numbered(question)
    if found is None:
        found = _described(question)
    if found is None and (script := option_letters.question_script(question)):
        # "أ. ...", "Б) ...": another script's option letters, read as the Latin
        # letters of their places
        return options(option_letters.to_latin(question, script))
    return found or {}


# A line holding a list of quoted strings, as a dataset prints its choices:
# "['Paris', 'Lyon', 'Nice']" or '["A. Paris", "B. Lyon"]'.
_LIST_LINE = re.compile(r"^[ \t]*\[[ \t]*(['\"]).*\1[ \t]*\][ \t]*$", re.MULTILINE)
_OWN_LABEL = re.compile(r"[(\[]?([^\W\d_])[.)\]:][ \t]*")


def _latin(letter: str) -> str:
    """An option letter as the Latin letter of its place ("ب" is "B")."""
    if "A" <= letter <= "Z":
        return letter
    read = option_letters.latin_label(letter, None)
    return read[0] if read else ""


def _listed(question: str) -> dict[str, str] | None:
    """Options given as a list of strings on a line of their own: each item's own
    letter when every item opens with its letter in order, else A, B, C, ... by place."""
    for m in reversed(list(_LIST_LINE.finditer(question))):
        try:
            items = ast.literal_eval(m.group().strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if not isinstance(items, list) or len(items) < 2:
            continue
        if not all(isinstance(x, str) and x.strip() for x in items):
            continue
        letters = [chr(ord("A") + k) for k in range(len(items))]
        own = [_OWN_LABEL.match(x.strip()) for x in items]
        if all(own) and [_latin(o.group(1)) for o in own if o] == letters:
            items = [x.strip()[o.end() :] for x, o in zip(items, own, strict=True) if o]
        return _accept(list(zip(letters, items, strict=True)))
    return None


# Numbered options in a run: "① cat ② dog ③ mouse", "(1) cat (2) dog (3) mouse".
_INLINE_NUMBER = re.compile(r"(?:^|(?<=\s))(?:(?P<circled>[①-⑳])|\((?P<number>\d{1,2})\))[ \t]*")
_NUMBER_OPENING = re.compile(r"\(\d")  # (the gates of _INLINE_NUMBER's two kinds)
_CIRCLED_NUMBER = re.compile(r"[①-⑳]")


def _inline_numbered(question: str) -> dict[str, str] | None:
    """Options numbered 1 to n in a run on a line or across lines, each up to the next."""
    if _NUMBER_OPENING.search(question) is None and (
        question.isascii() or _CIRCLED_NUMBER.search(question) is None
    ):
        return None
    starts = list(_INLINE_NUMBER.finditer(question))
    if len(starts) < 2:
        return None
    pairs = []
    for m, nxt in zip(starts, [*starts[1:], None], strict=True):
        text = question[m.end() : nxt.start() if nxt else len(question)].split("\n", 1)[0]
        pairs.append((m.group("circled") or m.group("number"), text))
    labels = [CIRCLED.get(label, label) for label, _ in pairs]
    if labels != [str(k) for k in range(1, len(labels) + 1)]:
        return None
    return _accept(pairs)


# A lower-case label as a question writes it: "(a) cat", "b) dog", "[c] horse".
_LOWER_LABEL = re.compile(r"(?:^|(?<=\s))[(\[]?([a-z])[)\]][ \t]+\S")


@lru_cache(maxsize=2048)
def lower_labels(question: str | None) -> bool:
    """The question labels its options in lower case: its readers answer "so b."."""
    opts = options(question)
    if not opts or question is None:
        return False
    found = {m.group(1).upper() for m in _LOWER_LABEL.finditer(question)}
    return len(found & opts.keys()) >= 2


# Options told in prose: "A shows sunset, B shows noon", "Photo A: sunset.",
# "A - sunset; B - noon", "image A is a sunset"; lower-case "a) sunset b) noon".
# A bare lower-case letter before "=" or ":" is a variable ("a = 3m, b = 5m"), so
# a lower-case label needs its bracket or a word naming what it labels.
_DESCRIBED = re.compile(
    r"(?:^|(?<=[\s,;:.(]))(?P<noun>(?:photo|image|picture|panel|frame|figure|option|item|card|box)[ \t]+)?"
    r"(?P<label>[A-Z]|[a-z](?=\)))(?:\)|[ \t]*[:=]|[ \t]+[-–—]|[ \t]+(?:is|shows|depicts|contains)"
    r"(?:[ \t]+(?:a|an|the))?)[ \t]+(?P<text>[^,;.\n()]{1,60})",
    re.IGNORECASE,
)


# Where a second label ("B", "b)") stands as _DESCRIBED reads one: the labels run
# A, B, ..., so without it none are found (a cheaper scan than _DESCRIBED's). What
# may stand before it (_DESCRIBED's look-behind) is checked for each match: no match
# holds another "b", so none hides the next.
_SECOND_LABEL = re.compile(
    r"[Bb](?:\)|[ \t]*[:=]|[ \t]+[-–—]|[ \t]+(?:is|shows|depicts|contains))", re.I
)


def _second_label(question: str) -> bool:
    for m in _SECOND_LABEL.finditer(question):
        at = m.start()
        if not at or question[at - 1].isspace() or question[at - 1] in ",;:.(":
            return True
    return False


def _described(question: str) -> dict[str, str] | None:
    """Options described in prose, when their labels run A, B, C, ... in order."""
    if not _second_label(question):
        return None
    found = [
        (m.group("label").upper(), m.group("text"))
        for m in _DESCRIBED.finditer(question)
        if m.group("label").isupper() or m.group("noun") or question[m.end("label")] == ")"
    ]
    labels = [label for label, _ in found]
    if len(found) < 2 or labels != [chr(ord("A") + k) for k in range(len(found))]:
        return None
    return _accept(found)


def _value(text: str, unit: str = "") -> float | None:
    """The number an option's text or an answer's word spells, if it is one
    (before ``unit``, the words every option ends with, as "cm" in "12 cm")."""
    text = text.replace(",", "")
    if unit:
        if not text.endswith(unit):
            return None
        text = text[: -len(unit)].rstrip()
    try:
        return float(text)
    except ValueError:
        pass
    number, _ = pick_number(text, last=False)
    if number is None or number.start != 0 or number.end < len(text.rstrip(" .")):
        return None
    return number.value


_UNIT = re.compile(r"(?<=[\d ])([^\W\d_]+|[%°$€£]\S*)$")


def _shared_unit(opts: dict[str, str]) -> str:
    """The unit every option's number carries ("12 cm", "15 cm"), else ""."""
    units = {m.group(1) if (m := _UNIT.search(t)) else "" for t in opts.values()}
    return units.pop() if len(units) == 1 else ""


def _words(text: str) -> set[str]:
    # A time or ratio ("11:30", "3:2") is one word: its parts are none, and
    # another time sharing one ("4:30") names nothing.
    joined = _JOINED_DIGITS.findall(text)
    words = re.findall(r"[^\W_]+", _JOINED_DIGITS.sub(" ", text))
    return {w for w in [*joined, *words] if w not in STOP_WORDS}


_JOINED_DIGITS = re.compile(r"\d+(?::\d+)+")


@lru_cache(maxsize=2048)
def _distinctive(opts: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    """Per option, the content words no other option has."""
    words = {label: _words(text) for label, text in opts}
    out = {}
    for label, own in words.items():
        others = set().union(*(w for other, w in words.items() if other != label))
        out[label] = frozenset(own - others)
    return out


def number_options(opts: dict[str, str]) -> dict[str, float] | None:
    """The options' numbers, when every option is a distinct number ("12",
    "four", or "12 cm" beside "15 cm": options of one unit are their numbers)."""
    return _number_options(tuple(opts.items()))


@lru_cache(maxsize=2048)
def _number_options(items: tuple[tuple[str, str], ...]) -> dict[str, float] | None:
    opts = dict(items)
    values = {label: _value(t) for label, t in opts.items()}
    if any(v is None for v in values.values()):
        unit = _shared_unit(opts)
        values = {label: _value(t, unit) for label, t in opts.items()} if unit else values
    if any(v is None for v in values.values()) or len(set(values.values())) != len(values):
        return None
    return {k: v for k, v in values.items() if v is not None}


# Words that turn a clause into the answer's conclusion: what follows the last
# of them is what the answer settles on ("..., so partly cloudy", "I'll go with",
# "...: carbon dioxide").
_CONCLUDING = re.compile(
    r"\b(?:but|yet|however|so|therefore|thus|hence|which means|go with|going with|choose|choosing"
    r"|pick|picking|answer is|settle on)\b|[=:]"
)


_BRACKETED = re.compile(r"\([^()]{0,200}\)")
_TORN = re.compile(r"\b(?:torn|either|not sure|unsure|can't decide|cannot decide|between)\b")


def named_one(text: str, opts: dict[str, str], asked: str = "") -> tuple[list[str], str | None]:
    """The option ``text`` (folded) names when the question takes one answer,
    and why that reading is unsure. Several options named: the one the last
    concluding clause names ("between the cat and the dog; I'll go with the
    dog"), else the first named, the others read as remarks ("1989;
    reunification followed in 1990"), reported uncertain."""
    text, opts = plain_maths(text, opts)
    if "(" in text:
        # "Six sides (a pentagon has five)": a remark in brackets names nothing
        # when the text around it names an option.
        outside = _BRACKETED.sub(" ", text)
        if outside != text and named(outside, opts):
            text = outside
    found = named(text, opts)
    if len(found) == 1:
        # A word of another option's own ("Michelangelo painted the chapel; the
        # Mona Lisa is Leonardo's") names it too, though not in full.
        others = [
            label
            for label, words in _distinctive(tuple(opts.items())).items()
            if label not in found and any(find_phrase(text, w) for w in words)
        ]
        if others:
            found = sorted({*found, *others})
    if " or " in text:
        # "Either carbon dioxide or nitrogen": whole option texts offered side
        # by side are no choice, though a word of one alone would name it.
        offered = [k for k, t in opts.items() if _whole(text, t)]
        if len(offered) > 1 and not _CONCLUDING.search(text):
            return offered, None
    if len(found) <= 1:
        return found, None
    cues = list(_CONCLUDING.finditer(text))
    if cues:
        settled = named(text[cues[-1].end() :], opts)
        if len(settled) == 1:
            return settled, None
    if _TORN.search(text):
        return found, None  # several kept open ("torn between"): no choice
    # The option named in the clause that speaks of what the question asks
    # ("the Mona Lisa is Leonardo's" for "Who painted the Mona Lisa?"), else
    # the first named.
    at = {label: _first_mention(text, label, opts) for label in found}
    topic = _topic_words(asked, opts)
    best = max(found, key=lambda label: (_overlap(_clause_at(text, at[label]), topic), -at[label]))
    return [best], None


_CLAUSE_BREAK = re.compile(r"[.;!?\n]|,[ \t]+(?:but|while|whereas)\b")


def _clause_at(text: str, at: int) -> str:
    """The clause of ``text`` around position ``at``."""
    start = 0
    for m in _CLAUSE_BREAK.finditer(text, 0, at):
        start = m.end()
    stop = _CLAUSE_BREAK.search(text, at)
    return text[start : stop.start() if stop else len(text)]


def _topic_words(asked: str, opts: dict[str, str]) -> frozenset[str]:
    """The stems of the question's own content words, its options left out."""
    if not asked:
        return frozenset()
    option_words = {_stem(w) for t in opts.values() for w in _words(t)}
    words = _words(fold_phrase(asked.split("\n", 1)[0]))
    return frozenset(s for w in words if len(w) > 3 and (s := _stem(w)) not in option_words)


def _overlap(clause: str, topic: frozenset[str]) -> int:
    return len({_stem(w) for w in _words(clause)} & topic)


def _whole(text: str, option: str) -> bool:
    """``option`` occurs in ``text`` as whole words, however it is offered."""
    at = text.find(option)
    while at >= 0:
        end = at + len(option)
        if (at == 0 or not text[at - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            return True
        at = text.find(option, at + 1)
    return False


def _first_mention(text: str, label: str, opts: dict[str, str]) -> int:
    values = number_options(opts)
    if values is not None:
        starts = [n.start for n in find_numbers(text) if n.value == values[label]]
        return min(starts, default=len(text))
    at = phrase_at(text, opts[label])
    if at < 0:
        spots = [phrase_at(text, w) for w in _distinctive(tuple(opts.items()))[label]]
        at = min((x for x in spots if x >= 0), default=len(text))
    return at


def named(text: str, opts: dict[str, str]) -> list[str]:
    """The labels whose option ``text`` (already folded) names, in label order."""
    if not text or not opts:
        return []
    text, opts = plain_maths(text, opts)
    values = number_options(opts)
    if values is not None:
        # Options that are numbers: the answer's number chooses ("3 on the left
        # and 2 on the right, so 5" is 5, not also 3 and 2).
        number, _ = pick_number(text, last=True)
        mentioned = {n.value for n in find_numbers(text)}
        several = [k for k, v in values.items() if v in mentioned]
        if len(several) > 1:
            return several  # for the caller to settle (see named_one)
        return [] if number is None else [k for k, v in values.items() if v == number.value]
    out = [label for label, t in opts.items() if find_phrase(text, t)]
    if len(out) > 1:
        # "cat and dog" names that option, not also the option "cat" inside it.
        # (an option listed twice, word for word, holds no other)
        out = [
            x
            for x in out
            if not any(opts[y] != opts[x] and find_phrase(opts[y], opts[x]) for y in out)
        ]
    if out:
        return out
    distinctive = _distinctive(tuple(opts.items()))
    found = [
        label for label, words in distinctive.items() if any(find_phrase(text, w) for w in words)
    ]
    if found:
        return found
    # "preheating" names "preheat the oven": the words compared by their stems.
    stems = {_stem(w) for w in re.findall(r"[^\W_]+", text)}
    return [label for label, words in distinctive.items() if any(_stem(w) in stems for w in words)]


# LaTeX's notation of a root, a fraction, a product and pi, and the root sign, as a
# plain-text option writes them once folded ("12*sqrt(3)" folds to "12sqrt(3)").
_LATEX_PLAIN = (
    (re.compile(r"[ \t]*(?:\\cdot|\\times|\\,|\\!|\\left|\\right)[ \t]*"), ""),
    (re.compile(r"\\d?frac[ \t]*\{([^{}]*)\}[ \t]*\{([^{}]*)\}"), r"\1/\2"),
    (re.compile(r"(?:\\sqrt|√)[ \t]*\{([^{}]*)\}"), r"sqrt(\1)"),
    (re.compile(r"(?:\\sqrt|√)[ \t]*(\w+)"), r"sqrt(\1)"),
    (re.compile(r"(?<=[\d)])[ \t]+(?=sqrt\(|\\pi\b)"), ""),
    (re.compile(r"\\pi\b"), "pi"),
)


def plain_maths(text: str, opts: dict[str, str]) -> tuple[str, dict[str, str]]:
    """ "12\\sqrt{3}" names the option "12*sqrt(3)" (and not "12"): both as plain math."""
    if "\\" in text or "√" in text or any("√" in t for t in opts.values()):
        return _plain_math(text), {k: _plain_math(t) for k, t in opts.items()}
    return text, opts


def _plain_math(text: str) -> str:
    for pattern, plain in _LATEX_PLAIN:
        text = pattern.sub(plain, text)
    return text


_SUFFIX = re.compile(r"(?:ing|ed|es|e|s|y)$")
_DOUBLED = re.compile(r"([b-df-hj-np-tv-z])\1$")


def _stem(word: str) -> str:
    """A word without its inflection or derivation ("baking" and "bake" are
    "bak", "running" and "run" are "run", "rainy" is "rain", "cherries" is
    "cherry" and "mice" is "mouse" first), enough to match an item to an
    option's wording."""
    if len(word) <= 3:
        return word
    word = singular(word)
    stem = _SUFFIX.sub("", word)
    return _DOUBLED.sub(r"\1", stem) if len(stem) > 3 else stem


def map_item(item: str, opts: dict[str, str]) -> str | None:
    """The label of the one option an ordered-list item names, else None."""
    found = named(fold_phrase(item), opts)
    return found[0] if len(found) == 1 else None


# The words an order runs between: superlatives ("from smallest to largest",
# "tallest first") and the compass and page directions ("from north to south").
_END = r"[a-z]+(?:est|st)|north|south|west|east|left|right|top|bottom"
_FROM_TO = re.compile(rf"\bfrom (?:the )?({_END})\b[^.?\n]{{0,20}}?\bto (?:the )?({_END})\b")
# In an answer the "from" may be left out ("South to north: Rome, ..."), where
# the phrase heads the list or closes it in brackets.
_TO = re.compile(rf"(?:^|[(\[:;,][ \t]*)(?:the )?({_END}) to (?:the )?({_END})\b")
_FIRST = re.compile(r"\b([a-z]+(?:est|st)) first\b")
_FROM_ONE_END = re.compile(
    rf"(?:^|[(\[:;,.][ \t]*)(?:from|starting (?:with|from|at)) (?:the )?({_END})\b(?![^.:;\n]*\bto\b)"
)
# Without "from", a pair of ends joined by "to" ("Sort them lightest to heaviest").
_BARE_TO = re.compile(rf"\b({_END}) to (?:the )?({_END})\b")
# Each pair is (low end, high end): "ascending" starts at the first.
_OPPOSITES = (
    ("smallest", "largest"), ("shortest", "tallest"),
    ("shortest", "longest"), ("lightest", "heaviest"), ("youngest", "oldest"),
    ("earliest", "latest"), ("closest", "farthest"), ("fewest", "most"),
    ("slowest", "fastest"), ("lowest", "highest"), ("cheapest", "most expensive"),
    ("shallowest", "deepest"), ("coldest", "hottest"), ("narrowest", "widest"),
    ("thinnest", "thickest"), ("weakest", "strongest"), ("dimmest", "brightest"),
    ("poorest", "richest"), ("quietest", "loudest"), ("softest", "hardest"),
    ("north", "south"), ("west", "east"), ("left", "right"), ("top", "bottom"),
)  # fmt: skip
_SCALES = len(_OPPOSITES) - 4  # the pairs before the directions


def _opposite(word: str) -> str | None:
    for a, b in _OPPOSITES:
        if word == a:
            return b
        if word == b:
            return a
    return None


def _low_end(word: str) -> bool | None:
    """``word`` is the low end of its pair ("smallest"), the high end ("largest"), or neither."""
    for a, b in _OPPOSITES[:_SCALES]:
        if word in (a, b):
            return word == a
    return None


# Superlatives that name the same end, and the one word each is read as.
SAME_END = {
    "biggest": "largest", "greatest": "largest", "tiniest": "smallest", "littlest": "smallest",
    "eldest": "oldest", "furthest": "farthest", "nearest": "closest", "densest": "heaviest",
    "newest": "latest", "soonest": "earliest",
    "northernmost": "north", "southernmost": "south", "westernmost": "west",
    "easternmost": "east", "leftmost": "left", "rightmost": "right",
}  # fmt: skip


def end_word(word: str) -> str:
    return SAME_END.get(word, word)


@lru_cache(maxsize=2048)
def ends(text: str | None) -> tuple[str, str] | None:
    """The superlatives a question or an answer orders between, first then last."""
    if not text:
        return None
    lowered = text.lower().replace("most recent", "latest")
    # Each scan runs only where the words it needs are ("from ", " to ", " first"):
    # most questions order nothing, and a regex search tries every position.
    m = _FROM_TO.search(lowered) if "from " in lowered else None
    if m is not None:
        return end_word(m.group(1)), end_word(m.group(2))
    bare = _BARE_TO.search(lowered) if " to " in lowered else None  # "smallest to largest"
    if bare is not None:
        pair = end_word(bare.group(1)), end_word(bare.group(2))
        if pair in _OPPOSITES or pair[::-1] in _OPPOSITES:
            return pair
    first = _FIRST.search(lowered) if " first" in lowered else None
    if first is not None:
        other = _opposite(end_word(first.group(1)))
        if other is not None:
            return end_word(first.group(1)), other
    if "chronological" in lowered:
        return "earliest", "latest"
    return None


# "in ascending order", "increasing", a chain of "<": the list starts at the low
# end; "descending", a chain of ">", at the high end.
_ASCENDING = re.compile(r"\b(?:ascending|increasing)\b")
_ASCENDING_CHAIN = re.compile(r"\S[ \t]*<[ \t]*\S[^<>\n]*<")  # (tried only where a "<" is)
_DESCENDING = re.compile(r"\b(?:descending|decreasing)\b")
_DESCENDING_CHAIN = re.compile(r"\S[ \t]*>[ \t]*\S[^<>\n]*>")  # (tried only where a ">" is)


def from_other_end(answer: str, asked: tuple[str, str]) -> bool:
    """The answer lists its items from the other end than the question asks
    ("South to north: ..." for "from north to south", "in ascending order"
    or "a < b < c" for "from largest to smallest")."""
    lowered = answer.lower().replace("most recent", "latest")
    if " to " in lowered or "first" in lowered:
        stated = ends(lowered)
        if stated is None:
            m = _TO.search(lowered)
            stated = None if m is None else (end_word(m.group(1)), end_word(m.group(2)))
        if stated is not None and asked[0] == "earliest":
            # In time, the oldest thing is the earliest ("oldest to newest").
            early = {"oldest": "earliest"}
            stated = (early.get(stated[0], stated[0]), early.get(stated[1], stated[1]))
        if stated is not None and (stated in _OPPOSITES or stated[::-1] in _OPPOSITES):
            return stated == asked[::-1]
    if "from" in lowered or "starting" in lowered:
        # "From shortest: ...", "starting with the smallest": one end named, the start.
        start = _FROM_ONE_END.search(lowered)
        if start is not None and _opposite(end_word(start.group(1))) is not None:
            return end_word(start.group(1)) == asked[1]
    low = _low_end(asked[0])
    if low is None:
        return False
    if _ASCENDING.search(lowered) or ("<" in lowered and _ASCENDING_CHAIN.search(lowered)):
        return not low
    if _DESCENDING.search(lowered) or (">" in lowered and _DESCENDING_CHAIN.search(lowered)):
        return low
    return False


_ORDINAL_OPTION = re.compile(
    # ("the second one from the left" is a place in the picture, not in the list)
    r"\b(first|second|third|fourth|fifth|sixth|last) (?:option|choice|one|answer|picture|image|figure)\b"
    r"(?! from| on the| in the)"
    r"|\b(?:option|choice) (?:number |no\.? |#)?([1-9])\b"
)
_POSITIONS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5, "last": -1}


def by_position(text: str, opts: dict[str, str]) -> list[str]:
    """The option an answer names by its place in the list ("the second option")."""
    m = _ORDINAL_OPTION.search(text)
    if m is None or not opts:
        return []
    labels = list(opts)
    if m.group(2) is not None:  # "option 2": the label itself when labels are numbers
        if m.group(2) in opts:
            return [m.group(2)]
        index = int(m.group(2)) - 1
    else:
        index = _POSITIONS[m.group(1)]
    return [labels[index]] if -len(labels) <= index < len(labels) else []
