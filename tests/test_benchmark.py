"""The benchmark's own measures must be right, or its figures mean nothing."""

from types import SimpleNamespace

from bench.contents import score_toc
from bench.ocr import char_errors, measure_ocr, ordered_text, squeeze, trailing_numbers


def line(text, x0=0, y0=0, x1=100, y1=10):
    return {"text": text, "box": [x0, y0, x1, y1], "dir": "h"}


def test_squeeze_drops_white_space_and_leader_dots_after_nfkc():
    assert squeeze("１.２  Ｓａｉｌｓ ........ 12") == "1.2Sails12"
    assert squeeze("帆・・・・・3") == "帆3"


def test_character_errors_count_edits_against_the_reference_length():
    assert char_errors("mainsail", "mainsai1") == (1, 8)
    assert char_errors("主帆", "主帆") == (0, 2)


def test_text_is_compared_in_one_reading_order():
    truth = [line("right", 200, 0, 300, 10), line("left", 0, 0, 100, 10)]
    assert ordered_text(truth) == "leftright"


def test_trailing_numbers_are_counted_like_toc_page_numbers():
    counted = trailing_numbers([line("1.1 Sails ..... 12"), line("Preface xi"), line("Index"),
                                line("2 Knots……15"), line("Version2"),
                                line("3", 0, 0, 10, 10)])  # a section number on its own
    assert counted == {"12": 1, "xi": 1, "15": 1}


def test_ocr_measures_folios_and_toc_numbers_against_the_born_text():
    gt = {"page_labels": ["i", "1"], "toc_pages": [1],
          "outline": [{"printed_page": "1", "in_printed_toc": True},
                      {"printed_page": "7", "in_printed_toc": False}]}
    born = {1: [line("Contents"), line("Sails ..... 1", y0=20, y1=30), line("i", y0=90, y1=99)],
            2: [line("1", y0=0, y1=9), line("The mainsail", y0=20, y1=30)]}
    read = {1: [line("Contents"), line("Sails ..... 7", y0=20, y1=30), line("i", y0=90, y1=99)],
            2: [line("The mainsail", y0=20, y1=30)]}
    measured = measure_ocr(read, born, gt)
    assert (measured["folios_read"], measured["folios"]) == (1, 2)
    assert (measured["toc_numbers_read"], measured["toc_numbers"]) == (0, 1)  # "7" misread
    assert (measured["toc_digits_read"], measured["toc_digits"]) == (0, 1)  # wherever it stands
    # "ContentsSails1i" + "1Themainsail": 27 characters; "7" for "1" and the lost folio "1".
    assert (measured["char_errors"], measured["chars"]) == (2, 27)


def test_toc_scores_count_matches_levels_and_placements():
    gt = {
        "outline": [
            {"level": 1, "title": "Sails", "toc_text": "1 Sails", "page": 5, "in_printed_toc": True},
            {"level": 2, "title": "Jibs", "toc_text": "1.1 Jibs", "page": 6, "in_printed_toc": True},
            {"level": 1, "title": "Knots", "toc_text": "2 Knots", "page": 9, "in_printed_toc": True},
            {"level": 1, "title": "A", "toc_text": "", "page": 12, "in_printed_toc": False},
        ],
        "page_labels": ["i", "1", "2"],
        "toc_pages": [2],
    }
    found = [SimpleNamespace(title="1 Sails", level=1, page=5),
             SimpleNamespace(title="1.1 Jibs", level=1, page=8),
             SimpleNamespace(title="Knots", level=1, page=None),
             SimpleNamespace(title="Colophon", level=1, page=20)]
    scores = score_toc(found, {1: "i", 2: "1", 3: "9"}, [2], gt)
    assert scores == {"truth": 3, "found": 4, "matched": 3, "level_right": 2, "exact": 1,
                      "near": 1, "wrong": 1, "unresolved": 1, "labels_right": 2, "labels": 3,
                      "toc_pages_right": 1}


def test_toc_digits_are_whole_numbers_wherever_they_stand():
    from bench.ocr import numbers

    counted = numbers([line("Introduction.......5"), line("8.1.1 Block paragraph 127, 8.1.2 Lists 128"),
                       line("3.2 Sails ..12"), line("１２")])
    assert counted == {"5": 1, "127": 1, "128": 1, "12": 2}


def test_books_with_parts_are_told_by_their_truth():
    from bench.variants import has_parts

    def gt(*titles):
        return {"outline": [{"level": 1, "title": t, "toc_text": t, "in_printed_toc": True}
                            for t in titles]}

    assert has_parts(gt("1 Introduction", "I Getting Started", "II Building", "A Index"))
    assert has_parts(gt("第I部 ユーザーズマニュアル", "第II部 リファレンス"))
    assert not has_parts(gt("1 Introduction", "2 Sails", "Index"))


def test_variants_find_their_scans_and_truth(tmp_path):
    from bench.variants import cases

    truth, bench = tmp_path / "truth", tmp_path / "bench"
    (truth / "gt").mkdir(parents=True)
    (truth / "gt" / "boats.gt.json").write_text('{"outline": []}')
    (bench / "scans" / "hard").mkdir(parents=True)
    (bench / "scans" / "hard" / "boats-spreads.pdf").write_bytes(b"%PDF")
    [case] = cases("spreads", [], bench, truth)
    assert case.book_id == "boats-spreads" and case.born is None
    assert case.truth == bench / "scans" / "hard" / "boats-spreads.gt.json"
    [ordinary] = cases("ordinary", ["boats"], bench, truth)
    assert ordinary.scan == bench / "scans" / "dev" / "boats.pdf"
    assert cases("parts", [], bench, truth) == []


def test_the_vertical_book_is_made_from_real_japanese_text():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_vertical_book.py"
    spec = importlib.util.spec_from_file_location("make_vertical_book", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sentences, titles = module.sentences_and_titles(module.catalogue())
    entries = module.outline(titles, 0)
    assert len(entries) == 91 and len({title for _, _, title in entries}) == 91
    assert [level for level, _, _ in entries[:5]] == [1, 2, 3, 3, 3]
    assert entries[0][1] == "第一章" and entries[1][1] == "第一節" and entries[2][1] == "一"
    assert sum(map(len, sentences)) > 5000
    assert all(s.endswith(("。", "？", "！")) for s in sentences)
    assert module.kanji_digits(102) == "一〇二" and module.kanji_count(12) == "十二"
    assert "\\kansuji" in module.tex(entries[:4], sentences, "kanji", "題")
