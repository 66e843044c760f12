"""The package's layers: no module imports another that imports it back, directly or through
others, counting the imports inside functions too; and nardy's own modules are imported at the
top of a module, except the few loaded on first use to keep `import nardy` light."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nardy

SRC = Path(nardy.__file__).resolve().parent
COMPILED = {p.name.split(".")[0] for p in SRC.glob("_*.pyi")}  # _core, _net, ...: leaves

# (importer, imported): imports of nardy's modules inside functions, each loaded on first use on purpose
LAZY = {
    # `import nardy` loads play.simulate (nardy.simulate); the evaluator and its bear-off table
    # load only for the policies that use them
    ("nardy.play.simulate", "nardy.evaluation.net"),
    ("nardy.play.simulate", "nardy.evaluation.bearoff"),
    # with NARDY_PURE_PYTHON=1 the compiled door loads when first used, so `import nardy` loads
    # no compiled module (the evaluator, the environment, ... still run where the core is built)
    ("nardy._backend", "nardy._compiled"),
}
CLI = "nardy.cli"  # the command line loads each command's modules when the command runs


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def _imports(name: str) -> list[tuple[str, bool]]:
    """(imported module, inside a function?) for each import of a nardy module by `name`,
    imports under `if TYPE_CHECKING:` left out."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((a.name, in_function) for a in child.names if a.name.split(".")[0] == "nardy")
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - child.level + 1] + ([child.module] if child.module else []))
                else:
                    base = child.module or ""
                if base.split(".")[0] != "nardy":
                    continue
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    found.append((sub if sub in MODULES or alias.name in COMPILED else base, in_function))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def test_the_graph_is_read() -> None:
    assert len(GRAPH) >= 30 and ("nardy.position", False) in GRAPH["nardy.game"]
    assert ("nardy._backend", False) in GRAPH["nardy.position"]
    assert ("nardy._core", False) in GRAPH["nardy._compiled"]


def test_no_import_cycles() -> None:
    edges = {name: {m for m, _ in found if m in MODULES and m != name}
             for name, found in GRAPH.items()}
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for other in sorted(edges[name]):
            walk(other, path + [name])
        done.add(name)

    for name in sorted(edges):
        walk(name, [])


# the one door to the core: the compiled modules (COMPILED) are imported by the compiled door alone;
# the API reaches it, and its twin over the reference, through `_backend`, which chooses between them
DOOR = "nardy._compiled"
BACKEND_MODULES = {"nardy._backend": {"nardy._compiled", "nardy._pure", "nardy._wire"}}


def _nardy(found: list[tuple[str, bool]]) -> set[str]:
    return {m for m, _ in found}


def test_only_the_compiled_door_imports_a_compiled_module() -> None:
    importers = {name for name, found in GRAPH.items() if {m.rpartition(".")[2] for m in _nardy(found)} & COMPILED}
    assert importers == {DOOR}
    assert {m.rpartition(".")[2] for m in _nardy(GRAPH[DOOR])} >= {"_core", "_net", "_env", "_simulate", "_bearoff"}


def test_the_api_reaches_the_backends_only_through_the_door() -> None:
    for backend, allowed in BACKEND_MODULES.items():
        users = {name for name, found in GRAPH.items() if _nardy(found) & {"nardy._compiled", "nardy._pure"}}
        assert users == {backend}, users
        assert _nardy(GRAPH[backend]) & {m for m in MODULES if m.startswith("nardy._")} <= allowed


def test_the_reference_and_its_twin_never_import_the_core() -> None:
    for name, found in GRAPH.items():
        if name.startswith("nardy.reference") or name in ("nardy._pure", "nardy._wire"):
            assert not _nardy(found) & {"nardy._compiled", "nardy._backend"}, name
            assert not {m.rpartition(".")[2] for m in _nardy(found)} & COMPILED, name


def test_no_module_reaches_into_the_core_through_another() -> None:
    """No `engine._core`, `_backend._core`, `compiled._net`: a compiled module is named only where imported."""
    reach = re.compile(r"\b(?:engine|_backend|_compiled|compiled)\.(?:" + "|".join(sorted(COMPILED)) + r")\b")
    assert [name for name, path in MODULES.items() if reach.search(path.read_text(encoding="utf-8"))] == []


def test_nardy_modules_are_imported_at_the_top() -> None:
    inside = {(name, m) for name, found in GRAPH.items() for m, in_function in found
              if in_function and m.rpartition(".")[2] not in COMPILED and name != CLI}
    assert inside == LAZY
    assert len({m for m, in_function in GRAPH[CLI] if in_function}) <= 15
