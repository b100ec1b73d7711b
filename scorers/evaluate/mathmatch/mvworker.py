"""Entry point of a math-verify worker process (``python -m scorers.evaluate.mathmatch.mvworker``)."""

from __future__ import annotations

import sys

from scorers.evaluate.mathmatch.mvpool import serve

if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
