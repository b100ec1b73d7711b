"""The layers hold: scorers/ is plain Python and neither package has an import cycle.

Importing any module of ``scorers`` never pulls in textual, rich or rome_tui (the
CLI and the app sit on top of the core, never under it), not even lazily, under
``TYPE_CHECKING`` or by name through ``importlib``. The import graph of
``scorers`` and ``rome_tui`` (built by grimp, function-level and ``TYPE_CHECKING``
imports included) has no cycle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
UI_PACKAGES = ("textual", "rich", "rome_tui")

PROBE = (
    f"UI_PACKAGES = {UI_PACKAGES!r}"
    + """
import importlib, json, pkgutil, sys
import scorers
names = ["scorers"] + [m.name for m in pkgutil.walk_packages(scorers.__path__, "scorers.")]
for name in names:
    importlib.import_module(name)
leaked = sorted(m for m in sys.modules if m.split(".")[0] in UI_PACKAGES)
print(json.dumps({"modules": names, "leaked": leaked}))
"""
)


def test_importing_scorers_loads_no_ui_package() -> None:
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


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        "scorers",
        "rome_tui",
        include_external_packages=True,
        exclude_type_checking_imports=False,
        cache_dir=None,
    )


def test_scorers_imports_no_ui_package_anywhere() -> None:
    """Lazy imports and ``TYPE_CHECKING`` blocks count too: the probe above runs neither."""
    graph = _graph()
    found = [
        f"{module} -> {imported}"
        for module in sorted(graph.find_descendants("scorers") | {"scorers"})
        for imported in sorted(graph.find_modules_directly_imported_by(module))
        if imported.split(".")[0] in UI_PACKAGES
    ]
    assert found == []


def _named_ui_modules(path: Path) -> list[str]:
    """String arguments of calls that name a UI package (``import_module("rome_tui.x")``,
    ``importlib.resources.files("rome_tui")``): imports no graph can see."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in node.args:
                if (
                    isinstance(arg, ast.Constant)
                    and isinstance(arg.value, str)
                    and arg.value.split(".")[0] in UI_PACKAGES
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {arg.value!r}")
    return found


def test_scorers_names_no_ui_package_in_a_call() -> None:
    found = [
        hit for path in sorted((ROOT / "scorers").rglob("*.py")) for hit in _named_ui_modules(path)
    ]
    assert found == []


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles() -> None:
    graph = _graph()
    modules = {m for m in graph.modules if m.split(".")[0] in ("scorers", "rome_tui")}
    assert len(modules) > 100
    cycles = _cycles(graph, modules)
    detail = [
        f"{a} -> {b} (line {d['line_number']})"
        for cycle in cycles
        for a in cycle
        for b in sorted(graph.find_modules_directly_imported_by(a) & set(cycle))
        for d in graph.get_import_details(importer=a, imported=b)[:1]
    ]
    assert cycles == [], "\n".join(detail)


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d"), ("p.d", "p.e")):
        graph.add_import(importer=a, imported=b)
    assert _cycles(graph, set(graph.modules)) == [["p.a", "p.b", "p.c"]]


# The layers the README's Architecture section draws, top first; a group shares a layer.
LAYERS = (
    ("rome_tui.commands",),
    ("rome_tui.demo",),
    ("rome_tui.app",),
    ("rome_tui.render",),
    ("scorers.grade", "scorers.stats"),
    ("scorers.judges",),
    ("scorers.adjudicate",),
    ("scorers.flags",),
    ("scorers.evaluate", "scorers.io"),
    ("scorers.review",),
    ("scorers.records", "scorers.errors", "scorers.images"),
)


def _layer(module: str, layers: tuple[tuple[str, ...], ...]) -> int | None:
    for depth, group in enumerate(layers):
        if any(module == top or module.startswith(top + ".") for top in group):
            return depth
    return None


def _upward(graph: grimp.ImportGraph, layers: tuple[tuple[str, ...], ...]) -> list[str]:
    """Imports from a layer into one listed above it."""
    found = []
    for module in sorted(graph.modules):
        depth = _layer(module, layers)
        if depth is None:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            above = _layer(imported, layers)
            if above is not None and above < depth:
                found.append(f"{module} -> {imported}")
    return found


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert _upward(_graph(), LAYERS) == []


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = grimp.ImportGraph()
    graph.add_import(importer="p.low.x", imported="p.high.y")
    graph.add_import(importer="p.high.y", imported="p.low.z")
    assert _upward(graph, (("p.high",), ("p.low",))) == ["p.low.x -> p.high.y"]
