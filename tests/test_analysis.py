"""How questions and sections are read: words, the books a question names, the units asked for."""

import pytest

from retrieval.question import query
from retrieval.text import analysis
from retrieval.question import naming as books


@pytest.mark.parametrize("text,expected", [
    # particles, light verbs and the words that frame a question go; base forms stay
    ("LuaTeX-jaで縦書きにするには？", ["luatex-ja", "luatex", "ja", "縦書き"]),
    ("もう面倒を見られなくなったパッケージを手放したい。", ["面倒", "パッケージ", "手放す"]),
    ("How do I change the line width of a plot?", ["chang", "line", "width", "plot"]),
    ("Which book should I read first about typesetting poems?", ["typeset", "poem"]),
    # compounds written with inner punctuation are terms of their own, and so are the
    # characters technical books are asked about
    ("make my slides 16:9", ["make", "slide", "16:9", "16"]),
    ("% や $ をそのまま出力", ["%", "$", "そのまま", "出力"]),
    # a TeX command asks for itself, not for its word ("input" is in every I/O section)
    (r"What is the difference between \input and \include?", ["differ", r"\input", r"\include"]),
    # a compound particle is no verb: について is に, つい (つく, to stick) and て to Sudachi
    ("インストールについて", ["インストール"]),
    ("Debian に関する章", ["debian"]),
])
def test_questions_keep_the_words_that_say_what_they_are_about(text, expected):
    assert analysis.question_terms(text) == expected


@pytest.mark.parametrize("a,b", [
    ("コンピュータ", "コンピューター"),  # long vowel
    ("行なう", "行う"),  # okurigana
    ("メンテナー", "メンテナ"),  # katakana stem, as Lucene's
    ("ﾊﾟｯｹｰｼﾞ", "パッケージ"),  # half-width
    ("Uncovering", "uncovered"),
    ("tables", "table"),
])
def test_spelling_variants_meet(a, b):
    assert analysis.terms(a) == analysis.terms(b)


@pytest.mark.parametrize("text,expected", [
    ("Debian 向けの修正", ["debian", "修正"]),  # as in パッケージ向けの修正: 向け is a suffix
    ("LaTeX 用の設定", ["latex", "設定"]),
    ("パッケージ向けの修正", ["パッケージ", "修正"]),
])
def test_a_suffix_after_a_name_in_latin_script_is_no_term(text, expected):
    assert analysis.terms(text) == expected


def test_what_follows_a_name_or_a_number_keeps_its_words():
    assert analysis.terms("X線の話") == ["線", "話"]  # the name and the run make one word
    assert {"公開鍵", "公開", "鍵"} <= set(analysis.terms("3.2.2 公開鍵をメンテナンスする"))


def test_a_section_holds_a_tex_command_and_its_word():
    assert analysis.terms(r"Use \include{chapter1} here.") == [
        "use", r"\include", "\\", "includ", "{", "chapter1", "}"]


@pytest.mark.parametrize("text,parts", [
    ("set style line 1 linewidth 2", {"line", "width"}),
    ("set logscale y", {"log", "scale"}),
    (r"\baselineskip", {"baselin", "skip"}),
])
def test_a_rare_word_written_from_two_common_ones_also_gives_them(text, parts):
    # A reader asks for the "line width"; gnuplot writes linewidth.
    assert parts <= set(analysis.terms(text))


@pytest.mark.parametrize("word", ["together", "lintian", "varargin", "dbstop", "nowhere"])
def test_a_word_of_its_own_is_not_cut(word):
    assert analysis.terms(word) == [analysis.stem(word)]


def test_a_compound_also_yields_its_short_units():
    assert {"開発者", "開発"} <= set(analysis.terms("開発者リファレンス"))


def test_tokens_point_at_the_words_in_the_text():
    text = "Uncovering a Table Rowwise"
    words = [text[t.start:t.end] for t in analysis.tokens(text)]
    assert words == ["Uncovering", "Table", "Rowwise", "Row", "wise"]  # and its two words


def test_the_particle_to_is_told_from_a_to_inside_a_word():
    text = "遅延アップロードの仕組みと、キューを使うときの作法"
    assert analysis.particle_offsets(text, "と") == [text.index("と、")]


SHELF = {
    1: books.name_terms("The beamer class", "beamer.pdf"),
    2: books.name_terms("The memoir class", "memman.pdf"),
    3: books.name_terms("The Debian GNU/Linux FAQ", "faq.pdf"),
    4: books.name_terms("Debian Developer's Reference", "devref-ja.pdf"),
    5: books.name_terms("Debian 新メンテナーガイド", "maint-ja.pdf"),
}


