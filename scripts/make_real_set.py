"""Build bookbench's real set: image-only PDFs of real scanned books, with their proofread text.

    .venv/bin/python scripts/make_real_set.py --mirrors /work/.mirror [--books reid,cartels]

Each book of ``bench/real/sources.json`` is a Distributed Proofreaders
post-processing repository: every page scan as it came from the scanner
(``pngs/001.png`` …, 1-bit, about 1,000 pixels wide) beside the text its
volunteers proofread, split by ``-----File: 001.png---`` markers. A fetched
copy of each repository (a bare git directory, as ``fetch`` brings it; the
folder ``<owner>+<name>`` under --mirrors) gives, in BOOKBENCH_DIR/scans/real:

- ``<id>.pdf``: one page per scan, in the proofread text's order (the order of
  the book), each page the scan alone at the book's ``dpi``: no text layer, no
  outline, no page labels, as a user's scanned PDF comes;
- ``<id>.pages.json``: the proofread text of each physical page, markup taken
  out (``[{"number", "png", "text"}]``), the truth of OCR's character errors.
  Proofreaders leave out running heads and page numbers and join words
  hyphenated at a line's end, so measures against it forgive those
  (``bench.real``).

The contents' ground truth is written by hand, in ``bench/real/gt``.

A Japanese book of the set is a list of page images (``pages`` in
sources.json: real page scans fetched from NDL's and Kindai-OCR's
repositories, each at its own dpi) with a hand transcription of some of them
(``bench/real/ja``). Its ``<id>.pages.json`` holds, for every page, its
``image``, ``text`` ("" where none was transcribed), the transcription's
``blocks`` (``bench.real.read_truth``; measured with ``bench.real.page_errors``),
``vertical`` where its text runs in columns and, for the spreads, ``gutter``:
where between the two pages' text a cut is right, as shares of the width
(null: the image is no spread). The contents of the 1887 magazine's issue, from
its 目錄, are in ``bench/real/gt/kokumin2.gt.json``.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pages import REAL_SCANS  # noqa: E402
from bench.real import read_truth  # noqa: E402

SOURCES = ROOT / "bench" / "real" / "sources.json"
MARKER = re.compile(r"^-----File: (\S+?\.png)-*.*$", re.M)
MARKUP = [
    (re.compile(r"\[\*\*[^\]]*\]"), ""),  # proofreaders' notes
    (re.compile(r"\[Blank Page\]"), ""),
    (re.compile(r"\[Illustration:?\s*([^\]]*)\]"), r"\1"),
    (re.compile(r"\[Footnote\s*[^:\]]*:\s*"), ""),
    (re.compile(r"\[Sidenote:\s*"), ""),
    (re.compile(r"</?(?:i|b|g|f|u|sc)>"), ""),
    (re.compile(r"^(?:/[*#$xXfFcCpPrR]|[*#$xXfFcCpPrR]/)\s*$", re.M), ""),
    (re.compile(r"-\*"), "-"),
    (re.compile(r"\*$", re.M), ""),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True,
                        help="The folder holding the fetched repositories (owner+name/).")
    parser.add_argument("--books", default="", help="Comma-separated ids (default: all).")
    parser.add_argument("--out", type=Path, default=REAL_SCANS)
    args = parser.parse_args()
    books = json.loads(SOURCES.read_text())["books"]
    wanted = {b.strip() for b in args.books.split(",") if b.strip()}
    args.out.mkdir(parents=True, exist_ok=True)
    for book in books:
        if wanted and book["id"] not in wanted:
            continue
        git = _git_dir(args.mirrors, book["repo"])
        pages = _pages(git, book)
        _write_pdf(git, book, pages, args.out / f"{book['id']}.pdf")
        (args.out / f"{book['id']}.pages.json").write_text(
            json.dumps(pages, ensure_ascii=False, indent=0))
        print(f"{book['id']}: {len(pages)} pages -> {args.out / (book['id'] + '.pdf')}")


def _git_dir(mirrors: Path, repo: str) -> Path:
    folder = mirrors / repo.replace("/", "+") / "repo"
    git = folder / ".git" if (folder / ".git").is_dir() else folder
    if not git.is_dir():
        sys.exit(f"{repo}: no fetched copy at {folder} (fetch github:{repo} first)")
    return git


def _show(git: Path, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "-C", str(git), "show", f"{commit}:{path}"],
                          capture_output=True, check=True).stdout


def _pages(git: Path, book: dict) -> list[dict]:
    """Return [{number, png, text}] in the book's order: the text's markers where it has
    them, else the scans' names in order (their text then unknown, ""); a book of listed
    page images as _listed gives it."""
    if "pages" in book:
        return _listed(git, book)
    if book["text"]:
        return _whole(_marked(git, book), book.get("whole_pages", []))
    names = subprocess.run(["git", "-C", str(git), "ls-tree", "--name-only", book["commit"],
                            "pngs/"], capture_output=True, text=True, check=True).stdout.split()
    skip = set(book.get("skip", []))
    pngs = sorted(Path(name).name for name in names
                  if name.endswith(".png") and Path(name).name not in skip)
    return [{"number": i + 1, "png": png, "text": ""} for i, png in enumerate(pngs)]


def _marked(git: Path, book: dict) -> list[dict]:
    """Return the pages of a proofread text with page markers, in the markers' order."""
    raw = _show(git, book["commit"], book["text"])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:  # older projects' text is Latin-1
        text = raw.decode("latin-1")
    found = list(MARKER.finditer(text))
    return [{"number": i + 1, "png": m[1],
             "text": clean(text[m.end():found[i + 1].start() if i + 1 < len(found) else None])}
            for i, m in enumerate(found)]


