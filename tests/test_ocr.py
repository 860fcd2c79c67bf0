import threading

import pytest

from books.models import Page
from indexing.ocr import engines, layout
from indexing.ocr.layout import RawLine
from indexing.prefetch import prefetch
from tests.pdfs import make_book_pdf, make_scan_pdf, make_vertical_pdf, scan_of

pytestmark = pytest.mark.django_db


def quad(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


class FakeEngine:
    """Reads every image as the same two lines; fails on the pages it is told to."""

    name = "fake"
    fail_on: set = set()
    calls = 0

    def __init__(self, config):
        pass

    def read(self, images):
        FakeEngine.calls += 1
        if FakeEngine.calls in FakeEngine.fail_on:
            raise RuntimeError("engine crashed")
        return [[RawLine(quad(300, 20, 330, 40), "12", 0.9),
                 RawLine(quad(100, 100, 500, 130), "Knots and hitches", 0.95)] for _ in images]


@pytest.fixture
def fake_engine(settings, monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "fake", FakeEngine)
    monkeypatch.setattr(FakeEngine, "fail_on", set())
    monkeypatch.setattr(FakeEngine, "calls", 0)
    settings.LIBRARIAN_OCR_ENGINE = "fake"
    settings.LIBRARIAN_OCR_BATCH_PAGES = 1  # calls counted one page each
    return FakeEngine


class TestLayout:
    def test_boxes_are_converted_from_pixels_to_points(self):
        [line] = layout.page_lines([RawLine(quad(150, 300, 450, 330), " Knots ", 0.87654)], scale=1.5)
        assert line == {"text": "Knots", "box": [100.0, 200.0, 300.0, 220.0], "conf": 0.877, "dir": "h"}

    def test_horizontal_lines_read_by_row_then_left_to_right(self):
        raw = [
            RawLine(quad(400, 102, 430, 118), "17", 1.0),  # page number on the title's row
            RawLine(quad(100, 200, 300, 220), "second row", 1.0),
            RawLine(quad(100, 100, 300, 120), "1.2 Title", 1.0),
        ]
        assert [line["text"] for line in layout.page_lines(raw, 1.0)] == ["1.2 Title", "17", "second row"]

    def test_a_crooked_page_is_read_in_the_order_its_lines_run(self):
        # A page turned 3°: each line rises 40 px across its 770, so its upright box is two
        # lines tall, and a paragraph's indented first line shares a "row" with the line
        # under it, which starts further left.
        def slanted(x0, y0, text, rise=0.0524, height=40):
            top = ((x0, y0), (800, y0 - rise * (800 - x0)))
            return RawLine((*top, (800, top[1][1] + height), (x0, y0 + height)), text, 1.0)

        raw = [slanted(31, 100 + 38 * row, f"line {row} of the first paragraph")
               for row in range(3)]
        raw.append(slanted(80, 100 + 38 * 3 + 49 * 0.0524, "The second paragraph, indented"))
        raw.append(slanted(31, 100 + 38 * 4, "and its second line"))
        texts = [line["text"] for line in layout.page_lines(raw[::-1], 1.0)]
        assert texts == [line.text for line in raw]
        assert layout.slant(raw) == pytest.approx(-3.0, abs=0.1)

    def test_a_level_page_has_no_slant(self):
        raw = [RawLine(quad(100, 100 + 20 * row, 500, 116 + 20 * row), "a line of text", 1.0)
               for row in range(6)]
        assert layout.slant(raw) == 0.0

    def test_vertical_pages_read_right_to_left_by_column(self):
        raw = [
            RawLine(quad(100, 50, 130, 300), "左の列", 1.0),
            RawLine(quad(300, 50, 330, 300), "右の列", 1.0),
            RawLine(quad(300, 400, 330, 460), "十二", 1.0),  # the page number, lower in the column
            RawLine(quad(200, 50, 230, 300), "中の列", 1.0),
        ]
        lines = layout.page_lines(raw, 1.0)
        assert [line["text"] for line in lines] == ["右の列", "十二", "中の列", "左の列"]
        assert {line["dir"] for line in lines} == {"v"}

    def test_a_single_tall_character_is_not_called_vertical(self):
        [line] = layout.page_lines([RawLine(quad(10, 10, 20, 40), "1", 1.0)], 1.0)
        assert line["dir"] == "h"


class TestPrefetch:
    def test_it_yields_everything_in_order(self):
        assert list(prefetch(iter(range(10)), ahead=2)) == list(range(10))

    def test_an_error_in_the_producer_reaches_the_consumer(self):
        def broken():
            yield 1
            raise ValueError("bad page")

        with pytest.raises(ValueError, match="bad page"):
            list(prefetch(broken()))

    def test_the_producer_stops_when_the_consumer_stops(self):
        produced = []

        def endless():
            while True:
                produced.append(1)
                yield len(produced)

        stream = prefetch(endless(), ahead=2)
        assert next(stream) == 1
        stream.close()
        count = len(produced)
        threading.Event().wait(0.3)
        assert len(produced) == count <= 4
        assert not [t for t in threading.enumerate() if t.name == "prefetch"]


class TestTheStage:
    def test_scanned_pages_are_read_by_the_engine(self, shelve, tmp_path, fake_engine):
        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=3))
        ocr = book.stage_runs.get(stage="ocr")
        assert ocr.summary == "3 pages, 3 read by OCR."
        page = book.pages.get(number=2)
        assert page.source == Page.Source.OCR
        assert page.text == "12\nKnots and hitches"
        assert page.lines[1]["conf"] == 0.95
        # Engine pixels at 150 dpi are 150/72 pixels per point.
        assert page.lines[1]["box"] == pytest.approx([48.0, 48.0, 240.0, 62.4])

    def test_a_page_the_engine_fails_on_is_retried_and_does_not_fail_the_book(
        self, shelve, tmp_path, fake_engine
    ):
        fake_engine.fail_on = {2}
        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=3))
        ocr = book.stage_runs.get(stage="ocr")
        assert ocr.status == "done"
        assert ocr.summary == "3 pages, 3 read by OCR."  # page 2 was read on the second try
        assert fake_engine.calls == 4

    def test_pages_are_read_side_by_side_and_stored_in_order(
        self, shelve, tmp_path, settings, monkeypatch
    ):
        class SlowEngine(FakeEngine):
            side_by_side = True
            running = most = 0
            lock = threading.Lock()

            def read(self, images):
                with SlowEngine.lock:
                    SlowEngine.running += 1
                    SlowEngine.most = max(SlowEngine.most, SlowEngine.running)
                threading.Event().wait(0.2)
                with SlowEngine.lock:
                    SlowEngine.running -= 1
                return [[RawLine(quad(100, 100, 500, 130), f"{len(images)} page", 0.9)]
                        for _ in images]

        monkeypatch.setitem(engines.ENGINES, "slow", SlowEngine)
        settings.LIBRARIAN_OCR_ENGINE = "slow"
        settings.LIBRARIAN_OCR_BATCH_PAGES = 2
        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=5))
        assert book.stage_runs.get(stage="ocr").summary == "5 pages, 5 read by OCR."
        assert list(book.pages.order_by("number").values_list("number", "text")) == [
            (n, "1 page") for n in range(1, 6)]  # one page a call
        assert SlowEngine.most == 2

    def test_a_page_that_keeps_failing_is_recorded(self, shelve, tmp_path, fake_engine):
        fake_engine.fail_on = {2, 4}
        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=3))
        assert book.stage_runs.get(stage="ocr").summary == \
            "3 pages, 2 read by OCR, 1 could not be read."
        failed = book.pages.get(number=2)
        assert (failed.source, failed.error) == ("none", "The OCR engine failed on this page.")

    def test_pages_already_read_are_not_read_again(self, shelve, tmp_path, fake_engine):
        from indexing.models import StageRun
        from indexing.runner import run_pending

        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=3))
        book.pages.filter(number=3).delete()
        StageRun.objects.filter(book=book).update(status="pending")
        fake_engine.calls = 0
        run_pending("w", book_id=book.pk)
        assert fake_engine.calls == 1
        assert book.pages.count() == 3

    def test_a_page_with_neither_text_nor_image_is_blank(self, shelve, tmp_path, fake_engine):
        import pymupdf

        document = pymupdf.open()
        document.new_page()
        document.save(tmp_path / "blank.pdf")
        book = shelve(tmp_path / "blank.pdf")
        assert book.pages.get().source == "blank"
        assert fake_engine.calls == 0


