"""RapidOCR with a second recogniser for Latin pages (the choice: indexing.ocr.script).

Only the recognition step differs from ``ScaledOCR``'s (detection at the scale of the
page's type, ``indexing.ocr.scaled``): cropping, the filter on confidence and the result
are rapidocr's own.
"""

from __future__ import annotations

import threading

from rapidocr import RapidOCR
from rapidocr.ch_ppocr_rec import TextRecInput, TextRecOutput

from indexing.ocr import script
from indexing.ocr.scaled import ScaledOCR


class ScriptedOCR(ScaledOCR):
    """RapidOCR whose lines are read by the Latin recogniser (latin_params' Rec.*) on pages
    whose first lines it reads as Latin script, and by the small one elsewhere."""

    def __init__(self, params: dict, latin_params: dict):
        super().__init__(params=params)
        self._latin_params = latin_params
        self._latin_ocr: RapidOCR | None = None
        self._latin_lock = threading.Lock()

    def recognize_txt(self, img):
        small, latin = self._load_rec_model(), self._latin()
        first = script.sample([crop.shape[:2] for crop in img])
        read = _recognise(latin, img, first)
        if not script.is_latin([read[i][0] for i in first]):
            read = _recognise(small, img, range(len(img)))
        else:
            read.update(_recognise(latin, img, [i for i in range(len(img)) if i not in read]))
            order = sorted(read)
            again = [order[j] for j in script.unsure([read[i] for i in order])]
            read.update(_recognise(small, img, again))
        texts, scores = zip(*(read[i] for i in range(len(img))))
        return TextRecOutput(imgs=img, txts=texts, scores=list(scores),
                             word_results=tuple(None for _ in img))

    def _latin(self):
        with self._latin_lock:
            if self._latin_ocr is None:
                self._latin_ocr = RapidOCR(params=self._latin_params)
            return self._latin_ocr._load_rec_model()  # noqa: SLF001 (rapidocr is pinned)


def _recognise(recogniser, img: list, indices) -> dict[int, tuple[str, float]]:
    """Return {index: (text, score)} of the crops at indices read by recogniser."""
    indices = list(indices)
    if not indices:
        return {}
    found = recogniser(TextRecInput(img=[img[i] for i in indices]))
    return {i: (text, float(score)) for i, text, score in
            zip(indices, found.txts, found.scores, strict=True)}
