"""OCR side by side: the librarian's engine and tesseract on the same scan pages, one thread each.

Two sets of pages, chosen by rule, not by hand (choose_pages), so that every
run, and every engine, reads the same ones:

- ``synthetic``: the dev scans, rendered from born-digital manuals, measured
  against the born-digital twin's text (bench.ocr.char_errors);
- ``real``: the real set's dev books (old print scanned by a library, see
  scripts/make_real_set.py), measured against each page's proofread text
  (bench.real.char_errors, which forgives running heads, folios and
  line-end hyphens). The held-out book is never read here.

Both engines' results go through the same layout (indexing.ocr.layout) and
the same measure.

Tesseract is only a yardstick: it is installed from Debian for the benchmark
(tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-jpn, tesseract-ocr-jpn-vert for the real
set's vertical pages) and the app never needs it.
"""

from __future__ import annotations

import csv
import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench import real
from bench.ocr import char_errors, ordered_text
from indexing.ocr.layout import RawLine, page_lines

PER_LANGUAGE = 20
MIN_CHARS = 300  # a page with less born text (a blank, a part title) says little about reading
TESSERACT_LANGUAGES = {"en": "eng", "ja": "jpn", "ja_vert": "jpn_vert"}


@dataclass(frozen=True)
class Chosen:
    """One scan page to read: its book, language and physical page number (1-based)."""

    book: str
    lang: str
    number: int


@dataclass
class Tally:
    """What one engine did on one language's pages: errors, characters, seconds."""

    pages: int = 0
    errors: int = 0
    chars: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the engine's own CPU time: on a shared machine, what load hides
    missing: str = ""  # why the engine did not run, when it did not

    def add(self, errors: int, chars: int) -> None:
        self.pages += 1
        self.errors += errors
        self.chars += chars

    def figures(self) -> dict:
        """Return the tally as plain numbers: CER (0–1), pages per second and CPU seconds."""
        return {"pages": self.pages, "char_errors": self.errors, "chars": self.chars,
                "seconds": round(self.seconds, 2), "cpu_seconds": round(self.cpu_seconds, 2),
                "cer": self.errors / self.chars if self.chars else None,
                "pages_per_second": self.pages / self.seconds if self.seconds else None,
                "missing": self.missing}


