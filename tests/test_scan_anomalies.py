"""How a book page words what the folios show about a scan, and which printed pages it lacks."""

import pytest
from django.utils import translation

from books.anomalies import not_in_scan
from indexing.notes import anomaly_text
from indexing.stages.contents import stored
from toc.sequence import _said

MISSING = stored(_said("missing_page", [370, 371], "scan_missing", ("371", "374"), 4))
SOME = stored(_said("missing_page", [370, 372], "scan_missing_some", ("371", "374"), 3))


@pytest.mark.parametrize(("anomaly", "english", "japanese"), [
    (MISSING, "printed pages 371–374 are not in the scan", "印刷ページ 371–374 はスキャンにありません"),
    (stored(_said("missing_page", [4, 5], "scan_missing", ("v",), 1)),
     "printed page v is not in the scan", "印刷ページ v はスキャンにありません"),
    (SOME, "printed pages 371–374 are not all in the scan: 3 of them missing",
     "印刷ページ 371–374 の一部がスキャンにありません（3 ページ分）"),
    (stored(_said("missing_page", [370, 372], "scan_missing_some", ("371", "374"), 1)),
     "printed pages 371–374 are not all in the scan: 1 of them missing",
     "印刷ページ 371–374 の一部がスキャンにありません（1 ページ分）"),
    (stored(_said("duplicate_page", [3, 4, 5, 6], "scan_twice", ("7", "8"))),
     "printed pages 7–8 are in the scan twice", "印刷ページ 7–8 がスキャンに二度入っています"),
    (stored(_said("out_of_order", [5], "scan_out_of_order", ("90",))),
     "printed page 90 is out of order in the scan", "印刷ページ 90 はスキャンの中で順序が乱れています"),
])
def test_each_anomaly_of_the_scan_is_worded_in_the_readers_language(anomaly, english, japanese):
    with translation.override("en"):
        assert anomaly_text(anomaly)[1] == english
    with translation.override("ja"):
        assert anomaly_text(anomaly)[1] == japanese


def test_only_pages_surely_missing_are_not_in_the_scan():
    roman = {"kind": "missing_page", "printed": ["iv", "vi"], "count": 3}
    assert not_in_scan([MISSING, roman]) == {"371", "372", "373", "374", "iv", "v", "vi"}
    assert not_in_scan([SOME, {"kind": "missing_page", "detail": "from an older run"}]) == set()
    assert not_in_scan(None) == set()
