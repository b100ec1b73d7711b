"""Mutation testing of one module of ``scorers/`` with mutmut (``make mutate``).

Usage: ``python tests/mutate.py scorers/evaluate/mathmatch/units.py [tests/test_x.py ...]``,
or ``python tests/mutate.py --core`` for the modules whose kill rate the README reports.

mutmut reads its settings only from the ``pyproject.toml`` of the directory it
runs in, and a run over all of ``scorers/`` against the whole suite takes hours
on two cores. So each run gets its own directory, ``.mutate/<module>/``: links to
the repository's folders plus a copy of ``pyproject.toml`` whose ``[tool.mutmut]``
mutates only the named module and runs only the named tests (by default every
test file that imports the module), without the ``slow`` ones. Results stay
there, so running again re-tests only what changed. Prints the kill rate.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKED = ("scorers", "rome_tui", "tests", "benchmarks")
_MATH_TESTS = [
    "tests/test_math_api.py",
    "tests/test_math_heldout.py",
    "tests/test_math_internals.py",
    "tests/test_math_prose.py",
    "tests/test_math_rules.py",
    "tests/test_math_timeouts.py",
]
# Core modules and the tests that exercise them directly. A hot module such as
# records.py is reached by nearly every test file; against all of them a mutant
# costs a minute on two cores, against these a second or two.
CORE: dict[str, list[str]] = {
    "scorers/records.py": [
        "tests/test_records_texts.py",
        "tests/test_flags_detectors.py",
        "tests/test_grading_results.py",
    ],
    "scorers/evaluate/mathmatch/units.py": _MATH_TESTS,
    "scorers/evaluate/mathmatch/scoring.py": _MATH_TESTS,
    "scorers/adjudicate/journal.py": [
        "tests/test_journal_replay.py",
        "tests/test_store_override.py",
    ],
}


def module_name(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def tests_importing(module: str) -> list[str]:
    """Test files that import ``module`` or its package (whose public functions reach it)."""
    parent = module.rpartition(".")[0]
    names = "|".join(re.escape(m) for m in (module, parent) if m.count(".") >= 1)
    pattern = re.compile(rf"^\s*(?:import|from)\s+(?:{names})(?:\s|$)", re.MULTILINE)
    found = []
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        if test.name.startswith("test_hardening_"):
            continue  # fuzzing and the hostile corpus: minutes per mutant
        if pattern.search(test.read_text(encoding="utf-8")):
            found.append(str(test.relative_to(ROOT)))
    return found


def mutmut_section(module_path: str, tests: list[str]) -> str:
    quoted = ", ".join(json.dumps(t) for t in tests)
    return (
        "[tool.mutmut]\n"
        'source_paths = ["scorers"]\n'
        f"only_mutate = [{json.dumps(module_path)}]\n"
        'also_copy = ["rome_tui", "benchmarks"]\n'
        f"pytest_add_cli_args_test_selection = [{quoted}]\n"
        'pytest_add_cli_args = ["-m", "not slow", "-p", "no:cacheprovider", "-q"]\n'
        "use_git_change_detection = false\n"
    )


def prepare(module_path: str, tests: list[str]) -> Path:
    work = ROOT / ".mutate" / module_path.replace("/", "_").removesuffix(".py")
    work.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = work / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = re.sub(r"(?ms)^\[tool\.mutmut\]\n.*?(?=^\[|\Z)", "", pyproject).rstrip()
    (work / "pyproject.toml").write_text(
        pyproject + "\n\n" + mutmut_section(module_path, tests), encoding="utf-8"
    )
    return work


def kill_rate(work: Path) -> dict[str, int]:
    mutmut = Path(sys.executable).with_name("mutmut")
    subprocess.run([str(mutmut), "export-cicd-stats"], cwd=work, check=True)
    stats: dict[str, int] = json.loads((work / "mutants" / "mutmut-cicd-stats.json").read_text())
    return stats


def main(argv: list[str]) -> int:
    if argv == ["--core"]:
        for module_path, tests in CORE.items():
            code = mutate(module_path, tests)
            if code:
                return code
        return 0
    if not argv or not argv[0].endswith(".py") or not (ROOT / argv[0]).is_file():
        print(
            "usage: tests/mutate.py scorers/PATH/MODULE.py [TEST_FILE ...] | --core",
            file=sys.stderr,
        )
        return 2
    module_path = Path(argv[0]).as_posix()
    if not module_path.startswith("scorers/"):
        print(f"tests/mutate.py: {module_path} is not under scorers/", file=sys.stderr)
        return 2
    tests = argv[1:] or CORE.get(module_path) or tests_importing(module_name(Path(module_path)))
    if not tests:
        print(f"tests/mutate.py: no test file imports {module_path}; name some", file=sys.stderr)
        return 2
    return mutate(module_path, tests)


def mutate(module_path: str, tests: list[str]) -> int:
    work = prepare(module_path, tests)
    print(f"mutating {module_path} against {' '.join(tests)} (in {work.relative_to(ROOT)})")
    mutmut = Path(sys.executable).with_name("mutmut")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([str(mutmut), "run"], cwd=work, env=env, check=False)
    if done.returncode != 0:
        return done.returncode
    stats = kill_rate(work)
    judged = stats["killed"] + stats["survived"]
    rate = stats["killed"] / judged if judged else 0.0
    print(
        f"{module_path}: {stats['killed']} of {judged} mutants killed ({rate:.1%}); "
        f"timeouts {stats.get('timeout', 0)}, no tests {stats.get('no_tests', 0)}, "
        f"suspicious {stats.get('suspicious', 0)}, total {stats.get('total', 0)}"
    )
    print(f"survivors: cd {work.relative_to(ROOT)} && ../../.venv/bin/mutmut results")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
