"""Imports run one way between the project's packages, so each room can change alone.

Every module's imports (at the top, inside functions, under TYPE_CHECKING
alike) are read with ``ast`` and mapped to the package they reach. An import
from one package into another must be in ALLOWED, and ALLOWED itself has no
cycle, so no two packages import each other. The pure core of the contents
parser (``toc``) counts as a package of its own that imports no app;
the URL and API roots of ``librarian`` gather every app's views and routers,
so they may import any of them. Inside ``retrieval/`` the folders are layers
in the same way (RETRIEVAL_LAYERS, lowest first): a folder imports only the
folders below it, so a question's trip runs down them.

The same reading measures the rest of the structure (``python
tests/test_imports.py`` prints every figure): no two files import each other,
however far round; no function over 60 lines; and, for the answering side
(issue 35), one table of question kinds, one home for the Japanese character
ranges, a result's fields declared once, no module in ``retrieval/`` over 350
lines, settings read through ``librarian/config.py``; every one of them holds.
"""

import ast
import re
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("librarian", "llm", "toc", "books", "indexing", "retrieval", "chat", "bench")
CORE = "toc"
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

RETRIEVAL_LAYERS = ("text", "index", "question", "ranking", "answer")
"""retrieval's folders, lowest first: each may import the folders before it, never one after
(text analysis < the indexes < reading a question < ranking < the answer)."""

MAX_FUNCTION_LINES = 60
MAX_RETRIEVAL_MODULE_LINES = 350
ANSWERING = ("retrieval", "chat")
"""The answering side, which issue 35 reshapes: its figures are expected to fail until then."""
LEAD = "issue 35: the answering side (retrieval/, chat/) is being reshaped"


def package_of(module: str) -> str | None:
    """Return the package (as in ALLOWED) that a dotted module name belongs to, or None."""
    if module == CORE or module.startswith(CORE + "."):
        return CORE
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported(path: Path) -> list[tuple[str, int]]:
    """Return (module, line) for every import in the file at path, relative ones resolved.

    ``from books import review`` imports the module ``books.review``; ``from
    books.models import Book`` imports ``books.models``.
    """
    name = module_name(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree(path)):
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


def in_folder(path: Path, folders: tuple[str, ...]) -> bool:
    return path.relative_to(ROOT).parts[0] in folders


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


# Measures. Each returns what breaks its rule, as "module:line what" strings; [] when it holds.

