"""Several authors in one field: typed one a line, read from a PDF's Author entry, shown."""

import pytest

from books import authors

TYPED = [
    ("Ann Reef", ["Ann Reef"]),
    ("Ann Reef\nBo Line", ["Ann Reef", "Bo Line"]),
    ("Ann Reef;  Bo Line ; ", ["Ann Reef", "Bo Line"]),
    ("Lee, Ann\r\nChen, Bo", ["Lee, Ann", "Chen, Bo"]),  # a comma is part of a name typed
    ("山田太郎；鈴木花子", ["山田太郎", "鈴木花子"]),
    ("Ann Reef\nann reef\n\n", ["Ann Reef"]),
    ("", []),
]
DECLARED = [
    ("Ann Reef and Bo Line", ["Ann Reef", "Bo Line"]),
    ("Ann Reef, Bo Line & Cy Knot", ["Ann Reef", "Bo Line", "Cy Knot"]),
    ("Lee, Ann", ["Lee, Ann"]),  # family name, given name: one person
    ("Thomas Williams, Colin Kelley", ["Thomas Williams", "Colin Kelley"]),
    ("山田太郎、鈴木花子", ["山田太郎", "鈴木花子"]),
    ("Sandy Anderson", ["Sandy Anderson"]),  # "and" inside a word parts nothing
    ("Ann Reef; Bo Line", ["Ann Reef", "Bo Line"]),
    ("  ", []),
]
BYLINES = [
    ([], ""), (["Ann Reef"], "Ann Reef"), (["Ann Reef", "Bo Line"], "Ann Reef, Bo Line"),
    (["Lee, Ann", "Bo Line"], "Lee, Ann; Bo Line"), (["山田太郎", "鈴木花子"], "山田太郎、鈴木花子"),
]


@pytest.mark.parametrize("text,names", TYPED)
def test_names_typed_one_a_line_or_with_semicolons(text, names):
    assert authors.typed(text) == names


@pytest.mark.parametrize("text,names", DECLARED)
def test_names_in_a_pdfs_author_entry(text, names):
    assert authors.declared(text) == names


@pytest.mark.parametrize("names,line", BYLINES)
def test_the_byline(names, line):
    assert authors.byline(names) == line


def test_stored_names_fit_the_field_and_read_back_the_same():
    names = [f"Author Number {n}" for n in range(60)]
    kept = authors.stored(names)
    assert len(kept) <= authors.MAX_LENGTH
    assert authors.typed(kept) == names[:len(authors.typed(kept))] and len(authors.typed(kept)) > 20
