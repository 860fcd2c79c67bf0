"""How the book page words what the folios show about a scan (books.anomalies, pure)."""

import pytest
from django.utils import translation

from books.anomalies import describe, not_in_scan

MISSING = {"kind": "missing_page", "pages": [370, 371], "printed": ["371", "374"], "count": 4,
           "detail": "printed page(s) 371–374 not in the scan"}
SOME = {**MISSING, "count": 3, "pages": [370, 372]}


@pytest.mark.parametrize(("anomaly", "english", "japanese"), [
    (MISSING, "Printed pages 371–374 are not in the scan.", "印刷ページ 371–374 はスキャンにありません。"),
    ({**MISSING, "printed": ["v"], "count": 1}, "Printed page v is not in the scan.",
     "印刷ページ v はスキャンにありません。"),
    (SOME, "Printed pages 371–374 are not all in the scan: 3 of them are missing.",
     "印刷ページ 371–374 の一部がスキャンにありません（3 ページ分）。"),
    ({**SOME, "count": 1}, "Printed pages 371–374 are not all in the scan: 1 of them is missing.",
     "印刷ページ 371–374 の一部がスキャンにありません（1 ページ分）。"),
    ({"kind": "duplicate_page", "pages": [3, 4, 5, 6], "printed": ["7", "8"]},
     "Printed pages 7–8 are in the scan twice.", "印刷ページ 7–8 がスキャンに二度入っています。"),
    ({"kind": "out_of_order", "pages": [5], "printed": ["90"]},
     "Printed page 90 is out of order in the scan.", "印刷ページ 90 はスキャンの中で順序が乱れています。"),
    ({"kind": "far_from_toc", "pages": [9], "detail": "“Tides” found on page 9"},
     "“Tides” found on page 9", "“Tides” found on page 9"),  # worded elsewhere, for now
])
def test_each_anomaly_of_the_scan_is_one_sentence_in_the_readers_language(anomaly, english,
                                                                          japanese):
    with translation.override("en"):
        assert describe(anomaly) == english
    with translation.override("ja"):
        assert describe(anomaly) == japanese


def test_only_pages_surely_missing_are_not_in_the_scan():
    roman = {"kind": "missing_page", "printed": ["iv", "vi"], "count": 3}
    assert not_in_scan([MISSING, roman]) == {"371", "372", "373", "374", "iv", "v", "vi"}
    assert not_in_scan([SOME, {"kind": "missing_page", "detail": "from an older run"}]) == set()
    assert not_in_scan(None) == set()