@pytest.mark.parametrize("question,expected", [
    ("How do I make my beamer slides widescreen?", {1: 0.5}),
    ("In the memoir manual, where are epigraphs?", {2: 1.0}),
    ("Where does the Debian FAQ explain bug reports?", {3: 1.0, 4: 0.317, 5: 0.317}),
    ("新メンテナーガイドの、パッケージのビルドの章", {5: 0.5}),
    ("How do I show source code on a slide in beamer?", {1: 1.0}),  # the name it works in
    ("memoir で脚注の書式を変えるには？", {2: 1.0}),
    ("How do I put a caption in a figure?", {}),  # "in a figure" names nothing
    ("Which book is best about poems?", {}),  # "book" names no book
    ("How do I write a class file?", {}),  # nor does a word of every title
])
def test_books_are_named_by_the_words_that_tell_them_apart(question, expected):
    plan = query.plan(question)
    refs = books.references(plan.refs, plan.mentions, SHELF)
    assert books.named(question, refs, SHELF) == expected


def test_a_common_word_of_a_title_names_its_book_only_where_it_is_the_books_own():
    common = {"number", "debian", "faq"}.__contains__  # in more than 3% of the sections
    own = {"octav", "faq"}.__contains__  # mostly in this book's own sections
    octave = books.name_terms("GNU Octave: Free Your Numbers", "octave.pdf", own=own, common=common)
    # "numbers" is everywhere on the shelf and the manual holds under half of it: asked how to
    # format numbers in a table, the question is not about this book.
    assert octave == {"gnu", "octav", "free"}
    faq = books.name_terms("The Debian GNU/Linux FAQ", "faq.pdf", own=own, common=common)
    assert "faq" in faq and "debian" not in faq
    # A rare word of a title is a name wherever it is met, the book's own or not.
    assert "linux" in books.name_terms("The Debian GNU/Linux FAQ", own=lambda t: False,
                                       common=common)


def test_the_names_of_the_books_asked_about_are_left_out_of_what_is_asked():
    assert query.without_refs("How do I show source code on a slide in beamer?", ["beamer"]) == (
        "How do I show source code on a slide?")
    assert query.without_refs("memoir で脚注の書式を変えるには？", ["memoir"]) == (
        "脚注の書式を変えるには？")
    assert query.without_refs("In the Octave manual, where is try/catch?", ["Octave"]) == (
        "where is try/catch?")
    # A name the question does not refer to stays.
    assert query.without_refs("How do I draw it with TikZ?", ["beamer"]) == (
        "How do I draw it with TikZ?")


@pytest.mark.parametrize("question,kind,unit", [
    ("Clip the whole chapter of the memoir manual about tables.", query.RANGE, query.CHAPTER),
    ("I need the whole appendix on building Octave from source.", query.RANGE, query.APPENDIX),
    ("Clip the entire part of the beamer guide about themes.", query.RANGE, query.PART),
    ("メンテナが使うツールを紹介している章を丸ごと切り抜いて。", query.RANGE, query.CHAPTER),
    ("アーカイブの構成を説明している章は、何ページから何ページまで？", query.RANGE, query.CHAPTER),
    ("What does chapter 4 cover?", query.AGGREGATE, None),
    ("How do I tie a bowline?", query.LOOKUP, None),
])
def test_a_whole_unit_on_a_topic_is_a_range(question, kind, unit):
    plan = query.plan(question)
    assert (plan.type, plan.unit) == (kind, unit)


@pytest.mark.parametrize("question,parts", [
    ("In the Octave manual, where is try/catch defined, and where is it used to handle errors?",
     ["In the Octave manual, where is try/catch defined", "where is it used to handle errors?"]),
    ("遅延アップロードの仕組みと、NMU で DELAYED キューを使うときの作法は、それぞれどこに書いてある？",
     ["遅延アップロードの仕組み", "NMU で DELAYED キューを使うときの作法"]),
    ("What is a jib? And how do I reef?", ["What is a jib?", "how do I reef?"]),
])
def test_several_things_asked_at_once_are_each_looked_up(question, parts):
    plan = query.plan(question)
    assert (plan.type, plan.parts) == (query.COMPARE, parts)


def test_what_a_japanese_question_says_before_it_asks_is_the_scene_of_its_parts():
    plan = query.plan("プログラムのソースを入力したままの形で出力したい。verbatim 環境の基本と、"
                      "別ファイルを読み込むパッケージは、それぞれどこ？")
    assert plan.parts == ["verbatim 環境の基本", "別ファイルを読み込むパッケージ"]
    assert plan.scene == "プログラムのソースを入力したままの形で出力したい。"
    assert query.plan("遅延アップロードの仕組みと、NMU の作法は、それぞれどこに書いてある？").scene == ""
    assert query.plan("What is a jib? And how do I reef?").scene == ""


def test_explicit_references_to_books_are_picked_out():
    assert query.plan("Where do the Debian FAQ and the Octave manual each explain bugs?").refs == [
        "Debian", "Octave"]
    assert query.plan("『LaTeX 2ε への道』で、verbatim はどこ？").refs == ["LaTeX 2ε への道"]
    assert query.plan("Where do the Debian FAQ and the Octave manual each explain bugs?").each