@pytest.mark.slow
class TestTheRealEngine:
    """The embedded default engine (RapidOCR, PP-OCRv6 small), offline, on real renders."""

    def test_it_reads_english_and_japanese_scans(self, shelve, english_pdf, japanese_pdf, tmp_path):
        from books import search

        boats = shelve(scan_of(english_pdf, tmp_path / "boats-scan.pdf"))
        fune = shelve(scan_of(japanese_pdf, tmp_path / "fune-scan.pdf"))
        page = boats.pages.get(number=2)
        assert page.source == "ocr"
        assert "mainsail catches the wind" in page.text
        assert all(0 < line["conf"] <= 1 for line in page.lines)
        assert "もやい結び" in fune.pages.get(number=3).text
        assert [hit.page for hit in search.search("bowline", book_ids=[boats.pk])] == [3]

    def test_a_scan_names_itself_and_says_which_printed_pages_it_lacks(self, shelve, tmp_path):
        """A title page over the contents; printed pages 5–6 were turned together."""
        text = ["Lines are made fast to the bollards fore and aft."] * 14
        heads = {1: "1 Ports", 3: "2 Tides", 5: "3 Moorings", 7: "4 Knots"}
        printed = [1, 2, 3, 4, 7, 8, 9]
        title = [("THE HARBOUR", 30), ("BOOK", 30), "", ("BY", 11), ("MARY OLSEN", 15), "", "",
                 ("CLEVELAND:", 11), ("1883.", 11)]
        contents = [("CONTENTS", 14), ""] + [f"{t} ........ {n}" for n, t in heads.items()]
        pages = [title, contents] + [([(heads[n], 16)] if n in heads else []) + text
                                     for n in printed]
        born = make_book_pdf(tmp_path / "harbour.pdf", pages, folios=[None, None, *printed])
        book = shelve(scan_of(born, tmp_path / "harbour-scan.pdf", dpi=200))
        book.refresh_from_db()
        assert (book.title, book.authors, book.year) == ("The Harbour Book", "Mary Olsen", 1883)
        assert [(a["kind"], a["printed"]) for a in book.anomalies] == [("missing_page", ["5", "6"])]
        moorings = book.headings.get(title="3 Moorings")
        assert (moorings.page, moorings.status) == (None, "unresolved")
        assert book.headings.get(title="4 Knots").page == 7

    def test_it_reads_a_vertical_page_right_to_left(self, shelve, tmp_path):
        columns = ["目次", "第一章 総則", "第二章 権利の取得"]
        source = make_vertical_pdf(tmp_path / "tate.pdf", columns)
        book = shelve(scan_of(source, tmp_path / "tate-scan.pdf"))
        lines = book.pages.get().lines
        assert [line["dir"] for line in lines] == ["v", "v", "v"]
        assert [line["text"] for line in lines] == ["目次", "第一章総則", "第二章権利の取得"]


