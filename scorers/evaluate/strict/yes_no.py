"""Yes and no as many languages write them, and how an answer says them.

The words are the POSIX ``yesstr``/``nostr`` strings of the GNU C Library's
locale data (``localedata/locales/*``, LC_MESSAGES; one pair per language,
``copy`` followed), lowered; ``python -m scorers.evaluate.strict.yes_no
/usr/share/i18n/locales`` rebuilds ``yes_no_words.json`` from them. A word
that is yes in one language and no in another is dropped.

A yes/no question is answered by such a word opening the answer and followed
by a stop or a comma ("Nein, ...", "いいえ、...", "不是。"); "No one knows" and
"I think" open with no answer.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

from scorers.evaluate.strict.fold import fold_phrase

_DATA = Path(__file__).with_name("yes_no_words.json")
_ENGLISH = {"yes": True, "no": False}
# What may precede the word that opens an answer: Markdown, quotes, brackets.
_LEAD = " \t\n*_\"'“‘«(「【>#-"
# Chinese "是的": yes with its particle.
_PARTICLES = ("的",)
# What follows a yes or no that answers: a stop, a comma, the end.
_STOPS = frozenset(("", ",", ".", "!", ";", ":", "，", "。", "、", "！", "；", "：", "\n"))


@lru_cache(maxsize=1)
def words() -> dict[str, bool]:
    """Each yes or no word of the table, lowered: True for yes."""
    table = json.loads(_DATA.read_text(encoding="utf-8"))["words"]
    yes = {w for pair in table.values() for w in pair[0]}
    no = {w for pair in table.values() for w in pair[1]}
    both = yes & no
    yes = {w for w in yes if len(w) > 1 or not w.isascii()}  # (one Latin letter: "I")
    no = {w for w in no if len(w) > 1 or not w.isascii()}
    out = dict.fromkeys(yes - both, True)
    out.update(dict.fromkeys(no - both, False))
    out.update(_ENGLISH)
    return out


def key_polarity(group: list[str]) -> bool | None:
    """True for a key that is yes (in any language of the table), False for no,
    None for any other key."""
    table = words()
    first = table.get(fold_phrase(group[0]).strip())
    return first if first is not None and first in (True, False) else None


def _unspaced(word: str) -> bool:
    return not word.isascii() and all(ord(c) >= 0x0E00 for c in word)  # Thai, Khmer, CJK, Kana


def opening(text: str) -> bool | None:
    """True when ``text`` opens with a yes word, False with a no word, else None.
    The longest word wins ("不是" before "是"); the word is followed by a stop
    or a comma, as an answer's yes or no is."""
    head = fold_phrase(text.lstrip(_LEAD)[: _longest() + 2])
    table = words()
    for size in range(min(len(head), _longest()), 0, -1):
        yes = table.get(head[:size])
        if yes is None:
            continue
        end = size + 1 if _unspaced(head[:size]) and head.startswith(_PARTICLES, size) else size
        if head[end : end + 1] in _STOPS:
            return yes
        # ("No one knows", "I think": a word of a sentence, not its answer)
    return None


@lru_cache(maxsize=1)
def _longest() -> int:
    return max(map(len, words()))


def _build(root: Path) -> dict[str, list[list[str]]]:
    """yesstr/nostr per language of glibc's locale sources under ``root``."""

    def decode(s: str) -> str:
        return re.sub(r"<U([0-9A-Fa-f]{4,6})>", lambda m: chr(int(m.group(1), 16)), s)

    def messages(name: str, depth: int = 0) -> dict[str, str]:
        path = root / name
        if depth > 5 or not path.exists():
            return {}
        text = path.read_text(encoding="utf-8", errors="replace")
        block = re.search(r"^LC_MESSAGES\n(.*?)^END LC_MESSAGES", text, re.M | re.S)
        if block is None:
            return {}
        copied = re.search(r'^copy\s+"([^"]+)"', block.group(1), re.M)
        out = messages(copied.group(1), depth + 1) if copied else {}
        for key in ("yesstr", "nostr"):
            found = re.search(rf'^{key}\s+"([^"]*)"', block.group(1), re.M)
            if found:
                out[key] = decode(found.group(1)).lower()
        return out

    table: dict[str, list[set[str]]] = {}
    for path in sorted(root.iterdir()):
        if not re.fullmatch(r"[a-z]{2,3}_[A-Z]{2}", path.name):
            continue
        found = messages(path.name)
        if "yesstr" in found and "nostr" in found:
            pair = table.setdefault(path.name.split("_")[0], [set(), set()])
            pair[0].update(w.strip() for w in found["yesstr"].split("/") if w.strip())
            pair[1].update(w.strip() for w in found["nostr"].split("/") if w.strip())
    return {lang: [sorted(y), sorted(n)] for lang, (y, n) in sorted(table.items())}


if __name__ == "__main__":  # pragma: no cover - rebuilds the data file
    built = {
        "source": "GNU C Library localedata (LC_MESSAGES yesstr/nostr), " + sys.argv[1],
        "words": _build(Path(sys.argv[1])),
    }
    _DATA.write_text(json.dumps(built, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


# Chinese negates a verb by the word before it: 没有 "have not", 不是 "is not",
# 不可以 "may not"; (并/也/都 may come before the negator, never between).
_NEGATORS = frozenset("不没沒未非无無别別")


def first_negated(text: str, variants: list[str]) -> bool | None:
    """For a yes key whose variants include the verb a Chinese answer says yes
    with (有, 是, 可以): True when the answer's first use of any of them is
    negated ("并没有记录到..."), False when it is not, None when none is there
    or no variant is written without spaces. An answer in such a language says
    yes or no by its first use of the question's verb; later uses ("有可能"
    "may") weigh other things."""
    first = -1
    for variant in variants:
        if not _unspaced(variant):
            continue
        at = text.find(variant)
        if at != -1 and (first == -1 or at < first):
            first = at
    if first == -1:
        return None
    return first > 0 and text[first - 1] in _NEGATORS
