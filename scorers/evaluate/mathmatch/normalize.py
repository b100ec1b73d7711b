"""Text clean-up shared by extraction, splitting and comparison.

Answers arrive as a mix of LaTeX, Unicode maths and Chinese punctuation; every
later step assumes the forms produced here.
"""

from __future__ import annotations

import re
import unicodedata

_CHAR_MAP = str.maketrans(
    {
        "（": "(",
        "）": ")",
        "；": ";",
        "，": ",",
        "：": ":",
        "＝": "=",
        "＋": "+",
        "－": "-",
        "−": "-",
        "–": "-",
        "—": "-",
        "【": "[",
        "】": "]",
        "［": "[",
        "］": "]",
        "｛": "{",
        "｝": "}",
        "＜": "<",
        "＞": ">",
        "、": ",",
        "∶": ":",
        "∠": r"\angle ",
        "△": r"\triangle ",
        "₀": "_0",
        "₁": "_1",
        "₂": "_2",
        "₃": "_3",
        "₄": "_4",
        "±": r"\pm ",
        "。": ".",
        "．": ".",
        "×": r"\times ",
        "·": r"\cdot ",
        "⋅": r"\cdot ",
        "÷": r"\div ",
        "π": r"\pi ",
        "≤": r"\le ",
        "≥": r"\ge ",
        "⩽": r"\le ",
        "⩾": r"\ge ",
        "≠": r"\ne ",
        "∈": r"\in ",
        "∞": r"\infty ",
        "∪": r"\cup ",
        "∩": r"\cap ",
        "²": "^2",
        "³": "^3",
        "°": r"^\circ",
        "\u00a0": " ",
        "\u3000": " ",
        "Ａ": "A",
        "Ｂ": "B",
        "Ｃ": "C",
        "Ｄ": "D",
    }
)

# Arabic-Indic and Persian digits are digits; the Arabic decimal separator, thousands
# separator, comma and semicolon are ".", ",", "," and ";" ("١٢٫٥" is 12.5, "(٣، ٤)" a point).
_ARABIC_SCRIPT_NUMERALS = str.maketrans(
    {
        **{chr(0x0660 + d): str(d) for d in range(10)},
        **{chr(0x06F0 + d): str(d) for d in range(10)},
        "\u066b": ".",
        "\u066c": ",",
        "\u060c": ",",
        "\u061b": ";",
    }
)


def ascii_numerals(text: str) -> str:
    """``text`` with numbers written in the Arabic script's digits and separators in ASCII."""
    return text.translate(_ARABIC_SCRIPT_NUMERALS)


_COMMAND_ALIASES = (
    (re.compile(r"\\[dt]frac"), r"\\frac"),
    (re.compile(r"\\(?:leqslant|leq)(?![a-zA-Z])"), r"\\le"),
    (re.compile(r"\\(?:geqslant|geq)(?![a-zA-Z])"), r"\\ge"),
    (re.compile(r"\\neq(?![a-zA-Z])"), r"\\ne"),
    (re.compile(r"<="), r"\\le "),
    (re.compile(r">="), r"\\ge "),
    (re.compile(r"\\(?:displaystyle|left|right|big|Big|bigg|Bigg)(?![a-zA-Z])"), ""),
    # "32,\!348", "1\,000": a thin space inside a number joins its digit groups.
    (re.compile(r"(?<=[\d,])\\[,!](?=\d)"), ""),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\\(?:quad|qquad)(?![a-zA-Z])"), " "),
    (re.compile(r"\\%"), "%"),
    # "~" is a LaTeX space before a unit (3~cm, \mathrm{~cm}); between numbers it is a range.
    (re.compile(r"~(?=\s*[A-Za-z\\])|(?<=\{)~"), " "),
    (re.compile(r"\\(?:circ|degree)(?![a-zA-Z])"), r"\\circ"),
    (re.compile(r"\\(?:cdotp|ast)(?![a-zA-Z])"), r"\\cdot"),
    # "sqrt(117)": a square root written without its backslash.
    (re.compile(r"(?<![\\A-Za-z])sqrt\s*(?=[({])"), r"\\sqrt"),
    # "sin(2x)", "ln x": a function written without its backslash.
    (
        re.compile(
            r"(?<![\\A-Za-z])(arcsin|arccos|arctan|sin|cos|tan|cot|sec|csc|ln|log|exp)(?![A-Za-z])"
        ),
        r"\\\1",
    ),
)
# Wrappers whose content is the text itself: \text{cm} -> cm.
_WRAPPER = re.compile(
    r"\\(?:text|mathrm|textrm|mathit|textit|textbf|mathbf|mbox|operatorname|rm)\s*\{([^{}]*)\}"
)
_OR_WORDS = re.compile(r"\s*(?:或者|或|\\text\{\s*or\s*\}|\\(?:lor|vee)(?![a-zA-Z]))\s*")
_AND_WORDS = re.compile(r"\s*(?:和|及|以及|且|\\(?:land|wedge)(?![a-zA-Z]))\s*")
# "5or-75", "(15,0)or(-5,0)": connectives written without spaces between values.
_GLUED_CONNECTIVE = re.compile(r"(?<=[\d)\]}])\s*(or|and)\s*(?=[-+\d(\[{\\])")
_SQRT_UNICODE = re.compile(r"√\s*(\([^()]*\)|\{[^{}]*\}|[0-9.]+|[A-Za-z](?![A-Za-z]))")
_SPACES = re.compile(r"\s+")
# "2 1/2": a mixed number (a proper fraction after a whole number and a space).
_MIXED_NUMBER = re.compile(r"(?<![\d/.,])(\d+) (\d+)/(\d+)(?![\d/]|\.\d)")


