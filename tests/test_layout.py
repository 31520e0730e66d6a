"""The package's layering, checked statically: the import graph of every ``meteor_metric`` module.

Layers, bottom to top (README "Layout"); a module may import its own layer and the layers below:

    core  <-  meteor15  <-  profiles  <-  analysis  <-  integrations  <-  cli

``meteor_metric.version`` and ``meteor_metric.resources`` (package data) sit below ``core``. The
package root (``__init__``, ``__main__``, the evaluate loading script ``meteor_metric.py`` and the
re-export modules ``training``, ``significance``, ``mapreduce``, ``coco``) is the public facade on top:
nothing inside the layers imports it. Every import counts: relative and absolute, at module level
and inside functions. Besides the layers: no import cycles, and no module takes another module's
private (underscore) names, neither ``from X import _name`` nor ``module._name`` on an imported module.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "meteor_metric"
LAYERS = ("core", "meteor15", "profiles", "analysis", "integrations", "cli")
BELOW_CORE = ("meteor_metric.version", "meteor_metric.resources")


class Import(NamedTuple):
    source: str  # importing module
    target: str  # imported module
    names: tuple[str, ...]  # names taken from it (from-imports) or used as module attributes
    line: int


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _resolve(source: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute module name of a (possibly relative) ``from`` import in ``source``."""
    if level == 0:
        return module or ""
    base = source.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports(root: Path) -> list[Import]:
    """Every import of a package module by a package module (functions and classes included)."""
    modules = module_names(root)
    top = root.name
    out: list[Import] = []
    for source, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        aliases: dict[str, str] = {}  # local name bound to a package module -> that module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(source, is_package, node.level, node.module)
                if target != top and not target.startswith(top + "."):
                    continue
                plain = []
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:  # ``from package import module``
                        out.append(Import(source, sub, (), node.lineno))
                        aliases[alias.asname or alias.name] = sub
                    else:
                        plain.append(alias.name)
                if plain or not node.names:
                    out.append(Import(source, target, tuple(plain), node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == top or alias.name.startswith(top + "."):
                        out.append(Import(source, alias.name, (), node.lineno))
                        if alias.asname:
                            aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                out.append(Import(source, aliases[node.value.id], (node.attr,), node.lineno))
    return [i for i in out if i.target != i.source]


def layer(module: str) -> int:
    """The layer's rank: -1 below core, 0..5 for LAYERS, 6 for the public facade at the root."""
    if module in BELOW_CORE or any(module.startswith(m + ".") for m in BELOW_CORE):
        return -1
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return len(LAYERS)


def in_cli(module: str) -> bool:
    return layer(module) == LAYERS.index("cli")


def cycles(edges: list[Import]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def upward(edges: list[Import]) -> list[str]:
    """Imports of a higher layer, once per (importer, imported) pair, at the first line."""
    first: dict[tuple[str, str], int] = {}
    for e in edges:
        if layer(e.target) > layer(e.source):
            key = (e.source, e.target)
            first[key] = min(first.get(key, e.line), e.line)
    return [f"{s}:{line} imports {t} (layer {layer(s)} -> {layer(t)})" for (s, t), line in sorted(first.items())]


def private(edges: list[Import]) -> list[str]:
    return [f"{e.source}:{e.line} takes {e.target}.{name}" for e in edges for name in e.names
            if name.startswith("_") and not (name.startswith("__") and name.endswith("__"))]


EDGES = imports(PACKAGE)
CORE_EDGES = [e for e in EDGES if not in_cli(e.source) and not in_cli(e.target)]
CLI_EDGES = [e for e in EDGES if in_cli(e.source) or in_cli(e.target)]


def test_the_graph_is_read():
    """The checker sees the package's real imports (a broken reader would make the other tests pass)."""
    assert len(module_names(PACKAGE)) > 40
    pairs = {(e.source, e.target) for e in EDGES}
    assert ("meteor_metric.meteor15.meteor", "meteor_metric.meteor15.aligner") in pairs
    assert ("meteor_metric.profiles.registry", "meteor_metric.profiles.nltk_profile") in pairs  # inside a function


def test_checker_finds_cycles_upward_and_private_imports(tmp_path):
    pkg = tmp_path / "meteor_metric"
    for folder in ("core", "meteor15"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("def f():\n    from ..meteor15 import b\n")
    (pkg / "meteor15" / "b.py").write_text("from ..core.a import _hidden\nfrom ..core import a\nx = a._other\n")
    edges = imports(pkg)
    assert cycles(edges) == [["meteor_metric.core.a", "meteor_metric.meteor15.b"]]
    assert upward(edges) == ["meteor_metric.core.a:2 imports meteor_metric.meteor15.b (layer 0 -> 1)"]
    assert private(edges) == ["meteor_metric.meteor15.b:1 takes meteor_metric.core.a._hidden",
                              "meteor_metric.meteor15.b:3 takes meteor_metric.core.a._other"]


def test_no_import_cycles():
    assert cycles(CORE_EDGES) == []


def test_no_private_names_across_modules():
    assert private(CORE_EDGES) == []


def test_layers_import_only_downward():
    assert upward(CORE_EDGES) == []


def test_cli_layer():
    assert (cycles(EDGES), private(CLI_EDGES), upward(CLI_EDGES)) == ([], [], [])
