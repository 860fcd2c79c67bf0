"""A fake OCR engine and page lines for the tests of the second readings (indexing.ocr)."""

from indexing.ocr.layout import RawLine


def quad(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def line(text, box, direction="h"):
    return {"text": text, "box": list(box), "conf": 0.9, "dir": direction}


class CropReader:
    """Reads each crop it is given as the lines it is told to: (text, box in pixels of the
    enlarged crop); records the shape of every crop."""

    def __init__(self, found):
        self.found, self.seen = found, []

    def read(self, images):
        self.seen.extend(image.shape for image in images)
        return [[RawLine(quad(*box), text, 0.95) for text, box in self.found] for _ in images]
