"""The real set's measures and its Japanese pages: hand transcriptions in blocks, read back."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bench.real import (block_errors, char_errors, page_errors, read_truth, reading_errors,
                        squeeze, transcribed_pages)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import make_real_set  # noqa: E402

TRUTH = """# a note on the page
@ 0 0 100 50
上段の一行目
上段の二行目
@ 0 50 100 100
下段
"""


def line(text, x0, y0, x1, y1):
    return {"text": text, "box": [x0, y0, x1, y1]}


def test_a_transcription_is_read_as_blocks_with_their_boxes_as_shares():
    blocks = read_truth(TRUTH, 200, 100)
    assert blocks == [{"box": [0.0, 0.0, 0.5, 0.5], "text": "上段の一行目\n上段の二行目"},
                      {"box": [0.0, 0.5, 0.5, 1.0], "text": "下段"}]


def test_text_before_any_block_is_an_error():
    with pytest.raises(ValueError):
        read_truth("迷子の行\n@ 0 0 1 1\n本文", 10, 10)


def test_japanese_commas_and_full_stops_count_alike_in_either_style():
    assert squeeze("送付には，空気。") == squeeze("送付には、空気．") == "送付には、空気。"
    assert char_errors("気送子が到着す，る。", ["気送子が到着す、る."]) == (0, 10)


def test_tiers_read_across_each_other_cost_nothing_but_misreadings_do():
    blocks = read_truth(TRUTH, 200, 100)
    # Page of 100 x 100 points; columns of both tiers interleaved, as a reader of the
    # whole page by column gives them.
    read = [line("上段の一行目", 0, 5, 40, 40), line("下段", 0, 60, 40, 90),
            line("上段の二行目", 50, 5, 90, 40)]
    assert block_errors(blocks, read, 200, 100) == (0, 14)
    read[1]["text"] = "下設"
    assert block_errors(blocks, read, 200, 100) == (1, 14)


def test_what_lies_in_no_block_is_not_counted_and_what_is_missing_is():
    blocks = [{"box": [0.0, 0.0, 0.5, 1.0], "text": "本文です"}]
    read = [line("本文です", 10, 10, 40, 20), line("隣の頁", 80, 10, 95, 20)]
    assert block_errors(blocks, read, 100, 100) == (0, 4)
    assert block_errors(blocks, [], 100, 100) == (4, 4)


def test_a_page_without_blocks_is_measured_against_its_proofread_text():
    page = {"text": "The mainsail", "blocks": []}
    assert page_errors(page, [line("12", 0, 0, 5, 5), line("The mainsail", 0, 10, 50, 20)],
                       100, 100) == (0, 11)


def test_every_listed_japanese_page_has_its_transcription_and_it_reads():
    books = json.loads((ROOT / "bench" / "real" / "sources.json").read_text())["books"]
    listed = [(book, page) for book in books for page in book.get("pages", [])]
    assert listed
    for book, page in listed:
        if page.get("truth"):
            blocks = read_truth((ROOT / book["text"] / page["truth"]).read_text(), 1000, 1000)
            assert blocks and all(block["text"] for block in blocks)
        if page.get("gutter"):
            low, high = page["gutter"]
            assert low < high


def git(folder, *args):
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


def test_a_book_of_listed_page_images_is_built_with_its_truth(tmp_path):
    repo = tmp_path / "owner+name" / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    for name, size in (("spread.png", (200, 100)), ("page.png", (100, 150))):
        buffer = io.BytesIO()
        Image.new("L", size, 230).save(buffer, "PNG")
        (repo / name).write_bytes(buffer.getvalue())
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "pages")
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    (tmp_path / "truth").mkdir()
    (tmp_path / "truth" / "spread.txt").write_text(TRUTH)
    book = {"id": "sample", "lang": "ja", "dpi": 100, "repo": "owner/name", "commit": commit,
            "text": str(tmp_path / "truth"),
            "pages": [{"image": "spread.png", "truth": "spread.txt", "gutter": [90, 110]},
                      {"image": "page.png", "dpi": 50, "vertical": True, "gutter": None}]}
    pages = make_real_set._pages(repo, book)
    assert [page["text"] for page in pages] == ["上段の一行目\n上段の二行目\n下段", ""]
    assert pages[0]["gutter"] == [0.45, 0.55] and pages[1]["gutter"] is None
    assert pages[0]["blocks"][1]["box"] == [0.0, 0.5, 0.5, 1.0] and pages[1]["vertical"]
    out = tmp_path / "sample.pdf"
    make_real_set._write_pdf(repo, book, pages, out)
    import pymupdf

    with pymupdf.open(out) as document:
        assert [(page.rect.width, page.rect.height) for page in document] == \
            [(144.0, 72.0), (144.0, 216.0)]
        assert not document[0].get_text().strip()
    (tmp_path / "sample.pages.json").write_text(json.dumps(pages))
    listed = transcribed_pages(tmp_path, [book, {"id": "unbuilt", "pages": []}])
    assert [(item["pdf"], item["page"], item["lang"]) for item in listed] == [(out, 1, "ja")]
    assert listed[0]["truth"]["blocks"] == pages[0]["blocks"]


def test_the_reading_alone_forgives_order_and_joined_columns_but_not_misreadings():
    printed = "上段の一行目\n下段の一行目"
    joined = ["上段の一行目下段の一行目"]  # two tiers' columns detected as one line
    assert reading_errors(printed, joined) == (0, 12)
    assert reading_errors(printed, ["下段の一行目", "上段の一行目", "図の説明"]) == (0, 12)
    # One character misread, and a line not read at all: each of its characters counts.
    assert reading_errors("上段の一行目\n朝鮮國王", ["上殺の一行目"]) == (1 + 4, 10)
