"""Latin pages read by the Latin recogniser: the choice by script, the model copied out of its
package once, and the text read as well as by the small recogniser."""

import hashlib
import json

import numpy as np
import pytest

from indexing.ocr import engines, latin, script
from tests.pdfs import make_vertical_pdf, scan_of


@pytest.mark.parametrize("texts, expected", [
    (["CHAPTER IV", "Reid's movement from New Machar"], True),
    (["Café, naïve façade and rôle of the œuvre"], True),
    (["第一章 総則", "この法律は、権利の取得について定める。"], False),
    (["LaTeX の使い方", "パッケージを読み込む"], False),
    (["12", "iv"], False),  # too few letters to tell: the small recogniser reads the page
    (["The anchor was weighed at dawn", "帆"], True),  # one stray character among many
])
def test_a_page_is_latin_when_nearly_all_its_first_letters_are(texts, expected):
    assert script.is_latin(texts) is expected


def test_the_sample_is_the_first_lines_of_text_not_folios_or_marks():
    shapes = [(40, 60), (40, 900), (30, 30), (40, 800), (40, 700), (40, 820), (40, 640)]
    assert script.sample(shapes) == [1, 3, 4, 5]
    assert script.sample([(40, 60), (40, 900)]) == [0, 1]


def test_only_unsure_latin_lines_and_those_beyond_ascii_are_read_again():
    read = [("Sails", 0.99), ("Knots", 0.42), ("Cròss referencing", 0.97), ("Hitches", 0.89),
            ("12, 14-16; see also", 0.95)]
    assert script.unsure(read) == [1, 2, 3]


class FakeRecogniser:
    """Reads each crop (an array holding one number) as the text it was given for it."""

    def __init__(self, texts: dict[int, tuple[str, float]]):
        self.texts, self.seen = texts, []

    def __call__(self, rec_input):
        keys = [int(crop[0, 0, 0]) for crop in rec_input.img]
        self.seen += keys
        found = [self.texts[key] for key in keys]
        return type("Out", (), {"txts": tuple(t for t, _ in found),
                                "scores": [s for _, s in found]})()


def scripted(small, fast):
    from indexing.ocr.scripted import ScriptedOCR

    ocr = ScriptedOCR.__new__(ScriptedOCR)  # no models: both recognisers are faked
    ocr._load_rec_model = lambda: small
    ocr._latin = lambda: fast
    return ocr


def crops(count: int) -> list:
    return [np.full((40, 800, 3), n, dtype=np.uint8) for n in range(count)]


def test_a_latin_page_goes_to_the_latin_model_and_its_unsure_lines_back():
    english = {n: (f"The line number {n} of the page", 0.97) for n in range(7)}
    small = FakeRecogniser({**english, 5: ("設定は次の通り", 0.98)})
    fast = FakeRecogniser({**english, 5: ("iRRU", 0.41)})
    result = scripted(small, fast).recognize_txt(crops(7))
    assert fast.seen == [0, 1, 2, 3, 4, 5, 6] and small.seen == [5]
    assert result.txts[5] == "設定は次の通り" and result.txts[6] == english[6][0]
    assert len(result.scores) == len(result.word_results) == 7


def test_a_japanese_page_is_read_by_the_small_model_once_its_first_lines_are_not_latin():
    small = FakeRecogniser({n: ("第一章 総則の規定について", 0.97) for n in range(6)})
    fast = FakeRecogniser({n: ("第一章 総則的规定", 0.52) for n in range(6)})  # no kana
    result = scripted(small, fast).recognize_txt(crops(6))
    assert fast.seen == [0, 1, 2, 3] and sorted(small.seen) == list(range(6))
    assert set(result.txts) == {"第一章 総則の規定について"}


