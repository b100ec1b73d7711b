"""scorers/ is plain Python: importing any of its modules never pulls in textual or rome_tui."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import importlib, json, pkgutil, sys
import scorers
names = ["scorers"] + [m.name for m in pkgutil.walk_packages(scorers.__path__, "scorers.")]
for name in names:
    importlib.import_module(name)
leaked = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rome_tui"))
print(json.dumps({"modules": names, "leaked": leaked}))
"""


def test_scorers_never_imports_textual_or_rome_tui() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (
        "scorers.grade.grader" in result["modules"]
        and "scorers.evaluate.rome.extract" in result["modules"]
    )
    assert result["leaked"] == []