# "137\\frac{1}{2}": the same, in LaTeX (a whole number right before a proper fraction).
_MIXED_LATEX = re.compile(r"(?<![\d/.,^_{}\\A-Za-z])(\d+)\s*\\frac\{(\d+)\}\{(\d+)\}")


def _mixed(match: re.Match[str]) -> str:
    whole, top, bottom = (int(g) for g in match.groups())
    if not 0 < top < bottom:
        return match.group(0)  # "3 4/2" is no mixed number
    return r"\frac{" + str(whole * bottom + top) + "}{" + str(bottom) + "}"


# "½", "2¾": a vulgar fraction, with the whole number before it.
_VULGAR = re.compile(r"(\d+)?\s*([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒])")


def _vulgar(match: re.Match[str]) -> str:
    top, _, bottom = unicodedata.normalize("NFKC", match.group(2)).partition("⁄")
    whole = int(match.group(1) or 0)
    return r"\frac{" + str(whole * int(bottom) + int(top)) + "}{" + bottom + "}"


def _sqrt_group(match: re.Match[str]) -> str:
    body = match.group(1)
    if body[0] in "({":
        body = body[1:-1]
    return r"\sqrt{" + body + "}"


def clean(text: str) -> str:
    """Canonical spelling of an answer fragment (keeps its meaning, drops its styling)."""
    s = text.translate(_CHAR_MAP)
    if not s.isascii():
        s = _VULGAR.sub(_vulgar, s)
    s = _SQRT_UNICODE.sub(_sqrt_group, s)
    s = s.replace("√", r"\sqrt")
    s = s.replace("\\$", "").replace("$", "").replace("**", "")  # "\\$1.20": a currency sign
    s = re.sub(r"\\[()\[\]]", " ", s)
    for pattern, repl in _COMMAND_ALIASES:
        s = pattern.sub(repl, s)
    for _ in range(3):
        new = _WRAPPER.sub(lambda m: " " + m.group(1) + " ", s)
        if new == s:
            break
        s = new
    s = _OR_WORDS.sub(" or ", s)
    s = _GLUED_CONNECTIVE.sub(lambda m: " " + m.group(1) + " ", s)
    s = _AND_WORDS.sub(" and ", s)
    s = _SPACES.sub(" ", s).strip()
    if "/" in s:
        s = _MIXED_NUMBER.sub(_mixed, s)
    if "\\frac" in s:
        s = _MIXED_LATEX.sub(_mixed, s)
    return strip_end_punctuation(s)


def strip_end_punctuation(s: str) -> str:
    s = s.strip()
    while s and s[-1] in ".;,:!" and not s.endswith("..."):
        s = s[:-1].rstrip()
    return s


def compact(s: str) -> str:
    """Whitespace-free form for exact comparison; braces around single tokens dropped."""
    s = _SPACES.sub("", s)
    s = re.sub(r"\^\{([^{}])\}", r"^\1", s)
    s = re.sub(r"_\{([^{}])\}", r"_\1", s)
    return s


def top_level_split(s: str, seps: tuple[str, ...]) -> list[str]:
    """Split on any of ``seps`` outside (), [], {} — a comma inside a point stays put."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    lower = s.lower()
    while i < len(s):
        ch = s[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            hit = next((sep for sep in seps if lower.startswith(sep, i)), None)
            if hit is not None:
                parts.append(s[start:i])
                i += len(hit)
                start = i
                continue
        i += 1
    parts.append(s[start:])
    return [p.strip() for p in parts if p.strip()]


def balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0
