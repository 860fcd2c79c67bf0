"""Quotes are whole sentences of body text (issue 51, item 4): never cut inside a page
reference, never a running head."""

from types import SimpleNamespace

import pytest

from retrieval.answer import quotes
from retrieval.index import shown
from retrieval.text import sentences
from retrieval.index.chunks import Chunk


def question(*terms):
    return SimpleNamespace(text=" ".join(terms), vectors={}, terms=list(terms), translated={})


@pytest.mark.parametrize("text, first", [
    ("The default style (see gnuplot-defined variables (p. 55)) is lines. Then plot.",
     "The default style (see gnuplot-defined variables (p. 55)) is lines."),
    ("Set it with set style (p. 129) first. Then plot.", "Set it with set style (p. 129) first."),
    ("See e.g. Fig. 3 for the lines. Then plot.", "See e.g. Fig. 3 for the lines."),
    ("詳しくは（p. 129）を参照してください。次に描きます。", "詳しくは（p. 129）を参照してください。"),
    ("One sentence. Two sentences.", "One sentence."),
])
def test_a_sentence_runs_on_past_an_abbreviation_and_inside_brackets(text, first):
    assert sentences.split(text)[0][1] == first


def test_a_long_sentence_is_cut_before_a_bracket_the_cut_would_leave_open():
    sentence = "word " * 48 + "see the gnuplot-defined variables (p. 55) for the other styles."
    cut = quotes._shortened(sentence)
    assert cut.endswith("…") and "(p." not in cut and cut.count("(") == cut.count(")")


def test_a_quote_stops_at_a_whole_sentence_with_its_page_reference():
    text = ("2.4 Styles The points style draws a symbol at each point (see point types (p. 55)). "
            "Other styles follow.")
    chunk = Chunk(key=0, title="2.4 Styles", breadcrumb=["2.4 Styles"], page_start=3,
                  page_end=3, text=text, heading_id=1)
    index = SimpleNamespace(rows={}, furniture={})
    found = quotes.quote(chunk, index, question("point", "symbol"))
    assert found.text == "The points style draws a symbol at each point (see point types (p. 55))."


def test_a_running_head_ocr_read_after_the_pages_first_line_is_never_quoted(monkeypatch):
    # Page 41 runs on from page 40; OCR read its first body line before its running head.
    text = ("3.3 数式の書き方 平方根は\\sqrt で書きます.根号の中に項を書けます. 太字のベクトル "
            "第3 章数式の組版 41 は\\boldsymbol で書きます.")
    chunk = Chunk(key=0, title="3.3 数式の書き方", breadcrumb=["3.3 数式の書き方"], page_start=40,
                  page_end=41, text=text, heading_id=1,
                  starts=[[40, 0], [41, text.index("太字の")]])
    furniture = {41: ["41", "第3 章数式の組版"]}
    monkeypatch.setattr(quotes, "_weights", lambda q: {"太字": 1.0, "ベクトル": 1.0, "組版": 2.0})
    found = quotes.quote(chunk, SimpleNamespace(rows={}, furniture=furniture), question("組版"))
    assert "章" not in found.text and "組版" not in found.text
    excerpt = quotes.excerpt(chunk, found, furniture=furniture)
    assert "組版" not in excerpt and "太字のベクトルは\\boldsymbol" in excerpt


def test_the_same_words_far_from_the_pages_edges_are_the_texts_own():
    body = "x" * 200
    text = f"4 Styles {body} The chapter Plotting styles lists them all. {body}"
    chunk = Chunk(key=0, title="4 Styles", breadcrumb=["4 Styles"], page_start=5, page_end=6,
                  text=text, heading_id=1, starts=[[5, 0], [6, 9]])
    seen = shown.text(chunk, {6: ["Plotting styles"]})
    assert "Plotting styles lists" in seen and len(seen) == len(text)


def test_a_section_that_goes_straight_into_its_subsections_has_nothing_to_read():
    def section(text):
        return Chunk(key=0, title="15 Plotting", breadcrumb=["15 Plotting"], page_start=331,
                     page_end=331, text=text, heading_id=1)
    assert not shown.readable(section("15 Plotting"))
    assert not shown.readable(section("15 Plotting gnuplot 5.4 315"), {331: ["gnuplot 5.4 315"]})
    assert shown.readable(section("15 Plotting Octave draws plots with gnuplot or Qt."))
