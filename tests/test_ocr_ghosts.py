"""The page behind seen through the paper is taken off the scan before it is read
(indexing.ocr.ghosts); a page's own ink, however faded or grey, is not."""

import numpy as np
import pymupdf

from indexing.ocr import ghosts

WORDS = "the anchor was weighed at dawn and the crew hauled the sails up before the tide".split()


def page(grey=0.0, seed=0) -> np.ndarray:
    """Return a page of text (RGB) set in ink of the given grey (0 black, 1 white)."""
    document = pymupdf.open()
    sheet = document.new_page(width=400, height=560)
    for row in range(24):
        words = WORDS[(row + seed) % 7:] + WORDS[:(row + seed) % 7]
        sheet.insert_text((30, 40 + row * 20), " ".join(words)[:60], fontsize=12,
                          color=(grey, grey, grey))
    pixmap = sheet.get_pixmap(dpi=150)
    document.close()
    return np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width, 3).copy()


def seen_through(front: np.ndarray, back: np.ndarray, darkness: float = 0.22) -> np.ndarray:
    ghost = 255 - darkness * (255 - back[:, ::-1].astype(np.float32))  # mirrored, faint
    return np.minimum(front.astype(np.float32), ghost).astype(np.uint8)


def test_the_text_of_the_page_behind_is_painted_over_and_the_page_s_own_kept():
    """The lines behind fall between the page's own (a ghost that touches a letter of the
    page is one mark with it, and stays)."""
    front, back = page(), np.roll(page(seed=3), 21, axis=0)  # half a line lower
    scanned = seen_through(front, back)
    cleaned = ghosts.without(scanned)
    own, paper = front < 128, (front == 255).all(axis=2)
    assert (cleaned[own] == scanned[own]).all()  # the page's own letters are untouched
    assert (scanned[paper] < ghosts.INK).mean() > 0.05  # there was a ghost to take off
    assert (cleaned[paper] < ghosts.INK).mean() < 0.01  # and it is paper now, but its faintest
    # edge and where it touches a letter of the page's own


def test_a_page_without_a_ghost_a_faded_one_and_a_grey_one_are_left_as_they_are():
    for image in (page(), page(grey=0.55), (110 + page() * (80 / 255)).astype(np.uint8)):
        assert ghosts.without(image) is image