def package(tmp_path, monkeypatch, model: bytes, characters: list[str]) -> bytes:
    """Fake the package's native module: the model, then the dictionary, at known places."""
    dictionary = json.dumps(characters, ensure_ascii=False).encode()
    data = b"\0" * 16 + model + dictionary + b"\0" * 8
    blob = lambda offset, part: latin.Blob(offset, len(part), hashlib.sha256(part).hexdigest())
    monkeypatch.setattr(latin, "MODEL", blob(16, model))
    monkeypatch.setattr(latin, "DICTIONARY", blob(16 + len(model), dictionary))
    return data


def test_the_latin_model_is_copied_out_once_with_its_dictionary(tmp_path, monkeypatch):
    data = package(tmp_path, monkeypatch, b"onnx model", ["a", "b", "\u3000"])
    reads = []
    monkeypatch.setattr(latin, "_module_bytes", lambda: reads.append(1) or data)
    model, dictionary = latin.ensure(tmp_path)
    assert model.read_bytes() == b"onnx model"
    assert dictionary.read_text(encoding="utf-8") == "a\nb\n\u3000\n"
    assert latin.ensure(tmp_path) == (model, dictionary) and len(reads) == 1


def test_another_build_of_the_package_is_not_cut_blindly(tmp_path, monkeypatch, caplog):
    data = package(tmp_path, monkeypatch, b"onnx model", ["a"])
    monkeypatch.setattr(latin, "_module_bytes", lambda: data.replace(b"onnx", b"ONNX"))
    with pytest.raises(latin.LatinUnavailable, match="does not hold the expected model"):
        latin.ensure(tmp_path)
    assert engines.latin_model(engines.OcrConfig(model_dir=str(tmp_path))) == {}
    assert "small OCR model" in caplog.text


@pytest.mark.slow
def test_latin_pages_read_as_the_small_model_reads_them_and_others_unchanged(
        english_pdf, japanese_pdf, tmp_path):
    import difflib

    import pymupdf

    from indexing.ocr.render import render
    from tests.conftest import OCR_MODEL_DIR

    def read(on, pdf):
        engine = engines.get_engine(engines.OcrConfig(latin=on, model_dir=OCR_MODEL_DIR))
        with pymupdf.open(pdf) as document:
            images = [render(page, 150, 12_000_000)[0] for page in document]
        return "".join(line.text for page in engine.read(images) for line in page)

    english = scan_of(english_pdf, tmp_path / "en.pdf")
    fast, small = read(True, english), read(False, english)
    assert len(small) > 40 and difflib.SequenceMatcher(None, fast, small).ratio() >= 0.97
    tate = scan_of(make_vertical_pdf(tmp_path / "tate.pdf", ["目次", "第一章 総則"]),
                   tmp_path / "tate-scan.pdf")
    for pdf in (scan_of(japanese_pdf, tmp_path / "ja.pdf"), tate):
        assert read(True, pdf) == read(False, pdf)


@pytest.mark.django_db
def test_prepare_ocr_copies_the_latin_model_or_says_how_to_do_without(settings, tmp_path,
                                                                     monkeypatch):
    from io import StringIO

    from django.core.management import CommandError, call_command

    settings.LIBRARIAN_OCR_MODEL_DIR = str(tmp_path)
    settings.LIBRARIAN_OCR_PRECISION = "fp32"  # no quantizing here
    monkeypatch.setattr(latin, "ensure", lambda folder: (folder / "tiny" / "rec.onnx", None))
    out = StringIO()
    call_command("prepare_ocr", stdout=out)
    assert f"Latin pages read by {tmp_path / 'tiny'}" in out.getvalue()

    def missing(folder):
        raise latin.LatinUnavailable("faster-paddle is not installed")

    monkeypatch.setattr(latin, "ensure", missing)
    with pytest.raises(CommandError, match="not installed .or set LIBRARIAN_OCR_LATIN=off"):
        call_command("prepare_ocr", stdout=StringIO())
    settings.LIBRARIAN_OCR_LATIN = "off"
    call_command("prepare_ocr", stdout=StringIO())
