"""The two small scanned books the browser journeys register: a contents page and a few pages.

Each body page carries its printed page number (folio) at the foot, so the pipeline can map
the printed contents onto physical pages as it does for a real book.
"""

from pathlib import Path

import pymupdf

from tests.pdfs import scan_of

WIDTH, HEIGHT = 420, 595

BOATS_TITLE = "A Short Guide to Boats"
FUNE_TITLE = "船の手引き"

# (lines, folio) per page; the folio is the printed page number, "" for front matter. The
# contents list "4 Mooring" on page 9, but the chapter is on page 5 under a longer title, so
# the indexer cannot place it and flags it for review. The Japanese book glosses its knots
# in English, as manuals do.
BOATS = [
    (["A Short Guide to Boats", "", "Contents", "1 Sails ........ 1", "2 Knots ........ 2",
      "3 Anchors ........ 4", "4 Mooring ........ 9"], ""),
    (["1 Sails", "The mainsail catches the wind and drives the boat forward.",
      "Reef the mainsail early when the wind rises."], "1"),
    (["2 Knots", "The bowline makes a fixed loop at the end of a rope.",
      "A reef knot joins two ropes of the same size."], "2"),
    (["A clove hitch holds a line to a post.",
      "Two half hitches are the knot for mooring lines."], "3"),
    (["3 Anchors", "Drop the anchor where the water is calm and the bottom is sand.",
      "Let out five times the depth of water in chain."], "4"),
    (["4 Making fast to a buoy", "Pass the line through the ring of the buoy.",
      "Make it fast to a cleat on the bow."], "5"),
]
FUNE = [
    (["船の手引き", "", "目次", "第1章 帆 ........ 1", "第2章 結び ........ 2",
      "第3章 港 ........ 3"], ""),
    (["第1章 帆", "主帆は風を受けて船を前に進める。", "風が強くなったら早めに縮帆する。"], "1"),
    (["第2章 結び", "もやい結び (bowline) は、ロープの端に輪を作る。",
      "本結び (reef knot) は二本のロープをつなぐ。"], "2"),
    (["第3章 港", "港の中では速度を落とす。", "岸壁には船首から近づく。"], "3"),
]


OARS_TITLE = "A Short Guide to Oars"
# Born digital (a text layer: read in a moment). "3 Feathering" is printed in the contents
# on page 7 of a three-page body, so it waits in the review queue until the book is deleted.
OARS = [
    (["A Short Guide to Oars", "", "Contents", "1 Rowing ........ 1", "2 Oarlocks ........ 2",
      "3 Feathering ........ 7"], ""),
    (["1 Rowing", "Pull the oars through the water with straight arms.",
      "Keep the blades square until the end of the stroke."], "1"),
    (["2 Oarlocks", "The oarlock holds the oar to the gunwale of the boat.",
      "Grease each oarlock before a long row."], "2"),
    (["Store the oars flat, out of the sun."], "3"),
]


def make_book(path: Path, pages, *, fontname: str, title_size: float = 12) -> Path:
    """Write a born-digital PDF of the pages, folios at the foot (no metadata)."""
    document = pymupdf.open()
    for lines, folio in pages:
        page = document.new_page(width=WIDTH, height=HEIGHT)
        for row, line in enumerate(lines):
            if line:  # a body page's first line is its heading, set larger; so is a title
                size = 16 if row == 0 and folio else title_size if row == 0 else 12
                page.insert_text((50, 70 + 22 * row), line, fontsize=size, fontname=fontname)
        if folio:
            page.insert_text((WIDTH / 2 - 4, HEIGHT - 40), folio, fontsize=10, fontname=fontname)
    document.save(path)
    document.close()
    return path


def make_scan(folder: Path, name: str, pages, *, title: str, fontname: str) -> Path:
    """Return an image-only scan of the pages, titled as a scanning app would title it."""
    born = make_book(folder / f"{name}-born.pdf", pages, fontname=fontname)
    raw = scan_of(born, folder / f"{name}-raw.pdf", dpi=200)
    scan = folder / f"{name}-scan.pdf"
    with pymupdf.open(raw) as document:
        document.set_metadata({"title": title})
        document.save(scan, deflate=True, garbage=3)
    return scan


def make_scanned_books(folder: Path) -> list[Path]:
    """Return the two scans (no text layer): an English and a Japanese book."""
    return [
        make_scan(folder, "boats", BOATS, title=BOATS_TITLE, fontname="helv"),
        make_scan(folder, "fune", FUNE, title=FUNE_TITLE, fontname="japan"),
    ]
