"""The shape of the package: no import circles, games found only through the registry, pure rules.

These read the source (``ast``), not the running program, so a lazy import inside a function
counts as much as one at the top; only ``if TYPE_CHECKING:`` blocks are left out, since they
never run.
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import registry

ROOT = Path(__file__).resolve().parent.parent / "companion"
#: Modules a pure rules engine may import besides the standard library and its own package.
PURE_SHARED = {"companion.scenario", "companion.remark"}  # both standard library only
#: Standard-library modules that would bring a clock, threads or I/O into the rules.
IMPURE_STDLIB = {"time", "threading", "asyncio", "socket", "subprocess", "os", "random"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def _imports(name: str, path: Path, known: frozenset[str] = frozenset()) -> set[str]:
    """Every module name this module imports (absolute, as written or resolved); ``known`` are
    the package's modules, to tell ``from package import submodule`` from other names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from package import submodule`` depends on the submodule, as import-linter
            # counts it; any other name depends on the module that defines it
            subs = {f"{module}.{alias.name}" for alias in node.names}
            found.update(subs & known)
            if subs - known:
                found.add(module)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = frozenset(modules)
    return {
        name: {m for m in _imports(name, path, known) if m in modules and m != name}
        for name, path in modules.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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


def test_no_import_cycles_inside_companion() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_kind_is_an_entry_point() -> None:
    declared = sorted(
        ep.name for ep in importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)
    )
    assert declared == registry.names()
    assert {"tamsk", "tantrix", "tokami", "puzzle"} <= set(declared)


def _string_literals(path: Path) -> Iterator[tuple[int, str]]:
    """String constants that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value


def test_no_game_is_named_outside_its_package_and_the_registry() -> None:
    kinds = set(registry.names())
    packages = {getattr(k, "package", "") for k in registry.kinds().values()}
    allowed = {"companion.registry"}
    offenders = []
    for name, path in _modules().items():
        if name in allowed or any(name == p or name.startswith(p + ".") for p in packages):
            continue
        for line, text in _string_literals(path):
            if text in kinds:
                offenders.append(f"{path.relative_to(ROOT.parent)}:{line}: {text!r}")
    assert not offenders, "game kinds named outside their packages:\n" + "\n".join(offenders)


def _rules_modules(package: str, graph: dict[str, set[str]]) -> set[str]:
    """The game's pure rules: its ``simulate`` module and all it imports from the package."""
    start = f"{package}.simulate"
    seen = {start}
    todo = [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep.startswith(package + ".") and dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def _within(imported: str, modules: set[str]) -> bool:
    return any(imported == m or imported.startswith(m + ".") for m in modules)


@pytest.mark.parametrize("kind", sorted(registry.names()))
def test_the_rules_are_standard_library_only(kind: str) -> None:
    """A game's rules use the standard library, the scenario reader and pure rules (their own,
    or another game's: the Tantrix puzzles score with the Tantrix rules), nothing else."""
    modules = _modules()
    graph = _graph()
    packages = {k: getattr(registry.get(k), "package", f"companion.{k}") for k in registry.names()}
    pure = set(PURE_SHARED)
    for other in packages.values():
        pure |= _rules_modules(other, graph)
    stdlib = set(sys.stdlib_module_names)
    for name in sorted(_rules_modules(packages[kind], graph)):
        for imported in _imports(name, modules[name], frozenset(modules)):
            top = imported.split(".")[0]
            if top == "companion":
                ok = imported in ("companion", packages[kind]) or _within(imported, pure)
                assert ok, f"{name} imports {imported}: rules may use only pure rules"
            elif top != "__future__":
                assert top in stdlib, f"{name} imports {imported}, not the standard library"
                assert top not in IMPURE_STDLIB, f"{name} imports {imported}: no clock or I/O"
