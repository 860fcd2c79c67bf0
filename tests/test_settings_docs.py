"""The settings page and the code name the same LIBRARIAN_* variables.

The code's variables are found with ``ast``: the names given to
``librarian.config``'s helpers (``env_int("MAX_PAGES", …)`` reads
``LIBRARIAN_MAX_PAGES``, ``setting("DATA_DIR")`` uses ``LIBRARIAN_DATA_DIR``),
any ``settings.LIBRARIAN_…`` read around them, and every string that is a whole
variable name (a script setting one for the process it starts); shell scripts
are read for ``$LIBRARIAN_…``. The tests themselves are left out: their own
variables are not settings.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "settings.md"
SKIPPED = {"tests", "node_modules", "data", "artifacts", "staticfiles"}
HELPERS = {"env_str", "env_bool", "env_int", "env_float", "env_choice", "env_pattern",
           "env_model", "env_list", "env_path", "env_secret", "setting", "_raw"}
"""librarian.config's functions whose first argument names a variable without its prefix."""
NAME = re.compile(r"LIBRARIAN_[A-Z0-9_]*[A-Z0-9]")
SHELL_READ = re.compile(r"\$\{?(LIBRARIAN_[A-Z0-9_]*[A-Z0-9])")
ROW = re.compile(r"^\| `(LIBRARIAN_[A-Z0-9_]+)` \|", re.MULTILINE)


def sources(pattern: str) -> list[Path]:
    return sorted(path for path in ROOT.rglob(pattern)
                  if not SKIPPED & set(path.relative_to(ROOT).parts)
                  and not any(part.startswith(".") for part in path.relative_to(ROOT).parts))


def named_in(tree: ast.AST) -> set[str]:
    """Return the variables a module names: through the config helpers, or spelt out whole."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = (node.func.id if isinstance(node.func, ast.Name)
                    else getattr(node.func, "attr", ""))
            first = node.args[0]
            if func in HELPERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add("LIBRARIAN_" + first.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if NAME.fullmatch(node.value):
                found.add(node.value)
        elif isinstance(node, ast.Attribute) and NAME.fullmatch(node.attr):
            found.add(node.attr)  # settings.LIBRARIAN_…, read around the helpers
    return found


def read_in_code() -> set[str]:
    """Return every LIBRARIAN_* variable that the code (tests aside) reads or sets."""
    found = set()
    for path in sources("*.py"):
        found |= named_in(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    for path in [*sources("*.sh"), ROOT / "Makefile"]:
        found |= set(SHELL_READ.findall(path.read_text(encoding="utf-8")))
    return found


def documented() -> set[str]:
    """Return the variables in the first column of the settings page's table."""
    return set(ROW.findall(PAGE.read_text(encoding="utf-8")))


def test_every_setting_the_code_reads_is_documented():
    assert sorted(read_in_code() - documented()) == []


def test_every_documented_setting_is_read_by_the_code():
    assert sorted(documented() - read_in_code()) == []


def test_it_finds_the_helpers_and_whole_names_only():
    tree = ast.parse('env_int("MAX_PAGES", 3); config.setting("DATA_DIR"); x = "LIBRARIAN_X"\n'
                     'settings.LIBRARIAN_Y; prefix = "LIBRARIAN_"; f"LIBRARIAN_{part}"\n'
                     'other("NOT_ONE")')
    assert named_in(tree) == {"LIBRARIAN_MAX_PAGES", "LIBRARIAN_DATA_DIR", "LIBRARIAN_X",
                              "LIBRARIAN_Y"}


def test_the_page_has_one_row_per_setting():
    rows = ROW.findall(PAGE.read_text(encoding="utf-8"))
    assert len(rows) == len(set(rows)) > 40
