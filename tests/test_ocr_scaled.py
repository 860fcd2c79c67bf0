"""Detection at the scale the page's type needs: large type is detected scaled down, small
type at rapidocr's cap, and the lines come back where they stand on the page as given."""

import numpy as np
import pymupdf
import pytest

from indexing.ocr import scaled

WORDS = ("the anchor was weighed at dawn and the crew hauled the sails up before the tide "
         "turned against the harbour wall").split()


def page_image(fontsize: float, dpi: int, lines: int = 30) -> np.ndarray:
    """Return a page of running text set at fontsize points, rendered at dpi (RGB)."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=620)
    for row in range(lines):
        words = WORDS[row % 5:] + WORDS[:row % 5]
        page.insert_text((30, 40 + row * fontsize * 1.35), " ".join(words)[:int(620 / fontsize)],
                         fontsize=fontsize)
    pixmap = page.get_pixmap(dpi=dpi)
    document.close()
    return np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width, 3).copy()


def test_the_letters_height_grows_with_the_scan_and_a_blank_page_tells_none():
    low, high = scaled.letter_height(page_image(11, 100)), scaled.letter_height(page_image(11, 200))
    assert 5 <= low <= 12 and high == pytest.approx(2 * low, rel=0.25)
    assert scaled.letter_height(np.full((800, 600, 3), 255, np.uint8)) is None
    assert scaled.letter_height(page_image(11, 150, lines=1)) is None  # too few letters


def test_large_type_is_detected_scaled_to_its_letters_and_small_type_at_the_cap():
    large = page_image(14, 200)  # letters about 20 pixels high, the page 1,722 on its long side
    factor = scaled.detection_factor(large, 1600)
    assert factor is not None and factor < 1600 / max(large.shape[:2])
    assert scaled.letter_height(large) * factor == pytest.approx(scaled.LETTER_PIXELS, rel=0.05)
    assert scaled.detection_factor(page_image(8, 150), 1600) is None  # the manuals' size
    assert scaled.detection_factor(np.full((800, 600, 3), 255, np.uint8), 1600) is None


@pytest.mark.slow
def test_lines_found_scaled_stand_where_they_stand_found_whole(monkeypatch):
    from indexing.ocr import engines
    from tests.conftest import OCR_MODEL_DIR

    engine = engines.get_engine(engines.OcrConfig(model_dir=OCR_MODEL_DIR, threads=1))
    image = page_image(14, 200, lines=12)
    assert scaled.detection_factor(image, 1600) is not None
    found = engine.read([image])[0]
    monkeypatch.setattr(scaled, "detection_factor", lambda *_: None)
    whole = engine.read([image])[0]
    assert len(found) == len(whole) == 12
    for line, other in zip(sorted(found, key=lambda l: l.quad[0][1]),
                           sorted(whole, key=lambda l: l.quad[0][1]), strict=True):
        assert line.text == other.text
        assert np.abs(np.array(line.quad) - np.array(other.quad)).max() < 8  # pixels of 1,722
