import pymupdf
import pytest

from books.text import detect_languages, excerpt, for_search, query_terms
from books.textlayer import is_usable, lines_from_dict, page_lines


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ＡＢＣ　１２３", "ABC 123"),  # NFKC: full-width letters, digits and space
        ("データ\nベース", "データベース"),  # Japanese wraps inside words
        ("recog-\nnition", "recognition"),
        ("end of line\nnext line", "end of line next line"),
        ("第1章\nSails", "第1章 Sails"),
        ("reefknοt", "reefknot"),  # a Greek omicron OCR put in a Latin word
        ("Рython аnd СSS", "Python and CSS"),  # Cyrillic look-alikes starting words
        ("α = 0.5, Ωmega, ολα", "α = 0.5, Ωmega, ολα"),  # real Greek stays
        ("\u200cinstall-tl\u200c と\u200b\u200d\u2060\ufeffする", "install-tl とする"),
    ],
)
def test_search_text_is_normalised_as_printed(text, expected):
    assert for_search(text) == expected


def test_query_terms_are_distinct_and_normalised():
    assert query_terms('  "Bowline"  ＫＮＯＴ bowline 結び ') == ["Bowline", "KNOT", "結び"]
    assert query_terms("   ") == []


def test_an_excerpt_marks_every_term_around_the_first_match():
    text = "x" * 300 + " the bowline knot and another bowline " + "y" * 300
    segments = excerpt(text, ["bowline"], width=120)
    assert segments[0] == ("…", False) and segments[-1] == ("…", False)
    assert [s for s, matched in segments if matched] == ["bowline", "bowline"]
    assert sum(len(s) for s, _ in segments[1:-1]) == 120


def test_an_excerpt_shows_no_zero_width_characters():
    segments = excerpt("run \u200cinstall-tl\u200c\ufeff now", ["install-tl"])
    assert "".join(s for s, _ in segments) == "run install-tl now"
    assert ("install-tl", True) in segments


def test_an_excerpt_is_case_insensitive_and_keeps_the_page_spelling():
    assert ("Bowline", True) in excerpt("The Bowline.", ["bowline"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The mainsail catches the wind and drives the boat.", ["en"]),
        ("主帆は風を受けて船を前に進める。", ["ja"]),
        ("主帆は風を受けて船を前に進める。 The mainsail catches the wind and the boat.", ["en", "ja"]),
        ("Le grand-voile attrape le vent et pousse le bateau.", ["fr"]),
        ("Der Wind treibt das Boot und die Segel.", ["de"]),
        ("Zxq vbn wpl krt mnb.", []),
        ("12 34 ……", []),
    ],
)
def test_it_detects_languages(text, expected):
    assert detect_languages(text) == expected


def line(text, bbox=(10, 10, 100, 20), direction=(1.0, 0.0), alpha=255, wmode=0):
    return {"bbox": bbox, "dir": direction, "wmode": wmode,
            "spans": [{"text": text, "alpha": alpha}]}


def test_text_layer_lines_keep_text_box_and_direction():
    textdict = {"blocks": [
        {"type": 0, "lines": [line("  Chapter   1 "), line("縦書き", direction=(0.0, 1.0))]},
        {"type": 1},  # an image block
        {"type": 0, "lines": [line("   ")]},
    ]}
    assert lines_from_dict(textdict) == [
        {"text": "Chapter 1", "box": [10, 10, 100, 20], "conf": 1.0, "dir": "h", "visible": True},
        {"text": "縦書き", "box": [10, 10, 100, 20], "conf": 1.0, "dir": "v", "visible": True},
    ]


def test_a_ligature_in_the_text_layer_is_written_out():
    document = pymupdf.open()
    page = document.new_page()
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)  # has ﬁ and ﬂ
    page.insert_text((72, 72), "Notiﬁcations and ﬂags", fontname="F0")
    assert [line["text"] for line in page_lines(page)] == ["Notifications and flags"]


def test_invisible_text_is_marked():
    [only] = lines_from_dict({"blocks": [{"type": 0, "lines": [line("hidden", alpha=0)]}]})
    assert only["visible"] is False


@pytest.mark.parametrize(
    ("texts", "usable"),
    [
        (["The mainsail catches the wind."], True),
        (["主帆は風を受けて船を前に進める。"], True),
        (["12"], True),
        ([], False),
        (["\ufffd\ufffd\ufffd \ufffd\ufffd"], False),  # a broken font encoding
        (["\ue000\ue001\ue002\ue003 ab"], False),  # private-use glyph codes
    ],
)
def test_it_tells_real_text_from_junk(texts, usable):
    assert is_usable([{"text": text} for text in texts]) is usable


def _logo_page(lowered: float = 2.2, raised: float = 2.6, small: float = 8):
    """Return a page that sets "TeX Live" and "LaTeX" as the logos are typeset: T, a lowered
    E, X; L, a small raised A, T, a lowered E, X."""
    document = pymupdf.open()
    page = document.new_page()
    helv = pymupdf.Font("helv")
    x = 72.0
    for char, dy, size in [("T", 0, 11), ("E", lowered, 11), ("X", 0, 11), (" Live", 0, 11),
                           (" L", 0, 11), ("A", -raised, small), ("T", 0, 11), ("E", lowered, 11),
                           ("X", 0, 11)]:
        page.insert_text((x, 100 + dy), char, fontname="helv", fontsize=size)
        x += helv.text_length(char, fontsize=size) - (1.5 if char in "TE" else 0)
    return page


def test_the_tex_logos_read_as_tex_not_capitals():
    assert [line["text"] for line in page_lines(_logo_page())] == ["TeX Live LaTeX"]


def test_capitals_on_one_baseline_stay_capitals():
    flat = _logo_page(lowered=0, raised=0, small=11)
    assert [line["text"] for line in page_lines(flat)] == ["TEX Live LATEX"]