def file_cycles() -> list[str]:
    """Return each circle of files that import each other (directly or round several files)."""
    graph = {module_name(path): {target for target, _ in imported(path)
                                 if package_of(target) and target != module_name(path)}
             for path in modules()}
    return [" ⇄ ".join(sorted(group)) for group in _circles(graph)]


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one node (Tarjan's algorithm)."""
    order, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return groups


def two_way_packages() -> list[str]:
    """Return the package pairs that import each other (the contents core a package of its own)."""
    found = edges()
    return [f"{a} ⇄ {b}: {found[(a, b)][0]}; {found[(b, a)][0]}"
            for a, b in sorted(found) if (b, a) in found and a < b]


def retrieval_layer(module: str) -> int | None:
    """Return the position in RETRIEVAL_LAYERS of the retrieval folder module is in, or None."""
    parts = module.split(".")
    if len(parts) > 2 and parts[0] == "retrieval" and parts[1] in RETRIEVAL_LAYERS:
        return RETRIEVAL_LAYERS.index(parts[1])
    return None


def upward_imports() -> list[str]:
    """Return "module:line imports target" for each retrieval folder importing a higher one."""
    found = []
    for path in modules():
        source = module_name(path)
        here = retrieval_layer(source)
        if here is None:
            continue
        found += [f"{source}:{line} imports {target}" for target, line in imported(path)
                  if (there := retrieval_layer(target)) is not None and there > here]
    return found


def two_way_folders() -> list[str]:
    """Return the top-level folders that import each other."""
    found = defaultdict(list)
    for (a, b), where in edges().items():
        a, b = a.split(".")[0], b.split(".")[0]
        if a != b:
            found[(a, b)] += where
    return [f"{a} ⇄ {b}: {found[(a, b)][0]}; {found[(b, a)][0]}"
            for a, b in sorted(found) if (b, a) in found and a < b]


def functions() -> list[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef]]:
    return [(path, node) for path in modules() for node in ast.walk(tree(path))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def long_functions(limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Return the functions longer than limit lines, docstring and nested functions included."""
    return [f"{module_name(path)}:{node.lineno} {node.name} ({length} lines)"
            for path, node in functions()
            if (length := node.end_lineno - node.lineno + 1) > limit]


def long_modules(folder: str = "retrieval", limit: int = MAX_RETRIEVAL_MODULE_LINES) -> list[str]:
    """Return the modules of folder longer than limit lines."""
    return [f"{module_name(path)} ({length} lines)" for path in modules()
            if in_folder(path, (folder,))
            and (length := len(path.read_text(encoding="utf-8").splitlines())) > limit]


def imports_inside_functions() -> list[str]:
    """Return the imports written inside functions (hidden from a reader of the module's top)."""
    return [f"{module_name(path)}:{inner.lineno} in {node.name}"
            for path, node in functions() for inner in ast.walk(node)
            if isinstance(inner, ast.Import | ast.ImportFrom)]


def modules_named_like_packages() -> list[str]:
    """Return the modules that share their name with one of the project's packages (a template
    tag library or a management command aside: {% load chat %} and ``manage.py toc`` use it
    by that name, and no import does)."""
    return [module_name(path) for path in modules()
            if path.stem in PACKAGES and path.parent != ROOT / path.stem
            and path.parent.name not in ("templatetags", "commands")]


KINDS = {"lookup", "compare", "aggregate", "range", "which_book", "navigate", "locate"}
KIND_NAMES = {"LOOKUP", "COMPARE", "AGGREGATE", "RANGE", "WHICH_BOOK", "NAVIGATE", "LOCATE"}


def kind_tests(folders: tuple[str, ...] = ANSWERING) -> list[str]:
    """Return the places that test a question's kind (== LOOKUP, in (RANGE, …), == "compare")
    instead of choosing from one table keyed by kind."""

    def is_kind(node) -> bool:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(is_kind(item) for item in node.elts)
        return (isinstance(node, ast.Name) and node.id in KIND_NAMES
                or isinstance(node, ast.Attribute) and node.attr in KIND_NAMES
                or isinstance(node, ast.Constant) and node.value in KINDS)

    return [f"{module_name(path)}:{node.lineno}" for path in modules() if in_folder(path, folders)
            for node in ast.walk(tree(path))
            if isinstance(node, ast.Compare) and any(is_kind(side)
                                                     for side in [node.left, *node.comparators])]


JAPANESE_ESCAPE = re.compile(
    r"\\u(?:30[4-9a-f][0-9a-f]|3[4-9a-f][0-9a-f]{2}|[4-9][0-9a-f]{3}"  # kana, CJK
    r"|f[9a][0-9a-f]{2}|ff[6-9][0-9a-f])",  # compatibility kanji, half-width katakana
    re.IGNORECASE)
"""A code point of kana or kanji written as an escape: how a character range is spelled."""


def japanese_ranges() -> list[str]:
    """Return the modules, the contents core aside, that spell out Japanese character ranges."""
    return [module_name(path) for path in modules()
            if package_of(module_name(path)) != CORE
            and JAPANESE_ESCAPE.search(path.read_text(encoding="utf-8"))]


RESULT_FIELDS = {"book_id", "book_title", "breadcrumb", "heading_id", "page_start", "page_end",
                 "printed_start", "printed_end", "excerpt", "quote", "quote_page"}


def result_field_lists() -> list[str]:
    """Return the places that list a result's fields by name (a class, a tuple of names, a dict
    literal): at least four of them, the book's title and the breadcrumb among them."""

    def names(node) -> set[str]:
        if isinstance(node, ast.ClassDef):
            return {item.target.id for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
        items = (node.keys if isinstance(node, ast.Dict)
                 else node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [])
        return {item.value for item in items
                if isinstance(item, ast.Constant) and isinstance(item.value, str)}

    return [f"{module_name(path)}:{node.lineno}" for path in modules()
            for node in ast.walk(tree(path))
            if len(found := names(node) & RESULT_FIELDS) >= 4
            and {"book_title", "breadcrumb"} <= found]


DIRECT_SETTING = re.compile(r"\bsettings\.LIBRARIAN_\w+|getattr\(\s*settings\b"
                            r"|\b(?:environ\.get|getenv)\(\s*[\"']LIBRARIAN_"
                            r"|\benviron\[\s*[\"']LIBRARIAN_")
"""A LIBRARIAN_* setting read from Django's settings or the environment, not through
librarian.config (setting a variable for a child process is no read)."""
SETTINGS_HOMES = {"librarian.settings", "librarian.config"}


def settings_read_directly(folders: tuple[str, ...] = PACKAGES) -> list[str]:
    """Return "module:line" for each LIBRARIAN_* setting read around librarian.config."""
    found = []
    for path in modules():
        if module_name(path) in SETTINGS_HOMES or not in_folder(path, folders):
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{module_name(path)}:{text.count(chr(10), 0, match.start()) + 1}"
                  for match in DIRECT_SETTING.finditer(text)]
    return found


def outside_answering() -> tuple[str, ...]:
    return tuple(package for package in PACKAGES if package not in ANSWERING)


MEASURES = [
    ("import circles between files", file_cycles, 0),
    ("packages importing each other ", two_way_packages, 0),
    ("top-level folders importing each other ", two_way_folders, 0),
    ("retrieval folders importing a higher one", upward_imports, 0),
    (f"functions over {MAX_FUNCTION_LINES} lines", long_functions, 0),
    (f"retrieval/ modules over {MAX_RETRIEVAL_MODULE_LINES} lines", long_modules, 0),
    ("tests of a question's kind (one table instead)", kind_tests, 0),
    ("modules spelling Japanese ranges (one language check)", japanese_ranges, 1),
    ("places listing a result's fields", result_field_lists, 1),
    ("LIBRARIAN_* settings read around librarian.config", settings_read_directly, 0),
    ("imports inside functions", imports_inside_functions, None),
    ("modules named like a package", modules_named_like_packages, 0),
]
"""(what is counted, the measure, the most it should be; None: only reported)."""


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
    assert two_way_packages() == []


def test_the_contents_core_imports_no_app():
    assert [where for (source, _), where in edges().items() if source == CORE] == []


def test_retrieval_s_folders_import_only_the_folders_below_them():
    found = upward_imports()
    assert found == [], "\n".join(found)


def test_the_layer_check_names_an_upward_import(tmp_path, monkeypatch):
    low, high = tmp_path / "retrieval" / "index", tmp_path / "retrieval" / "answer"
    for folder in (low, high):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (tmp_path / "retrieval" / "__init__.py").write_text("")
    (high / "shown.py").write_text("")
    (low / "reader.py").write_text("\n\ndef text():\n    from retrieval.answer import shown\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGES", ("retrieval",))
    assert upward_imports() == ["retrieval.index.reader:4 imports retrieval.answer.shown"]


def test_no_two_files_import_each_other():
    assert file_cycles() == []


def test_the_circle_finder_finds_a_circle_round_three_files():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [sorted(group) for group in _circles(graph)] == [["a", "b", "c"]]


def test_no_function_is_over_sixty_lines():
    assert long_functions() == []


def test_settings_are_read_through_the_config_outside_the_answering_side():
    assert settings_read_directly(outside_answering()) == []


def test_no_two_top_level_folders_import_each_other():
    assert two_way_folders() == []


def test_no_retrieval_module_is_over_350_lines():
    assert long_modules() == []


def test_the_question_kinds_are_dispatched_from_one_table():
    assert kind_tests() == []


def test_japanese_is_told_in_one_place():
    assert len(japanese_ranges()) <= 1, japanese_ranges()


def test_a_result_s_fields_are_declared_once():
    assert len(result_field_lists()) <= 1, result_field_lists()


def test_the_answering_side_reads_settings_through_the_config():
    assert settings_read_directly(ANSWERING) == []


def test_no_module_is_named_like_a_package():
    assert modules_named_like_packages() == []


def main() -> int:
    """Print every measure with what it finds; return 1 if one holds more than its limit."""
    over = 0
    for what, measure, limit in MEASURES:
        found = measure()
        mark = "" if limit is None else " ok" if len(found) <= limit else f" (want ≤ {limit})"
        over += limit is not None and len(found) > limit
        print(f"{len(found):4d}  {what}{mark}")
        for item in found:
            print(f"        {item}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
