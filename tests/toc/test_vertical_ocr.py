"""A vertical TOC page as the OCR engine really read it (typeset by indexing.bench_vertical).

Kanji page numbers come back as separate boxes at the foot of their column;
some are lost ("一", "三") and one is misread ("十二" as "+二1").
"""

from toc import recover

OCR_LINES = [
    ([381.6, 35.0, 401.3, 70.1], '目次'),
    ([353.8, 36.0, 373.9, 131.5], '第一章総則'),
    ([327.4, 36.0, 346.6, 132.0], '第一節目的'),
    ([300.0, 36.0, 319.2, 138.2], '第二節定義·'),
    ([300.5, 513.6, 318.2, 546.7], '+二1'),
    ([273.1, 36.5, 291.4, 176.2], '第二章権利の取得'),
    ([272.2, 489.1, 292.8, 548.2], '·二十五'),
    ([244.8, 36.0, 264.5, 138.2], '第一節申請·'),
    ([244.3, 497.3, 265.0, 548.6], '二十八'),
    ([217.9, 36.0, 237.1, 130.6], '第三章雑則'),
    ([218.9, 511.7, 236.2, 547.2], '百三'),
    ([190.6, 35.5, 210.2, 73.0], '附則'),
    ([190.1, 508.8, 211.2, 549.1], '百十'),
]


def book():
    lines = [{"text": text, "box": list(box), "conf": 0.9, "dir": "v"} for box, text in OCR_LINES]
    toc = {"number": 1, "width": 420, "height": 595, "lines": lines}
    body = [{"number": n, "width": 420, "height": 595, "lines": []} for n in range(2, 120)]
    return [toc] + body


def test_the_vertical_contents_page_is_found_under_its_heading():
    result = recover(book())
    assert result.toc_pages == [1]
    assert not result.inferred


def test_levels_come_from_the_numbering_and_kanji_pages_are_parsed():
    entries = recover(book()).entries
    assert [entry.level for entry in entries] == [1, 2, 2, 1, 2, 1, 1]
    assert [entry.printed_page for entry in entries][3:] == ["25", "28", "103", "110"]
    assert entries[0].printed_page is None  # its "一" was never read


def test_headings_absent_from_the_body_are_not_placed():
    assert all(entry.page is None and entry.status == "unresolved"
               for entry in recover(book()).entries)

