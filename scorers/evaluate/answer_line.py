"""GSM8K's answer line: a line ``#### N`` closes a solution and states its answer.

The GSM8K dataset writes every reference solution as working followed by a line
``#### 72``, and evaluation harnesses (lm-evaluation-harness's ``gsm8k`` task, which
reads the number after ``####``) prompt and grade in that format, so models and
pipelines trained or prompted on it end their answer so. A reader who knows the
format reads that line as the writer's final answer, as they read ``Answer: 72``;
a later line of this kind replaces an earlier answer ("Thus the answer is 4.\\n####
2" answers 2).

Only a line holding the four hashes and one number counts: a Markdown heading of
level four (``#### 2) Power``, ``#### Step 3``) names a part and states nothing.

Strict mode (``strict.final``) and math prose (``mathmatch.extract``) both read it
through :func:`answer_line`, each after its own markers.
"""

from __future__ import annotations

import re

# Four hashes, then one number (sign, currency sign, thousands commas, decimals) and
# nothing else on the line but a full stop.
_ANSWER_LINE = re.compile(
    r"^[ \t]*####[ \t]*(?=[$€£]?[-−]?\d[\d,]*(?:\.\d+)?\.?[ \t]*$)", re.MULTILINE
)


def answer_line(text: str, after: int = 0) -> tuple[int, int] | None:
    """(start, answer start) of the last ``#### N`` line starting at or after ``after``."""
    if text.find("####", after) == -1:
        return None
    last = None
    for last in _ANSWER_LINE.finditer(text, after):  # noqa: B007 - we want the last match
        pass
    return (last.start(), last.end()) if last is not None else None