def _whole(pages: list[dict], swaps: list) -> list[dict]:
    """Return the pages with each run of column scans replaced by its whole page's scan."""
    by_png = {page["png"]: page for page in pages}
    out, done = [], set()
    for page in pages:
        swap = next((s for s in swaps if page["png"] in s[1]), None)
        if swap is None:
            out.append(page)
        elif swap[0] not in done:
            done.add(swap[0])
            out.append({"png": swap[0],
                        "text": "\n".join(by_png[png]["text"] for png in swap[1])})
    return [{**page, "number": i + 1} for i, page in enumerate(out)]


def _listed(git: Path, book: dict) -> list[dict]:
    """Return [{number, image, dpi, text, blocks[, gutter]}] of a book of page images, with
    the hand transcription of those that have one and the gutter as shares of the width."""
    import pymupdf

    pages = []
    for number, listed in enumerate(book["pages"], 1):
        image = pymupdf.Pixmap(_show(git, book["commit"], listed["image"]))
        blocks = []
        if listed.get("truth"):
            truth = (ROOT / book["text"] / listed["truth"]).read_text()
            blocks = read_truth(truth, image.width, image.height)
        page = {"number": number, "image": listed["image"], "dpi": listed.get("dpi", book["dpi"]),
                "text": "\n".join(block["text"] for block in blocks), "blocks": blocks}
        if listed.get("vertical"):
            page["vertical"] = True
        if "gutter" in listed:
            page["gutter"] = listed["gutter"] and [round(x / image.width, 4)
                                                   for x in listed["gutter"]]
        pages.append(page)
    return pages


def clean(text: str) -> str:
    """Return a page's proofread text without DP's markup: the words as printed."""
    for pattern, replacement in MARKUP:
        text = pattern.sub(replacement, text)
    text = text.replace("]", "") if "[Footnote" in text else text
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip()


def _write_pdf(git: Path, book: dict, pages: list[dict], path: Path) -> None:
    import pymupdf

    document = pymupdf.open()
    for page in pages:
        data = _show(git, book["commit"], page.get("image") or f"pngs/{page['png']}")
        image = pymupdf.Pixmap(data)
        dpi = page.get("dpi") or book["dpi"]
        width, height = image.width * 72 / dpi, image.height * 72 / dpi
        document.new_page(width=width, height=height).insert_image(
            pymupdf.Rect(0, 0, width, height), stream=data)
    document.set_metadata({})
    document.save(path, garbage=3, deflate=True)


if __name__ == "__main__":
    main()
