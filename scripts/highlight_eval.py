"""How far the page viewer's highlight boxes fall from the words' real boxes, on real books.

    python scripts/highlight_eval.py ~/.cache/bookbench/pdf/dev/memman.pdf [...]

Born pages: words of six or more letters, their edges against PyMuPDF's own box for the word
(``search_for``), as a count of characters placed them (before), as Helvetica's widths place
them over the line, and from the text layer's character boxes (``books.glyphs``). Scans: the
same pages rendered at 200 dpi with bookbench's "medium" scanner noise and JPEG (no rotation,
so the born words stay where they were), each line widened like an OCR detector's box, the
edges against the word's ink: spread over the box by the widths, and found on the ink.
BOOKBENCH_SCRIPTS names the folder of bookbench's make_scans.py (default: /work/shared/bookbench).
"""

import io
import os
import re
import statistics
import sys
import tempfile
import unicodedata
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from books import glyphs, highlight  # noqa: E402
from books.textlayer import DICT_FLAGS, page_lines  # noqa: E402

DPI = 200
WORD = re.compile(r"[A-Za-z]{6,}")


def counted(line, start, end):
    """The old estimate: full-width characters one em, others 0.58, spaces 0.35."""
    def width(char):
        if char.isspace():
            return 0.35
        return 1.0 if unicodedata.east_asian_width(char) in "WF" else 0.58

    x0, _, x1, _ = line["box"]
    widths = [width(char) for char in line["text"]]
    total = sum(widths)
    return (x0 + (x1 - x0) * sum(widths[:start]) / total, 0,
            x0 + (x1 - x0) * sum(widths[:end]) / total, 0)


def ink_of(grey, rect, scale):
    x0, y0, x1, y1 = (int(round(v * scale)) for v in rect)
    ink = grey[y0:y1, x0:x1] < 128
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not rows.size:
        return None
    return ((x0 + columns[0]) / scale, 0, (x0 + columns[-1] + 1) / scale, 0)


def edge_error(box, real) -> float:
    return max(abs(box[0] - real[0]), abs(box[2] - real[2]))


def scanned(page, grey, degrade, rng):
    """Return a one-page PDF of page's render with scanner noise, and its page."""
    image, _ = degrade(Image.fromarray(grey.copy()), rng)
    data = io.BytesIO()
    image.save(data, "JPEG", quality=70)
    document = pymupdf.open()
    new = document.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, stream=data.getvalue())
    return document, new


def measure(path: str, degrade) -> dict[str, list[float]]:
    errors: dict[str, list[float]] = {name: [] for name in (
        "born, counted", "born, widths", "born, text layer", "scan, widths", "scan, ink")}
    rng = np.random.default_rng(1)
    with pymupdf.open(path) as document:
        for number in range(40, min(len(document), 80), 8):
            page = document[number]
            lines = [line for line in page_lines(page) if line["dir"] == "h"]
            layer = glyphs.align(lines, glyphs.layer_lines(
                page.get_text("rawdict", flags=DICT_FLAGS, sort=True)))
            pixmap = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
            grey = np.frombuffer(pixmap.samples, np.uint8).reshape(
                pixmap.height, pixmap.stride)[:, :pixmap.width]
            scan_document, _ = scanned(page, grey, degrade, rng)
            margin = [0.2 * (line["box"][3] - line["box"][1]) for line in lines]
            # A detector's box is a little larger than the ink.
            ocr_lines = [{**line, "box": [line["box"][0] - m, line["box"][1] - m,
                                          line["box"][2] + m, line["box"][3] + m]}
                         for line, m in zip(lines, margin, strict=True)]
            with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
                scan_document.save(file.name)
                on_ink = glyphs.scan_boxes(file.name, 1, ocr_lines, range(len(lines)), 10**10)
            scan_document.close()
            for index, line in enumerate(lines):
                ocr, ink = ocr_lines[index], on_ink[index]
                for match in WORD.finditer(line["text"]):
                    found = page.search_for(match.group(), clip=pymupdf.Rect(line["box"]))
                    if len(found) != 1:
                        continue
                    start, end, real = match.start(), match.end(), found[0]
                    errors["born, counted"].append(edge_error(counted(line, start, end), real))
                    errors["born, widths"].append(edge_error(
                        highlight.box_of(line, start, end), real))
                    errors["born, text layer"].append(edge_error(
                        highlight.box_of(line, start, end, layer[index]), real))
                    real_ink = ink_of(grey, real, DPI / 72)
                    if real_ink:
                        errors["scan, widths"].append(edge_error(
                            highlight.box_of(ocr, start, end), real_ink))
                        errors["scan, ink"].append(edge_error(
                            highlight.box_of(ocr, start, end, ink), real_ink))
    return errors


def main(paths: list[str]) -> None:
    sys.path.insert(0, os.environ.get("BOOKBENCH_SCRIPTS", "/work/shared/bookbench"))
    import make_scans

    preset = {**make_scans.PRESETS["medium"], "rot": 0.0, "shift": 0.0}

    def degrade(image, rng):
        return make_scans.degrade(image, preset, rng)

    for path in paths:
        for name, values in measure(path, degrade).items():
            values.sort()
            within = 100 * sum(value <= 2 for value in values) / len(values)
            print(f"{Path(path).stem:10} {name:18} words {len(values):5}  median "
                  f"{statistics.median(values):5.2f} pt  p95 {values[int(0.95 * len(values))]:5.2f}"
                  f" pt  within 2 pt {within:3.0f} %")


if __name__ == "__main__":
    main(sys.argv[1:])
