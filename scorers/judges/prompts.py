"""Judge prompt texts, loaded from the data files in ``scorers/prompts/``.

Each file opens with ``#`` lines naming its source, then a separator line;
everything after the separator is the prompt exactly as the source sends it.
Keeping the texts as data means a diff of a prompt is a diff of a file, and
the code never paraphrases a published protocol.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

PROMPT_DIR = Path(__file__).resolve().parent.parent / "prompts"
SEPARATOR = "#---8<---"


@cache
def load_prompt(name: str) -> str:
    """The prompt body of ``scorers/prompts/<name>.txt`` (header removed)."""
    text = (PROMPT_DIR / f"{name}.txt").read_text(encoding="utf-8")
    cut = text.find(SEPARATOR)
    if cut == -1:
        raise ValueError(f"{name}.txt: no '{SEPARATOR}' separator after the source header")
    return text[text.index("\n", cut) + 1 :]


def text_hash(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()[:16]


def fill_fields(template: str, values: Mapping[str, str]) -> str:
    """Fill ``{name}`` fields in one pass, as a Python f-string would.

    One pass matters: a value that itself contains ``{model_answer}`` must not
    be substituted again. Fields not in ``values`` are left as they are.
    """
    pattern = re.compile("|".join(re.escape("{" + key + "}") for key in values))
    return pattern.sub(lambda m: values[m.group(0)[1:-1]], template)


def fence(text: str, label: str) -> str:
    """Wrap untrusted text (a model's answer) so it cannot pose as instructions.

    The tag carries a nonce derived from the text, so the text cannot contain
    its own closing tag unless it predicts its own hash; the nonce is
    deterministic so that the cache key of a prompt stays stable across runs.
    """
    nonce = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    tag = f"{label}-{nonce}"
    return f"<{tag}>\n{text}\n</{tag}>"


def fence_if(fenced: bool, text: str, label: str) -> str:
    """``text`` in a :func:`fence` when the run asked for fences (``--fence``), else as it is:
    the published prompts are sent byte for byte unless fences are asked for."""
    return fence(text, label) if fenced else text
