"""The scores and the extracted text of strict outcomes."""

from __future__ import annotations

# The most of the text read that an outcome keeps as ``extracted``.
EXTRACTED_CAP = 300
# Binary evaluators score with ints, as the reference does, so the two modes
# aggregate alike; location returns its configured credit values.
RIGHT, WRONG = 1, 0
