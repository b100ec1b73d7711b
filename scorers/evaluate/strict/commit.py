"""What an answer commits to: its conclusion, its corrections and what it rules out.

- *Conclusion*: an answer without a marker is read at its concluding sentence
  (the last sentence of its last line with text), not at every mention; so is a
  marker's answer that opens with a sentence of reasoning (``reasoned``).
- *Correction*: a correction after the final answer ("Correction:", "Edit:",
  "on second thought", "actually", "oops", "sorry", "it should be") replaces it;
  the text from the cue on is read as a conclusion. If that text names nothing
  of the answer's kind (no letter, no number), the original answer stands.
- *Exclusion*: a span that the answer rules out ("not 14", "(not Paris)",
  "not A, B, C, D but", "rather than X", "X is ruled out") is removed before
  reading, so a rejected alternative is never read as the answer.

Scans are linear regex passes over the stated answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import islice

from ahocorasick_rs import AhoCorasick

from scorers.evaluate.strict.final import Located, clean, without_closing

# A sentence ends at . ! ? followed by space and a capital, a quote or a bracket
# (not inside 1.5 or U.S.), or at a line break.
# (not after an enumerator: "1. C 2. A" is one list).
# (an abbreviation's dot ends no sentence: "St. Petersburg", "Mt. Fuji", "Dr. Who")
_SENTENCE_END = re.compile(
    r"(?<=[^\s.][.!?])(?<!\b\d\.)(?<!\b\d\d\.)(?<!\bSt\.)(?<!\bMt\.)(?<!\bFt\.)(?<!\bDr\.)"
    r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSte\.)(?<!\bvs\.)[ \t]+(?=[\"'(\[A-Z0-9])|\n+"
)
# "Wait" corrects as an interjection: opening its clause and followed by a stop
# or a new clause ("Wait, no", "But wait: ...", "wait a second"); as a noun
# ("(airport wait)", "a long wait, then ...") it does not.
_INTERJECTED = (
    r"(?:(?<=\bbut )|(?<=\band )|(?<=\boh )|(?<=\bno )|(?<![^\W\d_] ))wait"
    r"(?=[ \t]*[,!:;.\u2026\u2014\u2013-]|[ \t]+(?:no|i|a (?:sec|second|minute|moment)|that|this|let)\b)"
)
_CORRECTION = re.compile(
    r"\b(?:correction|edit|update|erratum|amendment|fix|revised answer|corrected answer"
    r"|revised|typo|rectification|korrektur|berichtigung|correcci[oó]n|correzione|corre[cç][aã]o"
    r"|исправление|更正|修正|订正)\b"
    r"[ \t]*[:：—–-]"
    r"|\b(?:on second thought|on reflection|actually|"
    + _INTERJECTED
    + "|oops|sorry|scratch that|hold on"
    r"|looking (?:at [^.;:\n]{1,40} )?again|on (?:a )?closer (?:look|inspection)|let me re-?check"
    r"|re-?checking|upon (?:further )?review|i mean|i meant|it should (?:be|read|have been)"
    r"|should have said|(?:i )?made an? (?:[a-z]+ )?(?:error|mistake|slip)|my (?:error|mistake)"
    r"|i was wrong|let me reconsider|reconsidering|i mixed up|perd[oó]n|entschuldigung"
    r"|(?:i apologi[sz]e|apologies) for (?:the|my) (?:earlier )?(?:confusion|error|mistake|mix-?up)"
    r"|d[ée]sol[ée]e?|ich meinte|quise decir|je voulais dire"
    r"|let me correct|correct (?:that|this|myself)|i take (?:that|it) back"
    r"|(?:should|need to|must|have to) (?:fix|amend|correct|revise) (?:that|this|it|my answer)"
    r"|make that|change (?:that|it|my answer) to"
    r"|i (?:misread|miscounted|missed|overlooked))\b",
    re.IGNORECASE,
)
# The same cues, case-sensitive, for lowered ASCII text: an ASCII text lowered
# keeps its offsets and its word boundaries, and the case-blind alternation
# costs about twice as much per character.
_CORRECTION_LOWER = re.compile(_CORRECTION.pattern)
# "Salt but no pepper", "salt, without pepper": "no" as a determiner after a
# joiner and "without" rule out their noun ("without a doubt" and "no more
# than" do not; a bare "No" answers a question).
_NO_THING = (
    r"(?:(?:(?<=\band )|(?<=\bbut )|(?<=\bwith )|(?<=[;,\u2014-] )|(?<=\())no|\bwithout)\b"
    r"(?=[ \t]+(?!(?:a |any )?(?:doubt|question|hesitation|more|less|fewer|longer|matter|one"
    r"|other|way|wonder|need|idea|problem|change|wait|sorry|actually|scratch|make|hold|really"
    r"|i|it|it's|its|that|this|they|we|he|she|the answer|answer)\b)[a-z])"
)
_NO_THING_AT = re.compile(_NO_THING)
# A ruled-out span: a negator, then what it negates up to "but" (consumed: "not
# X but Y" keeps Y), or up to the end of the clause.
_NEGATOR = (
    r"(?:\bnot\b|n't\b|\bnever\b|\brather than\b|\binstead of\b|\bother than\b|\bexcept\b"
    r"|\bexcluding\b|\bunlike\b|\bnor\b|\bneither\b|\bas opposed to\b|\banything but\b|"
    + _NO_THING
    + ")"
)
_RULED_OUT = (
    r"(?![ \t]+(?:only|just|merely|simply|sure|quite|necessarily)\b)(?:[^.;!?\n)(:—]*?\bbut\b"
    r"|[^.;!?\n)(:—]*?(?=,[ \t]*(?:it|it's|its|this|that|so|and|which|the|instead|rather"
    r"|i|i'd|i'll|i'm|we|we'd|we'll|my|you|you'd)\b"
    r"|[.;!?\n):—]|$))"
)
_EXCLUDED = re.compile(_NEGATOR + _RULED_OUT)
# The same spans found in two steps, for speed: the negators as bare literals
# (which the regex engine finds by their first letters, where an alternation of
# \b-prefixed words is tried at every position: 56 us against 6 us on a
# 500-character answer), then what each rules out, matched from its end.
_NEGATOR_WORDS = (
    "not", "n't", "never", "nor", "neither", "rather than", "instead of", "other than", "except",
    "excluding", "unlike", "as opposed to", "anything but", "no", "without",
)  # fmt: skip
_NEGATOR_WORD = re.compile("(?:" + "|".join(map(re.escape, _NEGATOR_WORDS)) + r")\b")
# Every occurrence of every negator in one native pass (Aho-Corasick): the
# regex above, searched again after each, visits the text's common letters.
_NEGATOR_FINDER = AhoCorasick(_NEGATOR_WORDS)
_RULED_OUT_SPAN = re.compile(_RULED_OUT)


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _negators(lowered: str) -> list[tuple[int, int]]:
    """Where ``_NEGATOR_WORD`` matches, by start: at each start the first of
    ``_NEGATOR_WORDS`` (the regex's alternation order) that occurs there with a
    word boundary after it."""
    at: dict[int, tuple[int, int]] = {}
    n = len(lowered)
    for index, start, end in _NEGATOR_FINDER.find_matches_as_indexes(lowered, overlapping=True):
        after = _is_word_char(lowered[end]) if end < n else False
        if _is_word_char(lowered[end - 1]) == after:
            continue  # no \b after it
        if start not in at or index < at[start][0]:
            at[start] = (index, end)
    return sorted((start, end) for start, (_, end) in at.items())


def _excluded_spans(lowered: str) -> list[tuple[int, int]]:
    """``[m.span() for m in _EXCLUDED.finditer(lowered)]``, found faster."""
    spans: list[tuple[int, int]] = []
    at = 0
    for start, end in _negators(lowered):
        if start < at:
            continue
        # \bnot\b: a word boundary before every negator but "n't" ("don't").
        before = lowered[start - 1] if start else ""
        if (before.isalnum() or before == "_") and not lowered.startswith("n't", start):
            continue
        if lowered[start:end] in ("no", "without") and not _NO_THING_AT.match(lowered, start):
            continue  # "no"/"without" only as _NO_THING says
        ruled = _RULED_OUT_SPAN.match(lowered, end)
        if ruled is None:
            continue
        spans.append((start, ruled.end()))
        at = ruled.end()
    return spans


# "My first thought was Porto, but ...", "At first glance I counted 8, but":
# an earlier belief the answer goes on to replace, up to its "but"/"however".
# Also a belief the answer concedes to others before its own ("Many assume
# Sydney, but ...", "Edison is often credited, but ...", "You'd expect
# Mercury, but ..."): English's words of concession, not a list of answers.
_EARLIER = re.compile(
    r"\b(?:at first(?: glance| sight)?|initially|my first (?:thought|guess|impression|count)"
    r"|i (?:first|initially) (?:thought|guessed|counted|assumed)|one might think|you might think"
    r"|it might look like|could be mistaken for|everyone assumes"
    r"|(?:many|some|most|others)(?: people)? (?:assume|think|say|believe|guess|claim|would say)"
    r"|people (?:would |usually |often |commonly |tend to )?(?:say|think|assume|guess|believe|answer)"
    r"|(?:you|one|some|many|most)(?:'d| would| might| may| could) (?:expect|think|guess|say"
    r"|assume|answer|be tempted)"
    r"|(?:is|are|was|were) (?:often|usually|commonly|popularly|widely|sometimes|frequently)"
    r" (?:credited|cited|thought|believed|assumed|said|called|named|mistaken|confused|given)"
    r"|(?:common|popular|obvious|tempting|intuitive|usual|naive|natural) (?:answer|guess|choice"
    r"|assumption|pick|belief|misconception)|tempting to|(?:looks|seems|sounds) like"
    r"|(?:was|were) my (?:first |initial |original )?(?:guess|thought|idea|pick|impression)"
    r"|i (?:considered|suspected|wondered about|toyed with)|(?:comes|came|springs|sprang) to mind"
    r"|(?:looked|seemed|appeared|sounded) (?:right|likely|plausible|correct|promising|obvious))\b"
    r"[^.;!?\n]{0,200}?(?:\bbut\b|\bhowever\b|\byet\b|\buntil\b|\bthough\b|;|,[ \t]*then\b)"  # bounded
)
_CONCEDING = (
    "first", "initially", "might", "assume", "many", "some", "most", "others", "people", "would",
    "was my", "were my",
    "'d ", "could",
    "often", "usually", "commonly", "popular", "widely", "sometimes", "frequently", "common",
    "obvious", "tempting", "intuitive", "naive", "natural", "like", "consider", "suspect",
    "wondered", "toyed", "looked", "seemed", "appeared", "sounded", "to mind",
)  # fmt: skip
_STRUCK = re.compile(r"~~[^~\n]{1,200}~~")
# "Canberra? No — Sydney": a candidate asked and answered no.
_ASKED_NO = re.compile(r"[^.?!\n]{1,80}\?[ \t]*no\b")
# "B is ruled out", "12 was wrong": the clause before such a verdict is rejected.
_REJECTED_VERDICT = re.compile(
    r"\b(?:is|was|are|were|gets|got|can be|must be)[ \t]+(?:(?:a|an|the)[ \t]+)?"
    r"(?:(?:common|popular|frequent|typical|tempting|classic)[ \t]+)?"
    r"(?:ruled out|eliminated|excluded|wrong|incorrect|impossible|a distractor|distractor|mistake)\b"
)
# "Between B and D, B": the pair weighed is not the choice that follows it.
_WEIGHED = re.compile(r"\b(?:torn )?between [^,.;:\n]{1,40} and [^,.;:\n]{1,40}(?=[,:])")
# "the letter F is not", "the Rhine doesn't flow there", "X is not symmetric":
# a clause that denies its own subject (a negated "is" before a noun phrase,
# "is not the Rhine", rules out the noun phrase instead: _EXCLUDED).
_DENIED_VERB = re.compile(
    r"\b(?:(?:is|are|was|were)(?:n't|[ \t]+not)"
    r"(?=[ \t]*(?:[.;,!?\n)]|$|(?!(?:the|a|an|this|that|my|its|it|one|option)\b)(?-i:[a-z])))"
    r"|(?:does|do|did)(?:n't|[ \t]+not)\b)",
    re.IGNORECASE,
)
# "I ruled out Lyon", "we can eliminate B and C": a verb of rejection and its
# object, up to the end of the clause ("B was eliminated, leaving C" has none).
_REJECTING_VERB = re.compile(
    r"\b(?:ruled out|rule out|excluded|exclude|eliminated|eliminate|dismissed|dismiss"
    r"|rejected|reject|discarded|discard)[ \t]+(?!by\b|as\b)(?=[\w'\"(])[^.;!?\n)(:—,]*"
)
# Words one of which every _REJECTED_VERDICT match holds: a C-speed test first.
_VERDICT_WORDS = (
    "ruled out", "eliminated", "excluded", "wrong", "incorrect", "impossible", "distractor",
    "mistake",
)  # fmt: skip
_DENYING_VERBS = frozenset(("is", "are", "was", "were", "does", "do", "did"))
_REJECTING_WORDS = ("rule", "exclud", "eliminat", "dismiss", "reject", "discard")


def _denied_verbs(text: str, lowered: str) -> list[tuple[int, int]]:
    """``[m.span() for m in _DENIED_VERB.finditer(text)]``, found faster: from each
    "not" / "n't", back to the verb before it, where the regex is tried alone
    (tried at every position, its leading alternation cost 12 us on 500 characters)."""
    if lowered is text:  # a letter that lengthens when lowered: the regex, case-blind
        return [m.span() for m in _DENIED_VERB.finditer(text)]
    spans: list[tuple[int, int]] = []
    at = 0  # no match may start before the end of the last one
    for negation in ("n't", "not"):
        pos = lowered.find(negation)
        while pos != -1:
            end = pos
            if negation == "not":
                while end > 0 and lowered[end - 1] in " \t":
                    end -= 1
            start = end
            while start > 0 and lowered[start - 1].isalpha():
                start -= 1
            if end - start <= 4 and lowered[start:end] in _DENYING_VERBS:
                m = _DENIED_VERB.match(text, start)
                if m is not None:
                    spans.append(m.span())
            pos = lowered.find(negation, pos + 1)
    spans.sort()
    kept: list[tuple[int, int]] = []
    for span in spans:
        if span[0] >= at:
            kept.append(span)
            at = span[1]
    return kept


_CLAUSE_STOPS = ".;!?\n,:—()"
_MAX_CLAUSE = 200


# Greedy, so it ends just past the last stop before the end it is given: one
# C-speed pass where a Python loop stepped back a character at a time.
_LAST_CLAUSE_STOP = re.compile(".*[" + re.escape(_CLAUSE_STOPS) + "]", re.DOTALL)


def _clause_start(text: str, end: int) -> int:
    """Where the clause holding ``text[end]`` begins (bounded look-back): just
    past the last clause stop in the ``_MAX_CLAUSE`` characters before ``end``."""
    floor = max(0, end - _MAX_CLAUSE)
    m = _LAST_CLAUSE_STOP.match(text, floor, end)
    return floor if m is None else m.end()


def first_sentence_end(text: str) -> int | None:
    """Where the first of several sentences of ``text`` ends, else None."""
    m = _SENTENCE_END.search(text)
    return m.start() if m is not None and text[m.end() :].strip() else None


# _SENTENCE_END's first branch opening with its stop, so that the regex engine looks
# for the stops and tries nothing elsewhere (a pattern that opens with a look-behind,
# or with an alternation, is tried at every position): half the time of a split.
_STOP_GAP = re.compile(
    r"[.!?](?<=[^\s.][.!?])(?<!\b\d\.)(?<!\b\d\d\.)(?<!\bSt\.)(?<!\bMt\.)(?<!\bFt\.)(?<!\bDr\.)"
    r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSte\.)(?<!\bvs\.)([ \t]+)(?=[\"'(\[A-Z0-9])"
)


def sentences(text: str) -> list[str]:
    """``text`` split at each ``_SENTENCE_END``, the parts stripped, the empty ones left
    out."""
    return list(_sentence_parts(text))


def more_sentences_than(text: str, count: int) -> bool:
    """``len(sentences(text)) > count``, reading no further than the sentence after them."""
    return next(islice(_sentence_parts(text), count, None), None) is not None


def _sentence_parts(text: str) -> Iterator[str]:
    # Line by line, then at each stop: no look-behind of the first branch sees past
    # a line break, which is its own branch.
    for line in text.split("\n"):
        at = 0
        for m in _STOP_GAP.finditer(line):
            part = line[at : m.start(1)].strip()
            if part:
                yield part
            at = m.end()
        part = line[at:].strip()
        if part:
            yield part


# A closing sentence that weighs or turns ("Or maybe not.", "But I'm not sure
# of the second.") is part of the answer, never a remark to pass over.
_WEIGHS = re.compile(
    r"\?|\b(?:not|no|never|maybe|perhaps|possibly|probably|but|however|though|although|or"
    r"|unless|wrong|actually|wait|sorry|unsure|doubt|instead|revers\w*|backwards?|opposite)\b|n't\b",
    re.IGNORECASE,
)
_REMARK_WORDS = 20


def before_remark(text: str) -> str | None:
    """``text`` without its last sentence, when that sentence may be a closing
    remark about the answer ("This matches the information given."): short,
    weighing nothing. The caller passes over it only when it names nothing of
    the answer's kind, as a reader does. None when there is no such sentence."""
    body = text.rstrip()
    parts = sentences(body)
    if len(parts) < 2:
        return None
    last = parts[-1]
    if len(last.split()) > _REMARK_WORDS or _WEIGHS.search(last):
        return None
    at = body.rfind(last)
    return body[:at].rstrip() if at > 0 else None


def conclusion(text: str) -> str:
    """The concluding sentence of an answer that has no marker."""
    parts = sentences(text)
    while len(parts) > 1 and parts[-1].startswith("(") and parts[-1].rstrip(".").endswith(")"):
        parts.pop()  # closing remarks in brackets are asides, not the conclusion
    return parts[-1] if parts else text.strip()


# Where a sentence concludes with what follows: an equals sign or an arrow, or a
# word that draws a conclusion, not a mere "is" ("There are 3 rows of 6 chairs"
# explains; "so 18 chairs" concludes).
CONCLUDING = re.compile(
    r"=|≈|→|\b(?:so|therefore|thus|hence|total|makes|making|gives|giving|instead)\b", re.IGNORECASE
)
# An answer longer than this many sentences (or 200 characters a sentence) ends
# as often with a remark as with what it commits to.
FEW_SENTENCES = 3


# Substrings one of which every ruled-out span holds: a C-speed test that lets
# the usual answer, which rules nothing out, skip the regexes.
_GATE = (
    "not", "n't", "never", " no ", "(no ", "without", "absent", "rather than", "instead of", "other than", "except",
    "unlike", "nor", "neither", "ruled out", "eliminated", "wrong", "incorrect",
    "impossible", "distractor", "first", "initially", "might", "mistaken", "assume",
    "opposed", "rule out", "exclud", "dismiss", "reject", "discard", "many", "some t", "some s",
    "some a", "some b", "some c", "some g", "others", "people", "would", "was my", "were my",
    "'d ", "could", "often", "usually", "commonly", "popular", "widely", "sometimes",
    "frequently", "common", "obvious", "tempting", "intuitive", "naive", "natural", "like", "?",
    "~~", "anything but", "between", "mistake", "consider", "suspect", "wondered", "toyed",
    "looked", "seemed", "appeared", "sounded", "to mind",
)  # fmt: skip


# Three regexes above open with something the engine tries at every position
# (a \b and an alternation, or a bounded run of any characters), which on a
# 500-character answer cost 13-85 us each. Each is found here from a literal it
# needs, then tried there alone; the spans are exactly the regex's finditer.
_EARLIER_END = re.compile(r"but|however|yet|until|though|;|,[ \t]*then")
_SENTENCE_STOP = re.compile(r"[.!?\n]")


def _earlier_matches(lowered: str) -> list[re.Match[str]]:
    """``_EARLIER.finditer(lowered)``: a match never crosses ``.!?`` or a line
    break and ends at "but", "however", "yet" or ";", so only the sentences
    that hold one of these are searched (each up to and including its stop,
    which a \b after the last word sees)."""
    out: list[re.Match[str]] = []
    searched = 0  # the end of the last sentence searched
    for end_word in _EARLIER_END.finditer(lowered):
        at = end_word.start()
        if at < searched:
            continue
        start = max(lowered.rfind(stop, 0, at) for stop in ".!?\n") + 1
        stop = _SENTENCE_STOP.search(lowered, at)
        searched = len(lowered) if stop is None else stop.start()
        out += _EARLIER.finditer(lowered, start, searched + 1)
    return out


_NO_AFTER_QUESTION = re.compile(r"\?[ \t]*no\b")
# Greedy, so it ends just past the last sentence stop before the end it is given.
_LAST_SENTENCE_STOP = re.compile(r".*[.?!\n]", re.DOTALL)
_ASKED_SPAN = 80  # _ASKED_NO's {1,80}


def _asked_no_spans(lowered: str) -> list[tuple[int, int]]:
    """``_ASKED_NO.finditer(lowered)``: from each "? no", back to where the
    question starts: the later of 80 characters back, just past the last stop
    before it, and the end of the previous match."""
    out: list[tuple[int, int]] = []
    at = 0
    for m in _NO_AFTER_QUESTION.finditer(lowered):
        question = m.start()
        floor = max(at, question - _ASKED_SPAN, 0)
        stop = _LAST_SENTENCE_STOP.match(lowered, floor, question)
        start = floor if stop is None else stop.end()
        if start < question:
            out.append((start, m.end()))
            at = m.end()
    return out


_REJECTING_OPENERS = ("rule", "exclud", "eliminat", "dismiss", "reject", "discard")


def _rejecting_spans(lowered: str) -> list[tuple[int, int]]:
    """``_REJECTING_VERB.finditer(lowered)``: every match opens with one of
    ``_REJECTING_OPENERS``; the regex is tried at each, in order."""
    starts: list[int] = []
    for word in _REJECTING_OPENERS:
        pos = lowered.find(word)
        while pos != -1:
            starts.append(pos)
            pos = lowered.find(word, pos + 1)
    out: list[tuple[int, int]] = []
    at = 0
    for pos in sorted(starts):
        if pos < at:
            continue
        m = _REJECTING_VERB.match(lowered, pos)
        if m is not None:
            out.append(m.span())
            at = m.end()
    return out


# The gates' words in one native pass (Aho-Corasick) instead of one ``in`` per
# word: which of them a text holds, as indexes into _GATE_WORDS.
_GATE_WORDS = tuple(dict.fromkeys((*_GATE, *_VERDICT_WORDS, *_REJECTING_WORDS, *_CONCEDING)))
_GATE_FINDER = AhoCorasick(_GATE_WORDS)


def _indexes(words: tuple[str, ...]) -> frozenset[int]:
    return frozenset(_GATE_WORDS.index(w) for w in words)


_IN_GATE, _IN_VERDICT, _IN_REJECTING, _IN_CONCEDING = map(
    _indexes, (_GATE, _VERDICT_WORDS, _REJECTING_WORDS, _CONCEDING)
)


def _gate_words(text: str) -> set[int]:
    """Which of ``_GATE_WORDS`` occur in ``text`` (``any(w in text ...)`` for each)."""
    return {i for i, _, _ in _GATE_FINDER.find_matches_as_indexes(text, overlapping=True)}


def may_rule_out(text: str) -> bool:
    """Whether ``text`` holds a word that may rule a name out or hold it as a passing
    belief ("not", "first", "might", "like", "usually", "?", ...): the words
    :func:`drop_excluded` looks for first, here at a word's start ("nor" is not
    in "honored", nor "many" in "Germany")."""
    lowered = text.lower()
    for i, start, _ in _GATE_FINDER.find_matches_as_indexes(lowered, overlapping=True):
        if i in _IN_GATE and not (i in _WORD_START and lowered[start - 1 : start].isalpha()):
            return True
    return False


# The gate's words that start a word (all but "n't" and those opening on a space or sign).
_WORD_START = frozenset(
    i for i, w in enumerate(_GATE_WORDS) if w[0].isalpha() and not w.startswith("n'")
)


_ABSENT = re.compile(
    r"(?<=[^\W\d_])[ \t]+(?:(?:is|are|was|were)[ \t]+)?(?:absent|not visible|not present)\b"
)


@lru_cache(maxsize=256)
def drop_excluded(text: str) -> str:
    """``text`` without the spans it rules out (replaced by a space)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        present = _gate_words(lowered)
        if present.isdisjoint(_IN_GATE):
            return text
    else:
        lowered = text  # a letter that lengthens when lowered: read as written
        present = _gate_words(lowered)
    spans = [(_clause_start(text, start), end) for start, end in _denied_verbs(text, lowered)]
    if not present.isdisjoint(_IN_VERDICT):
        spans += [
            (_clause_start(text, m.start()), m.end()) for m in _REJECTED_VERDICT.finditer(lowered)
        ]
    spans += _excluded_spans(lowered)
    if "~~" in text:
        spans += [m.span() for m in _STRUCK.finditer(text)]  # "~~Saturn~~": struck out
    if "absent" in lowered or "not visible" in lowered or "not present" in lowered:
        # "Lion; zebra not visible", "bread (cheese absent)": the clause's subject
        # is denied, not the word that denies it (a key may be "absent").
        spans += [(_clause_start(text, m.start()), m.start()) for m in _ABSENT.finditer(lowered)]
    if not present.isdisjoint(_IN_REJECTING):
        spans += _rejecting_spans(lowered)
    if not present.isdisjoint(_IN_CONCEDING):
        spans += [
            (min(m.start(), _clause_start(text, m.start())), m.end())
            for m in _earlier_matches(lowered)
        ]
    if "?" in lowered:
        spans += _asked_no_spans(lowered)
    if "between" in lowered:
        spans += [m.span() for m in _WEIGHED.finditer(lowered)]
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in sorted(spans):
        if start >= at:
            out.append(text[at:start])
            out.append(" ")
            at = end
        elif end > at:
            at = end
    out.append(text[at:])
    return "".join(out)


_SMALL_BEFORE = re.compile(r"\b(?:small|minor|slight|tiny)[ \t]+\Z", re.IGNORECASE)
_WEAK_CUE = re.compile(
    r"(?:actually|wait|oops|sorry|i mean|hold on|looking|on (?:a )?closer|let me|re-?checking"
    r"|i apologi[sz]e|apologies|perd[oó]n|entschuldigung|d[ée]sol[ée]e?"
    r"|(?:small|minor|slight|tiny)[ \t]+correction)\b",
    re.IGNORECASE,
)


# "Edit: fixed a typo; answer unchanged": a correction that keeps the answer.
_REAFFIRMS = re.compile(
    r"\b(?:unchanged|still|stays|stands|remains|holds|is (?:still )?(?:correct|right)"
    r"|(?:does not|doesn't|did not|didn't|will not|won't) change|same answer|unaffected)\b",
    re.IGNORECASE,
)


def firm(fixed: Located) -> bool:
    """The correction says it corrects ("Correction:", "scratch that", "it should
    be"); "actually", "wait" and "sorry" may only reaffirm or apologise, and a
    correction that says the answer stands does not replace it."""
    if reaffirms(fixed):
        return False
    weak = _WEAK_CUE.match(fixed.tail)
    if weak is None:
        return True
    # "Actually, I need to correct myself — it was X": a firm cue after the weak one.
    return any(
        _WEAK_CUE.match(fixed.tail, m.start()) is None
        for m in _CORRECTION.finditer(fixed.tail, weak.end(), _CUE_REACH)
    )


# "Edit: formatting.", "Update: fixed 2 typos": an edit of the form alone, no
# correction of the answer.
_FORM_ONLY = re.compile(
    r"[*_ \t]*(?:edit|update|note)[*_ \t]*[:：—–-][ \t]*(?:(?:fixed|corrected|minor|small|just)[ \t]+)?"
    r"(?:(?:a|the|some|a few|two|\d)[ \t]+)?(?:formatting|format|typos?|spelling|grammar|wording|layout"
    r"|punctuation)(?:[ \t]+(?:fixed|corrected|only|in the (?:explanation|text)))?[ \t.!]*\Z",
    re.IGNORECASE,
)


def reaffirms(fixed: Located) -> bool:
    """The correction says the answer stands ("answer unchanged", "still 12")."""
    return _REAFFIRMS.search(fixed.segment) is not None


_CUE_REACH = 400
# A cue that takes back what came before it ("wait, no", "sorry, I mean").
_NEGATED_CUE = re.compile(
    r"\b(?:wait|sorry|oops|no wait)[ \t,]+(?:no|i mean|i meant)\b", re.IGNORECASE
)


# The words every correction cue opens with, found in one native pass; the
# cue regex is then tried only there (searched, its leading alternation is
# tried at every position of the tail).
_CUE_OPENERS = (
    "correct", "edit", "update", "erratum", "revised", "on ", "actually", "wait",
    "oops", "sorry", "scratch", "hold", "looking", "let", "re-", "rechecking", "reconsidering",
    "upon", "i ", "typo", "rectification", "berichtigung", "korrektur", "apolog", "perdon",
    "entschuldigung", "desol", "ich meinte", "quise", "je voulais",
    "it should", "should", "made", "my ", "i was", "amendment", "fix:", "fix -", "fix —", "fix –",
    "need to fix", "need to amend", "need to correct", "need to revise", "must fix", "must amend",
    "must correct", "must revise", "have to fix", "have to amend", "have to correct",
    "have to revise", "make that", "change",
)  # fmt: skip
_CUE_FINDER = AhoCorasick(_CUE_OPENERS)
_SHORT_TAIL = 300


def _first_cue(tail: str) -> re.Match[str] | None:
    """``_CORRECTION.search(tail, 1)``: the first cue after the answer's first character."""
    if not tail.isascii():
        return _CORRECTION.search(tail, 1)
    lowered = tail.lower()
    if len(lowered) < _SHORT_TAIL:
        return _CORRECTION_LOWER.search(lowered, 1)  # (a short tail: one C scan is cheaper)
    starts = sorted(
        {s for _, s, _ in _CUE_FINDER.find_matches_as_indexes(lowered, overlapping=True) if s}
    )
    for start in starts:
        m = _CORRECTION_LOWER.match(lowered, start)
        if m is not None:
            return m
    return None


_BARE_ANSWER = 40  # a first line this short, alone in its paragraph, states an answer


def correction(loc: Located) -> Located | None:
    """The corrected answer, when a correction follows the stated final answer."""
    if loc.how == "whole":
        # A short first line stated as the answer, then a paragraph that opens
        # correcting it ("Ag.\n\nWait, no — ..."): the first line was the answer.
        gap = loc.segment.find("\n\n", 0, _BARE_ANSWER + 2)
        if gap != -1 and "\n" not in loc.segment[:gap].strip():
            rest = loc.segment[gap:].lstrip()
            if rest and _CORRECTION.match(rest):
                return Located("whole", clean(rest), rest)
        # Else only a correction inside the concluding sentence
        # ("C, A, B — wait, no: C, B, A"): in the reasoning before it, cues are many.
        end = loc.segment[-_CUE_REACH:].lower()
        if "wait" not in end and "sorry" not in end and "oops" not in end:
            return None  # (substring tests first: the sentence split costs more)
        if _NEGATED_CUE.search(end) is None:
            return None
        last = conclusion(loc.segment)
        if not _NEGATED_CUE.search(last):
            return None
        loc = Located("marker", last, last)
    tail = loc.tail
    if len(tail) <= len(loc.segment) + 1 and loc.segment.isalnum():
        return None  # "Final Answer: C" and nothing after it
    # The correction must come after the answer's first word: "Final Answer:
    # Actually C" is an answer, not a correction of one.
    m = _first_cue(tail)
    if m is None:
        return None
    start = m.start()
    if (small := _SMALL_BEFORE.search(tail, max(0, start - 10), start)) is not None:
        start = small.start()  # "Small correction:" amends a detail: a weak cue
    rest = without_closing(tail[start:])
    if _FORM_ONLY.match(rest):
        return None  # "Edit: fixed 2 typos.": the answer stands
    return Located("whole", clean(rest), rest)


_REASONING_WORDS = 6  # a first sentence longer than this after a marker reasons


def reasoned(loc: Located) -> Located:
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
