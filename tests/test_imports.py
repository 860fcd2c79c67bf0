"""Imports run one way between the project's packages, so each room can change alone.

Every module's imports (at the top, inside functions, under TYPE_CHECKING
alike) are read with ``ast`` and mapped to the package they reach. An import
from one package into another must be in ALLOWED, and ALLOWED itself has no
cycle, so no two packages import each other. The pure core of the contents
parser (``indexing.toc``) counts as a package of its own that imports no app;
the URL and API roots of ``librarian`` gather every app's views and routers,
so they may import any of them.
"""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("librarian", "llm", "books", "indexing", "retrieval", "chat", "bench")
CORE = "indexing.toc"
AGGREGATORS = {"librarian.urls", "librarian.api"}

ALLOWED = {
    "librarian": set(),
    CORE: set(),
    "llm": {"librarian"},
    "books": {"librarian", CORE},
    "retrieval": {"librarian", CORE, "books", "llm"},
    "indexing": {"librarian", CORE, "books", "llm", "retrieval"},
    "chat": {"librarian", "books", "retrieval"},
    "bench": {"librarian", CORE, "books", "llm", "retrieval", "indexing"},
}
"""Which packages each package may import (besides itself and third-party code)."""


def package_of(module: str) -> str | None:
    """Return the package (as in ALLOWED) that a dotted module name belongs to, or None."""
    if module == CORE or module.startswith(CORE + "."):
        return CORE
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> list[tuple[str, int]]:
    """Return (module, line) for every import in the file at path, relative ones resolved.

    ``from books import review`` imports the module ``books.review``; ``from
    books.models import Book`` imports ``books.models``.
    """
    name = module_name(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found += [(f"{module}.{alias.name}" if is_module(f"{module}.{alias.name}")
                       else module, node.lineno) for alias in node.names]
    return found


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if "migrations" not in path.parts)


def edges() -> dict[tuple[str, str], list[str]]:
    """Return {(from package, to package): ["module:line imports target", …]} across packages."""
    found = defaultdict(list)
    for path in modules():
        source = module_name(path)
        if source in AGGREGATORS:
            continue
        here = package_of(source)
        for target, line in imported(path):
            there = package_of(target)
            if there and there != here:
                found[(here, there)].append(f"{source}:{line} imports {target}")
    return found


def test_the_allowed_table_has_no_cycle():
    done, path = set(), []

    def visit(package):
        assert package not in path, "cycle: " + " → ".join([*path, package])
        if package in done:
            return
        path.append(package)
        for other in ALLOWED[package]:
            visit(other)
        path.pop()
        done.add(package)

    for package in ALLOWED:
        visit(package)
    two_way = [(a, b) for a in ALLOWED for b in ALLOWED[a] if a in ALLOWED[b]]
    assert two_way == []


def test_every_import_between_packages_is_allowed():
    wrong = {edge: where for edge, where in edges().items() if edge[1] not in ALLOWED[edge[0]]}
    assert wrong == {}, "\n".join(line for where in wrong.values() for line in where)


def test_no_two_packages_import_each_other():
    found = set(edges())
    two_way = sorted((a, b) for a, b in found if (b, a) in found and a < b)
    assert two_way == []


def test_the_contents_core_imports_no_app():
    assert [where for (source, _), where in edges().items() if source == CORE] == []
