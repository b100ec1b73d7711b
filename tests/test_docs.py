"""The manual and the reference pages: every relative link resolves, the README stays short."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LIMIT = 40_000  # bytes: the README is a manual; reference material lives in docs/

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the text may span lines, the target may carry a title.
_LINK = re.compile(r"!?\[(?:[^\]]|\n)*?\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, ...


def _prose(text: str) -> str:
    """The page without code blocks and code spans, where brackets are not links."""
    return _CODE.sub("", _FENCE.sub("", text))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", _FENCE.sub("", page.read_text()), re.M)
    seen: dict[str, int] = {}
    anchors = set()
    for heading in headings:
        slug = _slug(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _links(page: Path) -> list[str]:
    return [
        target for target in _LINK.findall(_prose(page.read_text())) if not _EXTERNAL.match(target)
    ]


def test_pages_have_links() -> None:
    # Guards the link pattern itself: the README links into docs/.
    assert any(t.startswith("docs/") for t in _links(ROOT / "README.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        shown = os.path.relpath(resolved, ROOT)
        if not resolved.is_file():
            broken.append(f"{target}: no file {shown}")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {shown}")
    assert not broken, f"{page.relative_to(ROOT)}: broken links:\n" + "\n".join(broken)


def test_readme_is_short() -> None:
    size = (ROOT / "README.md").stat().st_size
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; the limit is {README_LIMIT:,}"


def test_slug_matches_github() -> None:
    assert _slug("Speed") == "speed"
    assert _slug("A five-minute walk-through") == "a-five-minute-walk-through"
    assert _slug("Summaries: `rome-tui summary`") == "summaries-rome-tui-summary"
