"""Highlights mark the question's words as words, the asked term first, and a translation
only where it is the term (issue 51, item 5)."""

from types import SimpleNamespace

import pytest

from books import highlight
from retrieval.answer import present, quotes


def marked(text, terms):
    folded, _ = highlight.fold(text)
    return [folded[a:b] for a, b in highlight.word_spans(text, terms)]


@pytest.mark.parametrize("text, terms, found", [
    ("Use splot or multiplot, not plot (x).", ["plot"], ["plot"]),
    ("desolve can solve it", ["solve"], ["solve"]),
    ("日本語は言語の一つ。言語を選ぶ。", ["語"], []),
    ("言語を選ぶ。", ["言語"], ["言語"]),
    ("LaTeXの文書をインストールする", ["latex", "インストール"], ["latex", "インストール"]),
    ("set linewidth 2", ["line"], []),
    ("2 Oarlocks", ["oarlock"], ["oarlocks"]),  # a form of the word, as the search finds it
    ("Plotting styles", ["plot"], ["plotting"]),
    ("a solvent", ["solve"], []),
    ("multiplots", ["plot"], []),
])
def test_a_word_is_marked_only_where_it_stands_as_a_word(text, terms, found):
    assert marked(text, terms) == found


def test_a_cards_excerpt_marks_words_not_parts_of_words():
    assert highlight.segments("splot and plot", ["plot"]) == [
        ("splot and ", False), ("plot", True)]


def test_a_page_marks_words_not_parts_of_words():
    lines = [{"text": "Use multiplot to plot"}, {"text": "日本語の言語"}]
    marks = highlight.word_marks(lines, ["plot", "語"])
    assert [(m.line, lines[m.line]["text"][m.start:m.end]) for m in marks] == [(0, "plot")]


@pytest.mark.parametrize("text, terms, words", [
    ("Use multiplot, then plot it.", ["plot"], ["plot"]),
    ("set linewidth 2 for the line width", ["line", "width"], ["linewidth", "line", "width"]),
    ("開発者が開発する", ["開発"], ["開発"]),
    ("開発者が書く", ["開発"], []),
])
def test_a_card_names_whole_words_and_a_word_written_from_two_asked_ones(text, terms, words):
    assert quotes.marks(text, terms) == words


def test_a_word_written_from_two_of_the_questions_words_is_marked_though_one_is_everyday():
    # "line" is an everyday word, not marked alone; "linewidth" is the term asked for
    assert quotes.marks("set linewidth 2; the line is wider", ["width"],
                        asked=["line", "width"]) == ["linewidth"]


def test_a_translation_is_marked_only_where_it_is_the_asked_term(monkeypatch):
    # 「グラフの凡例を移動するには？」 about an English book: legend and graph, not move or use.
    held = {"凡例": 1, "グラフ": 5, "移動": 30, "使う": 200}
    monkeypatch.setattr(present.lexical, "get",
                        lambda: SimpleNamespace(doc_freq=lambda term: held.get(term, 0)))
    question = SimpleNamespace(
        terms=["グラフ", "凡例", "移動", "使う"], suggested={},
        translated={"graph": 1.0, "legend": 0.5, "move": 0.5, "movement": 0.5, "use": 0.5,
                    "take": 0.05})
    terms = present.marked_terms(question)
    assert terms[:2] == ["凡例", "legend"]
    assert "graph" in terms and not {"move", "use", "take"} & set(terms)


def test_the_questions_everyday_words_are_not_marked_beside_its_telling_ones(monkeypatch):
    monkeypatch.setattr(present.lexical, "get",
                        lambda: SimpleNamespace(doc_freq=lambda term: 10))
    question = SimpleNamespace(terms=["use", "multiplot", "plot", "one", "page"], suggested={},
                               translated={})
    assert set(present.marked_terms(question)) == {"multiplot", "plot"}
    only_everyday = SimpleNamespace(terms=["use", "page"], suggested={}, translated={})
    assert set(present.marked_terms(only_everyday)) == {"use", "page"}