@pytest.mark.slow
class TestPaddleOcr:
    """The production engine's code path, offline, on model directories built from rapidocr's."""

    def test_it_reads_a_scan_through_the_same_protocol(self, shelve, english_pdf, tmp_path, settings):
        from indexing.ocr import onnx_models

        det_dir, rec_dir = onnx_models.build(tmp_path / "models")
        settings.LIBRARIAN_OCR_ENGINE = "paddleocr"
        settings.LIBRARIAN_PADDLE_DET_MODEL_NAME = onnx_models.DET_MODEL_NAME
        settings.LIBRARIAN_PADDLE_DET_MODEL_DIR = str(det_dir)
        settings.LIBRARIAN_PADDLE_REC_MODEL_NAME = onnx_models.REC_MODEL_NAME
        settings.LIBRARIAN_PADDLE_REC_MODEL_DIR = str(rec_dir)
        settings.LIBRARIAN_OCR_BATCH_PAGES = 2
        book = shelve(scan_of(english_pdf, tmp_path / "boats-scan.pdf"))
        ocr = book.stage_runs.get(stage="ocr")
        assert ocr.summary == "3 pages, 3 read by OCR."
        page = book.pages.get(number=3)
        assert "bowline makes a fixed loop" in page.text
        x0, y0, x1, y1 = page.lines[0]["box"]
        assert 40 < x0 < x1 < 420 and 30 < y0 < y1 < 90  # in points, like every engine

    def test_it_says_what_is_missing(self, shelve, english_pdf, tmp_path, settings):
        settings.LIBRARIAN_OCR_ENGINE = "paddleocr"
        settings.LIBRARIAN_PADDLE_DET_MODEL_DIR = ""
        book = shelve(scan_of(english_pdf, tmp_path / "boats-scan.pdf"))
        ocr = book.stage_runs.get(stage="ocr")
        assert ocr.status == "failed"
        assert ocr.message == (
            "The OCR engine cannot be loaded: PaddleOCR needs LIBRARIAN_PADDLE_DET_MODEL_DIR "
            "and LIBRARIAN_PADDLE_REC_MODEL_DIR."
        )