def choose_pages(books: dict[str, tuple[str, list[int]]],
                 per_language: int = PER_LANGUAGE) -> list[Chosen]:
    """Return per_language pages of each language, spread evenly through each book.

    books maps a book id to (language, characters of born text on each
    physical page). A language's quota is shared out among its books in id
    order (the first ones get the remainder); within a book the pages are
    taken at even steps among those with at least MIN_CHARS characters, so
    that contents, body and index pages all have their share.
    """
    by_language = defaultdict(list)
    for book in sorted(books):
        by_language[books[book][0]].append(book)
    chosen = []
    for lang, ids in sorted(by_language.items()):
        quotas = [per_language // len(ids) + (i < per_language % len(ids)) for i in range(len(ids))]
        for book, quota in zip(ids, quotas):
            full = [n + 1 for n, chars in enumerate(books[book][1]) if chars >= MIN_CHARS]
            picks = sorted({full[int((k + 0.5) * len(full) / quota)] for k in range(quota)}
                           if full and quota else set())
            chosen += [Chosen(book, lang, number) for number in picks]
    return chosen


def tesseract_lines(tsv: str) -> dict[int, list[RawLine]]:
    """Return tesseract's TSV output as engine lines per page (1-based, in the list's order).

    Words (level 5) are joined into their line (block, paragraph, line); the
    line's box is the words' union and its confidence their mean.
    """
    grouped: dict[tuple, list[dict]] = defaultdict(list)
    for row in csv.DictReader(tsv.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE):
        if row.get("level") == "5" and (row.get("text") or "").strip():
            grouped[tuple(int(row[key]) for key in
                          ("page_num", "block_num", "par_num", "line_num"))].append(row)
    pages: dict[int, list[RawLine]] = defaultdict(list)
    for key, words in grouped.items():
        x0 = min(int(w["left"]) for w in words)
        y0 = min(int(w["top"]) for w in words)
        x1 = max(int(w["left"]) + int(w["width"]) for w in words)
        y1 = max(int(w["top"]) + int(w["height"]) for w in words)
        conf = sum(float(w["conf"]) for w in words) / len(words) / 100
        pages[key[0]].append(RawLine(quad=((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                                     text=" ".join(w["text"] for w in words), conf=conf))
    return pages


def tesseract_missing() -> str:
    """Return why tesseract cannot run here ("" when it can)."""
    if not shutil.which("tesseract"):
        return "tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng " \
               "tesseract-ocr-jpn tesseract-ocr-jpn-vert)"
    found = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout
    absent = [name for name in TESSERACT_LANGUAGES.values() if name not in found.split()]
    return f"tesseract lacks the {', '.join(absent)} language data" if absent else ""


def run_tesseract(images: list, lang: str) -> tuple[dict[int, list[RawLine]], float, float]:
    """Return (lines per page, seconds, CPU seconds) of one tesseract run over images, on one
    thread.

    One process reads them all, as a list of files, so that its models are
    loaded once, as ours are; writing the images is not timed.
    """
    import cv2

    with tempfile.TemporaryDirectory() as folder:
        names = []
        for i, image in enumerate(images):
            names.append(str(Path(folder, f"{i:03d}.png")))
            cv2.imwrite(names[-1], image[:, :, 0])
        listing = Path(folder, "pages.txt")
        listing.write_text("\n".join(names) + "\n")
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(["tesseract", str(listing), "-", "-l", TESSERACT_LANGUAGES[lang],
                               "--psm", "3", "tsv"], capture_output=True, text=True, env=env,
                              check=True)
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    return tesseract_lines(done.stdout), seconds, cpu


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_ours(read, images: list, scales: list[float]) -> tuple[list[list[dict]], float, float]:
    """Return (page lines of each image, seconds, CPU seconds of this process) read one after
    another by read(image, scale)."""
    start, cpu = time.perf_counter(), time.process_time()
    found = [read(image, scale) for image, scale in zip(images, scales, strict=True)]
    return found, time.perf_counter() - start, time.process_time() - cpu


def born_errors(truth: list[dict], lines: list[dict]) -> tuple[int, int]:
    """Return (errors, characters) of a synthetic page's lines against its born lines."""
    return char_errors(ordered_text(truth), ordered_text(lines))


def proofread_errors(truth: str, lines: list[dict]) -> tuple[int, int]:
    """Return (errors, characters) of a real page's lines (in reading order) against its
    proofread text."""
    return real.char_errors(truth, [line["text"] for line in lines])


def tally(pages: "Pages", found: list[list[dict]], seconds: float,
          cpu_seconds: float = 0.0) -> Tally:
    """Return the tally of pages read (found) against their truths."""
    counted = Tally(seconds=seconds, cpu_seconds=cpu_seconds)
    for truth, lines in zip(pages.truths, found, strict=True):
        counted.add(*pages.measure(truth, lines))
    return counted


def tesseract_pages(raw: dict[int, list[RawLine]], scales: list[float]) -> list[list[dict]]:
    """Return the page lines of tesseract's pages, one per scale, through our layout."""
    return [page_lines(raw.get(n, []), scale) for n, scale in enumerate(scales, start=1)]


@dataclass
class Pages:
    """One set and language's chosen pages: the scan images, their scales, their truths
    (born lines or proofread text) and how a page read is measured against its truth."""

    chosen: list[Chosen]
    images: list
    scales: list[float]
    truths: list
    measure: object  # (truth, page lines) -> (errors, characters)
    vertical: list[bool] = field(default_factory=list)  # read by tesseract as set vertically


Loaded = dict[tuple[str, str], Pages]  # (set, language) -> pages


def load(scans: Path, born: Path, languages: dict[str, str], dpi: int,
         max_pixels: int) -> Loaded:
    """Return the chosen synthetic pages of each language, rendered as the ocr stage renders
    them.

    languages maps a book id to its language; scans and born are the folders
    of the image-only and the born-digital PDFs.
    """
    import pymupdf

    from books.textlayer import page_lines as born_lines

    texts = {}
    for book, lang in languages.items():
        with pymupdf.open(born / f"{book}.pdf") as document:
            texts[book] = (lang, [born_lines(page) for page in document])
    sizes = {book: (lang, [sum(len(line["text"]) for line in page) for page in pages])
             for book, (lang, pages) in texts.items()}
    return _rendered("synthetic", choose_pages(sizes), lambda book: scans / f"{book}.pdf",
                     lambda item: texts[item.book][1][item.number - 1], born_errors, dpi,
                     max_pixels)


def load_real(folder: Path, books: list[dict], dpi: int, max_pixels: int) -> Loaded:
    """Return the chosen pages of the real set's dev books, rendered as the ocr stage renders
    them; books are bench/real/sources.json's entries, folder holds <id>.pdf and
    <id>.pages.json. Held-out books, books without per-page text and books added after the
    pages were chosen ("side_by_side": false, so that the figures stay comparable) are left
    out; pages transcribed by hand (the Japanese ones) are all read, measured block by block."""
    loaded = _transcribed(folder, [book for book in books if book.get("role") == "dev"],
                          dpi, max_pixels)
    texts = {}
    for book in books:
        path = folder / f"{book['id']}.pages.json"
        if book.get("role") != "dev" or not book.get("text") or "pages" in book \
                or book.get("side_by_side") is False or not path.is_file():
            continue
        pages = json.loads(path.read_text())
        texts[book["id"]] = (book["lang"], [page["text"] for page in pages])
    sizes = {book: (lang, [len(text) for text in pages]) for book, (lang, pages) in texts.items()}
    loaded.update(_rendered("real", choose_pages(sizes), lambda book: folder / f"{book}.pdf",
                            lambda item: texts[item.book][1][item.number - 1], proofread_errors,
                            dpi, max_pixels))
    return loaded


def _transcribed(folder: Path, books: list[dict], dpi: int, max_pixels: int) -> Loaded:
    """Return the hand-transcribed real pages (bench.real.transcribed_pages), rendered."""
    import pymupdf

    from indexing.ocr.render import render

    loaded: Loaded = {}
    for found in real.transcribed_pages(folder, books):
        pages = loaded.setdefault(("real", found["lang"]),
                                  Pages([], [], [], [], transcribed_errors))
        with pymupdf.open(found["pdf"]) as document:
            page = document[found["page"] - 1]
            image, scale = render(page, dpi, max_pixels)
            truth = (found["truth"], page.rect.width, page.rect.height)
        pages.chosen.append(Chosen(found["pdf"].stem, found["lang"], found["page"]))
        pages.images.append(image)
        pages.scales.append(scale)
        pages.truths.append(truth)
        pages.vertical.append(bool(found["truth"].get("vertical")))
    return loaded


def transcribed_errors(truth: tuple, lines: list[dict]) -> tuple[int, int]:
    """Return (errors, characters) of a hand-transcribed page read as lines, by its blocks."""
    page, width, height = truth
    return real.page_errors(page, lines, width, height)


def _rendered(name: str, chosen: list[Chosen], pdf, truth, measure, dpi: int,
              max_pixels: int) -> Loaded:
    import pymupdf

    from indexing.ocr.render import render

    loaded: Loaded = {}
    for item in chosen:
        pages = loaded.setdefault((name, item.lang), Pages([], [], [], [], measure))
        with pymupdf.open(pdf(item.book)) as document:
            image, scale = render(document[item.number - 1], dpi, max_pixels)
        pages.chosen.append(item)
        pages.images.append(image)
        pages.scales.append(scale)
        pages.truths.append(truth(item))
    return loaded


Results = dict[str, dict[tuple[str, str], Tally]]  # engine -> (set, language) -> tally


def compare(read, loaded: Loaded) -> Results:
    """Return {engine: {(set, language): tally}} for our read(image, scale) and tesseract on
    loaded pages; on each set and language the two engines run back to back, so that other
    work on the machine weighs on both alike."""
    missing = tesseract_missing()
    results: Results = {"librarian": {}, "tesseract": {}}
    for key, pages in sorted(loaded.items()):
        found, seconds, cpu = run_ours(read, pages.images, pages.scales)
        results["librarian"][key] = tally(pages, found, seconds, cpu)
        if missing:
            results["tesseract"][key] = Tally(missing=missing)
            continue
        found, seconds, cpu = _tesseract(pages, key[1])
        results["tesseract"][key] = tally(pages, found, seconds, cpu)
    return results


def _tesseract(pages: Pages, lang: str) -> tuple[list[list[dict]], float, float]:
    """Return (page lines of each image, seconds, CPU seconds) of tesseract over pages: one
    run for the pages set across, one (jpn_vert) for those set vertically."""
    vertical = pages.vertical or [False] * len(pages.images)
    found: list = [None] * len(pages.images)
    seconds = cpu = 0.0
    for upright in (False, True):
        chosen = [i for i, flag in enumerate(vertical) if flag == upright]
        if not chosen:
            continue
        raw, spent, used = run_tesseract([pages.images[i] for i in chosen],
                                         lang + ("_vert" if upright else ""))
        lines = tesseract_pages(raw, [pages.scales[i] for i in chosen])
        for i, read in zip(chosen, lines):
            found[i] = read
        seconds, cpu = seconds + spent, cpu + used
    return found, seconds, cpu


def figures(results: Results, loaded: Loaded) -> dict:
    """Return the results as plain data, with the pages read, for --json ("set/lang" keys)."""
    return {"pages": {f"{name}/{lang}": [[item.book, item.number] for item in pages.chosen]
                      for (name, lang), pages in sorted(loaded.items())},
            "engines": {engine: {f"{name}/{lang}": counted.figures()
                                 for (name, lang), counted in sorted(by_key.items())}
                        for engine, by_key in results.items()}}


def table(results: Results) -> str:
    """Return the printed table: CER, pages/s and CPU seconds a page per set, language and
    engine, then how the engines compare on each."""
    rows = ["OCR side by side (same pages, one thread each)",
            f"{'set':>9}  {'lang':>4}  {'engine':>10}  {'pages':>5}  {'CER':>6}  {'pages/s':>7}"
            f"  {'CPU s/page':>10}"]
    keys = sorted({key for by_key in results.values() for key in by_key})
    for name, lang in keys:
        for engine, by_key in results.items():
            counted = by_key.get((name, lang))
            if counted is None:
                continue
            head = f"{name:>9}  {lang:>4}  {engine:>10}"
            if counted.missing:
                rows.append(f"{head}  not run: {counted.missing}")
                continue
            found = counted.figures()
            cer, speed = 100 * (found["cer"] or 0), found["pages_per_second"] or 0
            cpu = counted.cpu_seconds / counted.pages if counted.pages else 0
            rows.append(f"{head}  {found['pages']:>5}  {cer:>5.2f}%  {speed:>7.2f}  {cpu:>10.2f}")
    rows += [line for key in keys if (line := _versus(results, key))]
    return "\n".join(rows)


def _versus(results: Results, key: tuple[str, str]) -> str:
    """Return "real en: 2.5× fewer character errors than tesseract, at 1.20× its pages/s (1.10×
    its CPU time's)" ("" if either did not run)."""
    ours, theirs = results["librarian"].get(key), results.get("tesseract", {}).get(key)
    if ours is None or theirs is None or theirs.missing or not (ours.chars and theirs.chars):
        return ""
    ours_cer, theirs_cer = ours.errors / ours.chars, theirs.errors / theirs.chars
    errors = f"{theirs_cer / ours_cer:.1f}× fewer" if ours_cer else "no"
    speed = (ours.pages / ours.seconds) / (theirs.pages / theirs.seconds)
    cpu = f" ({theirs.cpu_seconds / ours.cpu_seconds:.2f}× its pages per CPU second)" \
        if ours.cpu_seconds and theirs.cpu_seconds else ""
    return f"{key[0]} {key[1]}: {errors} character errors than tesseract, " \
           f"at {speed:.2f}× its pages/s{cpu}"
