"""What the image problems of real scans cost the OCR: the real set's English pages read as
they are and made worse the ways scanners and cameras make them worse (issue 50, item 5).

    LIBRARIAN_DATA_DIR=… nice -n 10 .venv/bin/python scripts/real_degraded.py \
        [--folder ~/.cache/bookbench/scans/real] [--pages 12] [--engines librarian,tesseract]

The pages are those ``bookbench --ocr-side-by-side`` reads of the real set's dev books
(``bench.side_by_side.load_real``: proofread text beside each scan, rendered as the ocr
stage renders it). Each problem is made on the rendered page, the same for every engine:

- ``skew N``: the page turned N degrees anticlockwise (a page laid crooked on the glass);
- ``low contrast``: ink and paper pressed to grey on grey (a faded print, a dim camera);
- ``bleed-through``: the next page's text seen through the paper, mirrored, faint;
- ``gutter shadow``: a dark band fading in from the binding's edge;
- ``uneven resolution``: the page scanned at half the resolution, then scaled back;
- ``photographed``: uneven light across the page and a little blur.

CER is counted as the side-by-side counts it (``bench.real.char_errors``), each engine's
time as its CPU seconds. A problem that costs much over the clean pages is one to fix.
"""

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

import django  # noqa: E402

django.setup()

import json  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageFilter  # noqa: E402

from bench import side_by_side  # noqa: E402
from bench.pages import REAL_SCANS  # noqa: E402
from indexing.contract import StageContext  # noqa: E402
from indexing.ocr.engines import get_engine  # noqa: E402
from indexing.ocr.read import read_page  # noqa: E402



def skewed(degrees: float):
    def turn(image: np.ndarray, _other: np.ndarray) -> np.ndarray:
        picture = Image.fromarray(image).rotate(degrees, resample=Image.BICUBIC, expand=True,
                                                fillcolor=(255, 255, 255))
        return np.asarray(picture)
    return turn


def low_contrast(image: np.ndarray, _other: np.ndarray) -> np.ndarray:
    return (110 + image.astype(np.float32) * (190 - 110) / 255).astype(np.uint8)


def bleed_through(image: np.ndarray, other: np.ndarray) -> np.ndarray:
    behind = np.asarray(Image.fromarray(other).resize(image.shape[1::-1])).astype(np.float32)
    ghost = 255 - 0.22 * (255 - behind[:, ::-1])  # mirrored, about a fifth as dark
    return np.minimum(image.astype(np.float32), ghost).astype(np.uint8)


def gutter_shadow(image: np.ndarray, _other: np.ndarray) -> np.ndarray:
    width = image.shape[1]
    band = np.clip(1 - np.arange(width) / (0.18 * width), 0, 1) ** 1.5  # from the left edge
    shade = 1 - 0.6 * band
    return (image.astype(np.float32) * shade[None, :, None]).astype(np.uint8)


def uneven_resolution(image: np.ndarray, _other: np.ndarray) -> np.ndarray:
    picture = Image.fromarray(image)
    small = picture.resize((picture.width // 2, picture.height // 2), Image.BILINEAR)
    return np.asarray(small.resize(picture.size, Image.BILINEAR))


def photographed(image: np.ndarray, _other: np.ndarray) -> np.ndarray:
    height, width = image.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width]
    light = 0.65 + 0.35 * np.exp(-(((xx - 0.35 * width) / width) ** 2
                                   + ((yy - 0.3 * height) / height) ** 2) * 2.5)
    blurred = np.asarray(Image.fromarray(image).filter(ImageFilter.GaussianBlur(0.8)))
    return (blurred.astype(np.float32) * light[:, :, None]).astype(np.uint8)


PROBLEMS = {
    "as scanned": lambda image, _other: image,
    "skew 1°": skewed(1.0),
    "skew 3°": skewed(3.0),
    "skew -3°": skewed(-3.0),
    "skew 6°": skewed(6.0),
    "low contrast": low_contrast,
    "bleed-through": bleed_through,
    "gutter shadow": gutter_shadow,
    "uneven resolution": uneven_resolution,
    "photographed": photographed,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=REAL_SCANS)
    parser.add_argument("--pages", type=int, default=12, help="the first N chosen pages")
    parser.add_argument("--engines", default="librarian,tesseract")
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    args = parser.parse_args()
    ctx = StageContext.from_settings()
    books = json.loads((ROOT / "bench" / "real" / "sources.json").read_text())["books"]
    loaded = side_by_side.load_real(args.folder, books, ctx.render_dpi, ctx.max_render_pixels)
    pages = loaded[("real", "en")]
    count = min(args.pages, len(pages.images))
    engine = get_engine(replace(ctx.ocr, threads=1, batch_pages=1))
    engines = [name for name in args.engines.split(",") if name]
    if "tesseract" in engines and side_by_side.tesseract_missing():
        engines.remove("tesseract")
    print(f"{count} real English pages; CER (errors of characters) and CPU s a page")
    print(f"{'problem':<20}" + "".join(f"{name:>28}" for name in engines))
    for name in args.problems.split(","):
        made = PROBLEMS[name]
        images = [made(pages.images[i], pages.images[(i + 1) % count]) for i in range(count)]
        some = replace(pages, chosen=pages.chosen[:count], images=images,
                       scales=pages.scales[:count], truths=pages.truths[:count])
        row = f"{name:<20}"
        for engine_name in engines:
            if engine_name == "librarian":
                found, seconds, cpu = side_by_side.run_ours(
                    lambda image, scale: read_page(engine, image, scale)["lines"], some.images,
                    some.scales)
            else:
                found, seconds, cpu = side_by_side._tesseract(some, "en")
            counted = side_by_side.tally(some, found, seconds, cpu)
            rate = counted.errors / max(counted.chars, 1)
            row += f"{rate:>14.2%} ({counted.errors:>5}) {cpu / count:>6.2f}s"
        print(row, flush=True)


if __name__ == "__main__":
    main()