class TestInt8Models:
    """rapidocr's models quantized here once: made at most once, keyed, and reading the same."""

    def test_they_are_made_once_and_reused(self, tmp_path, monkeypatch):
        from indexing.ocr import quantize

        made = []

        def fake_build(sources, targets):
            made.append(targets)
            for path in targets.values():
                path.write_bytes(b"int8")

        monkeypatch.setattr(quantize, "build", fake_build)
        first = quantize.ensure(tmp_path)
        second = quantize.ensure(tmp_path)
        assert first == second and len(made) == 1
        assert sorted(first) == ["det"]
        assert first["det"].parent.name.startswith("pp-ocrv6-small-int8-")

    def test_a_new_recipe_makes_new_models(self, monkeypatch):
        from indexing.ocr import quantize

        sources = quantize.source_models()
        before = quantize.model_key(sources)
        monkeypatch.setattr(quantize, "RECIPE", quantize.RECIPE + 1)
        assert quantize.model_key(sources) != before

    def test_calibration_pages_are_typeset_here_the_same_every_time(self):
        from indexing.ocr import quantize

        first, again = quantize.calibration_pages(2), quantize.calibration_pages(2)
        assert all((a == b).all() for a, b in zip(first, again))
        inked = [(page < 128).mean() for page in first]  # text covers a book page's share
        assert all(0.01 < share < 0.2 for share in inked)
        assert quantize.det_input(first[0]).shape[2:] == (1248, 864)  # A5 at 150 dpi, to 32s
        english, japanese = quantize.catalogue_texts()
        assert any("password" in text.lower() for text in english)
        assert any("パスワード" in text for text in japanese)

    def test_without_onnx_the_float_models_are_used(self, monkeypatch, caplog):
        from indexing.ocr import quantize

        def unavailable(models_dir):
            raise quantize.QuantizeUnavailable("onnx is not installed")

        monkeypatch.setattr(quantize, "ensure", unavailable)
        assert engines.int8_models(engines.OcrConfig(model_dir="/nowhere")) == {}
        assert "float OCR models" in caplog.text

    @pytest.mark.slow
    def test_int8_reads_what_the_float_models_read(self, english_pdf, japanese_pdf, tmp_path):
        import difflib

        import pymupdf

        from indexing.ocr.render import render
        from tests.conftest import OCR_MODEL_DIR

        def read(precision, pdf):
            config = engines.OcrConfig(precision=precision, model_dir=OCR_MODEL_DIR)
            engine = engines.get_engine(config)
            with pymupdf.open(pdf) as document:
                images = [render(page, 150, 12_000_000)[0] for page in document]
            return "".join(line.text for page in engine.read(images) for line in page)

        scans = (scan_of(english_pdf, tmp_path / "en.pdf"), scan_of(japanese_pdf, tmp_path / "ja.pdf"))
        for pdf in scans:
            int8, fp32 = read("int8", pdf), read("fp32", pdf)
            assert len(fp32) > 40
            assert difflib.SequenceMatcher(None, int8, fp32).ratio() >= 0.97
        # Vertical pages are detected again in float: the int8 detector split their columns.
        tate = make_vertical_pdf(tmp_path / "tate.pdf", ["目次", "第一章 総則", "第二章 権利の取得"])
        tate_scan = scan_of(tate, tmp_path / "tate-scan.pdf")
        assert read("int8", tate_scan) == read("fp32", tate_scan) == "第二章権利の取得第一章総則目次"
