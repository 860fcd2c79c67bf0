"""The pure cores of retrieval: chunking, query types, follow-ups."""

from types import SimpleNamespace

import numpy as np
import pytest

from retrieval.answer import quotes
from retrieval.index import shown
from retrieval.text import sentences
from retrieval.question import analysed, followups, query
from retrieval.index.backmatter import SKIP_TITLES, is_back_matter
from retrieval.index.chunks import Chunk, page_windows, passages, pieces, section_chunks, shown_text


def heading(pk, title, page, line, level=1, parent=None, page_end=None, status="exact"):
    return SimpleNamespace(pk=pk, parent_id=parent, position=pk, level=level, title=title,
                           page=page, page_end=page_end, line=line, status=status)


PAGES = {
    1: ["Contents", "1 Sails ..... 2", "1.1 Mainsail ..... 2", "2 Knots ..... 3", "Index ..... 4"],
    2: ["1 Sails", "Sails turn wind into motion.", "1.1 Mainsail", "The mainsail is reefed in a gale."],
    # Two lines of 1.1 above 2 Knots: a heading on one of a page's first two lines is taken
    # to open the page (toc.ends), under a running head and a folio.
    3: ["more about reefing", "in a gale.", "2 Knots", "The bowline makes a fixed loop."],
    4: ["Index", "bowline 3", "mainsail 2", "reefing 2"],
}
HEADINGS = [
    heading(1, "1 Sails", 2, 0, page_end=3),
    heading(2, "1.1 Mainsail", 2, 2, level=2, parent=1, page_end=3),
    heading(3, "2 Knots", 3, 2, page_end=3),
    heading(4, "Index", 4, 0, page_end=4),
    heading(5, "3 Lost", None, None),
]


def by_title(chunks):
    return {chunk.title: chunk for chunk in chunks}


def test_it_cuts_sections_at_heading_lines():
    chunks = by_title(section_chunks(HEADINGS, PAGES, excluded={1}, page_count=4))
    assert chunks["1 Sails"].text == "1 Sails Sails turn wind into motion."
    assert chunks["1.1 Mainsail"].text.startswith("1.1 Mainsail The mainsail is reefed")
    assert chunks["1.1 Mainsail"].text.endswith("more about reefing in a gale.")
    assert "bowline" not in chunks["1.1 Mainsail"].text
    assert chunks["2 Knots"].text == "2 Knots The bowline makes a fixed loop."


def test_sections_carry_breadcrumb_pages_and_tree():
    chunks = section_chunks(HEADINGS, PAGES, excluded={1}, page_count=4)
    sails, mainsail = by_title(chunks)["1 Sails"], by_title(chunks)["1.1 Mainsail"]
    assert mainsail.breadcrumb == ("1 Sails", "1.1 Mainsail")
    assert (sails.page_start, sails.page_end) == (2, 3)
    assert sails.span == (2, 2) and mainsail.span == (2, 3)
    assert mainsail.parent_key == sails.key and sails.children == (mainsail.key,)


def test_toc_index_and_unplaced_headings_are_not_chunks():
    chunks = section_chunks(HEADINGS, PAGES, excluded={1}, page_count=4)
    assert set(by_title(chunks)) == {"1 Sails", "1.1 Mainsail", "2 Knots"}
    assert not any("....." in chunk.text or "bowline 3" in chunk.text for chunk in chunks)


def test_a_chapter_about_contents_or_indexes_is_body_text():
    # Only the book's own lists are left out: a manual's chapter on making them is an answer.
    pages = {
        1: ["Contents", "1 Contents lists ..... 2", "1.1 Index expressions ..... 2",
            "Index ..... 3"],
        2: ["1 Contents lists", "The tocdepth counter sets how deep the contents go.",
            "1.1 Index expressions", "An index expression picks elements of a matrix."],
        3: ["Index", "matrix 2", "tocdepth 2"],
    }
    headings = [heading(1, "1 Contents lists", 2, 0, page_end=2),
                heading(2, "1.1 Index expressions", 2, 2, level=2, parent=1, page_end=2),
                heading(3, "Index", 3, 0, page_end=3)]
    chunks = by_title(section_chunks(headings, pages, excluded={1}, page_count=3))
    assert set(chunks) == {"1 Contents lists", "1.1 Index expressions"}
    assert "tocdepth counter" in chunks["1 Contents lists"].text


@pytest.mark.parametrize("title,skipped", [
    ("Index", True), ("Concept Index", True), ("Index of Functions", True), ("C Index", True),
    ("Table of Contents", True), ("List of Figures", True), ("目次", True), ("索 引", True),
    ("9 Contents lists", False), ("8.1 Index Expressions", False), ("2.8 目次", False),
    ("4.3 索引", False), ("17.2 Index", False), ("Indexing", False),
])
def test_the_books_own_lists_are_known_by_their_whole_title(title, skipped):
    assert bool(SKIP_TITLES.match(title)) is skipped


ENTRIES = " ".join(f"Author {n}. A book on sails, vol. {n}. Harbour Press, {1950 + n}."
                   for n in range(12))


@pytest.mark.parametrize("breadcrumb,text,back", [
    (["Bibliography"], "How to rig a sloop.", True),  # the book's own, by its title
    (["Appendix", "GNU Free Documentation License"], "Everyone is permitted to copy.", True),
    (["1 Introduction", "1.4 How to Read this Guide"], "Start with the tutorial.", True),
    (["Upgrading checklist", "Version 3.8.0"], "The option was renamed.", True),
    (["Changes", "Fixed bugs"], "The option was renamed.", True),  # inside one
    (["3 Rigging", "3.9 References"], ENTRIES, True),  # a chapter's list of sources
    (["17 Back matter", "17.1 Bibliography"],  # a class manual on typesetting one
     "The bibliography is set by the thebibliography environment. " * 8, False),
    (["4 Required files", "4.3 changelog"],  # a packaging guide on debian/changelog
     "この必須のファイルは特別な書式で、パッケージのバージョン番号や緊急度を示します。" * 12
     + " gentoo (0.9.12-1) unstable; urgency=medium * Initial release. -- 22 Mar 2010", False),
    (["5 Other files", "5.17 NEWS"], "See 8.1.", False),
    (["Copyright"], "Copyright 1986 - 1993, 1998, 2004 Thomas Williams", True),
    (["4 Required files", "4.2 copyright"], "Copyright: 2010 Josip Rodin", False),  # the file
    (["New features", "Features introduced in version 5.4"], "Voxel grids are new.", True),
    (["Differences between versions 4 and 5"], "Some syntax changed.", True),
])
def test_a_section_titled_like_a_list_inside_a_chapter_is_one_only_when_it_lists(
        breadcrumb, text, back):
    # Bibliographies, licences and change logs rank below the body; a chapter's section
    # named after its subject ("4.3 changelog": the file) is body text.
    assert is_back_matter(breadcrumb, text) is back


def test_the_sections_of_back_matter_are_back_matter():
    pages = {1: ["1 Sails", "Sails turn wind into motion."],
             2: ["A Bibliography", ENTRIES], 3: ["A.1 Articles", "Sails, 1999."]}
    headings = [heading(1, "1 Sails", 1, 0, page_end=1),
                heading(2, "A Bibliography", 2, 0, page_end=3),
                heading(3, "A.1 Articles", 3, 0, level=2, parent=2, page_end=3)]
    chunks = by_title(section_chunks(headings, pages, page_count=3))
    assert not chunks["1 Sails"].back_matter
    assert chunks["A Bibliography"].back_matter and chunks["A.1 Articles"].back_matter


def test_a_list_of_figures_is_excluded_like_the_toc():
    pages = {**PAGES, 5: ["Figure 1 A sail", "Figure 2 A knot"]}
    lists = heading(6, "2.9 Figures", 5, 0, level=2, parent=3)
    chunks = section_chunks([*HEADINGS, lists], pages, excluded={1, 5}, page_count=5)
    assert "2.9 Figures" not in by_title(chunks)


def test_a_book_without_structure_answers_from_page_windows():
    pages = {n: [f"page {n} text about sailing"] for n in range(1, 6)}
    chunks = section_chunks([], pages, page_count=5)
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 2), (3, 4), (5, 5)]
    assert all(c.heading_id is None and c.breadcrumb == () for c in chunks)


def test_page_windows_skip_index_like_and_colophon_pages():
    index_page = [f"term {n}, {n * 3}" for n in range(12)]
    colophon = ["Printed in Japan", "ISBN 978-4-00-000000-0"]
    chunks = page_windows({1: ["Body text."], 2: index_page, 3: colophon}, [1, 2, 3])
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 1)]


def test_passages_start_with_the_breadcrumb_and_stay_short():
    chunk = section_chunks(HEADINGS, PAGES, excluded={1}, page_count=4)[1]
    out = passages(chunk, size=20)
    assert out[0] == "1 Sails > 1.1 Mainsail"
    assert all(len(p) <= 40 for p in pieces(chunk, size=20))
    assert out[1:] == [f"Mainsail: {p}" for p in pieces(chunk, size=20)]


def test_a_passage_is_read_with_its_title_unless_they_are_in_different_scripts():
    chunk = Chunk(key=0, title="3.2 管理者的な責務", breadcrumb=["3 責務", "3.2 管理者的な責務"],
                  page_start=1, page_end=1, text="Applying to become a member. 休暇を取る前に連絡する。")
    out = passages(chunk, size=30)
    assert out[1] == "Applying to become a member."  # an English piece stays English
    assert out[2] == "管理者的な責務: 休暇を取る前に連絡する。"
    window = page_windows({1: ["Front matter text."]}, [1])[0]
    assert passages(window)[1:] == ["Front matter text."]  # a page label is no title


@pytest.mark.parametrize("question,kind", [
    ("How do I tie a bowline?", query.LOOKUP),
    ("もやい結びの結び方は？", query.LOOKUP),
    ("Which book covers knots?", query.WHICH_BOOK),
    ("What book should I read first about reefing?", query.WHICH_BOOK),
    ("霧について、どの本を読めばいいですか？", query.WHICH_BOOK),
    ("霧について詳しく書かれている本はどれ？", query.WHICH_BOOK),
    ("霧について詳しく書かれている本は？", query.WHICH_BOOK),
    ("霧が載っている本はありますか", query.WHICH_BOOK),
    ("もやい結びの本を教えてください", query.WHICH_BOOK),
    ("この本は何ページありますか？", query.LOOKUP),
    ("本の余白を設定するには？", query.LOOKUP),
    ("Which of the books explains reefing?", query.WHICH_BOOK),
    ("How do I read a chart?", query.LOOKUP),
    ("What is the difference between a bowline and a cleat hitch?", query.COMPARE),
    ("Compare the jib with the mainsail", query.COMPARE),
    ("低気圧と霧の違い", query.COMPARE),
    ("What is a jib? And how do I reef?", query.COMPARE),
    ("What does chapter 4 cover?", query.AGGREGATE),
    ("Which sections discuss winches between pp. 100-200?", query.AGGREGATE),
    ("第2章の内容は？", query.AGGREGATE),
    ("100〜200ページで霧について", query.AGGREGATE),
    ("数式の章を切り抜いて", query.RANGE),
    ("航海の手引きの気象の章をPDFでダウンロードしたい", query.RANGE),
    ("Clip the chapter on knots", query.RANGE),
])
def test_rules_decide_the_query_type(question, kind):
    assert query.plan(question).type == kind


def test_plans_carry_what_narrows_them():
    assert query.plan("What is the difference between a bowline and a cleat hitch?").parts == [
        "a bowline", "a cleat hitch"]
    assert query.plan("低気圧と霧の違い").parts == ["低気圧", "霧"]
    between = query.plan("Which sections discuss winches between pp. 100–200?")
    assert between.pages == (100, 200) and between.topic == "winches"
    chapter = query.plan("What does chapter 4 cover?")
    assert chapter.section == ("chapter", "4") and query.is_aggregate_listing(chapter.topic)
    assert query.plan("第十二章の概要").section == ("章", "12")
    assert query.plan("Which book covers knots?").topic == "knots"
    assert query.plan("Which of these books explains knots?").topic == "knots"
    detailed = query.plan("霧について詳しく書かれている本はどれですか？")
    assert detailed.topic == "霧"
    assert query.plan("霧について詳しく書かれている本は？").topic == "霧"
    assert query.plan("霧が載っている本はありますか").topic == "霧"
    assert query.plan("もやい結びの本を教えてください").topic == "もやい結び"
    assert query.plan("潮汐が詳しい本は？").topic == "潮汐"
    unsure = query.plan("How do the jib and the mainsail compare?")
    assert (unsure.type, unsure.unsure) == (query.LOOKUP, True)


BOOKS = {1: "Sailing Handbook", 2: "航海の手引き", 3: "Harbour Guide"}
CONTEXT = {"question": "bowline", "book_ids": [1, 2, 3],
           "sections": [{"book_id": 1, "heading_id": 7, "page_start": 4, "page_end": 4}]}


@pytest.mark.parametrize("text,book_ids", [
    ("only in Harbour Guide", [3]),
    ("Only in the book sailing handbook?", [1]),
    ("航海の手引きだけで", [2]),
    ("just in harbour", [3]),
    # a book alone asks the last question there
    ("what about in Harbour Guide?", [3]),
    ("And in the harbour guide?", [3]),
    ("how about the Sailing Handbook?", [1]),
    ("航海の手引きでは？", [2]),
    ("じゃあ、航海の手引きだとどう？", [2]),
])
def test_only_in_book_repeats_the_question_in_that_book(text, book_ids):
    resolved = followups.follow_up(text, CONTEXT, BOOKS)
    assert (resolved.question, resolved.book_ids) == ("bowline", book_ids)


@pytest.mark.parametrize("text", [
    "what about footnotes in the Harbour Guide?",  # a new question, in that book
    "what about reefing?",
    "in a gale, which sail comes down first?",
    "霧では？",
])
def test_a_new_subject_is_a_new_question(text):
    resolved = followups.follow_up(text, CONTEXT, BOOKS)
    assert (resolved.question, resolved.book_ids) == (text, None)


@pytest.mark.parametrize("text,step", [
    ("the next section", 1), ("次の節", 1), ("その次の節は？", 1), ("what comes next?", 1),
    ("next one, please", 1), ("previous", -1), ("その前の節は？", -1),
    ("what comes before that?", -1),
])
def test_next_and_previous_refer_to_the_previous_answer(text, step):
    assert followups.follow_up(text, CONTEXT, BOOKS).navigate == step


def test_more_refers_to_the_previous_answer():
    assert followups.follow_up("more", CONTEXT, BOOKS).exclude_previous


def test_a_new_question_is_no_follow_up():
    resolved = followups.follow_up("How do I reef the mainsail?", CONTEXT, BOOKS)
    assert resolved.question == "How do I reef the mainsail?" and resolved.book_ids is None
    assert followups.follow_up("the next section", None, BOOKS).navigate == 0


def test_a_heading_placed_without_a_line_keeps_its_text_after_its_parent():
    pages = {2: ["2.3 Strings", "Defined strings.", "2.4 Special", "Intro.", "Two marks quote."]}
    headings = [heading(1, "2.3 Strings", 2, 0, page_end=2), heading(2, "2.4 Special", 2, 2),
                heading(3, "2.4.1 Quotes", 2, None, level=2, parent=2)]
    chunks = by_title(section_chunks(headings, pages, page_count=2))
    assert chunks["2.3 Strings"].text == "2.3 Strings Defined strings."
    assert chunks["2.4 Special"].text == "2.4 Special"
    assert chunks["2.4.1 Quotes"].text == "Intro. Two marks quote."


def test_a_range_mentioned_in_passing_is_no_aggregation():
    sentence = "The framed environment, described later in Chapter 15, might come in handy for this."
    assert query.plan(sentence).type == query.LOOKUP
    assert query.plan("chapter 3 knots").type == query.AGGREGATE


def test_a_heading_without_a_line_is_found_on_its_page():
    pages = {86: ["72", "5.2.3 Fonts", "Advice on fonts.", "5.3", "Space", "5.3.1 Lines", "Spacing."]}
    headings = [heading(1, "5.2.3 Fonts", 86, 1, level=3), heading(2, "5.3 Space", 86, None, level=2),
                heading(3, "5.3.1 Lines", 86, 5, level=3, parent=2)]
    chunks = by_title(section_chunks(headings, pages, page_count=86))
    assert chunks["5.2.3 Fonts"].text == "5.2.3 Fonts Advice on fonts."
    assert chunks["5.3 Space"].text == "5.3 Space"


@pytest.mark.parametrize("title,number", [
    ("3ソースコードの変更", "3"), ("3.3指定場所へ", "3.3"), ("Chapter 4 Floats", "4"),
    ("Part II Presentations", "ii"), ("第十二章 結び", "12"), ("Preface", None),
    ("第II部 リファレンス", "2"), ("第Ⅲ部 実装", "3"),  # a Japanese part in roman numerals
])
def test_a_heading_number_is_read_as_printed(title, number):
    from retrieval.question.units import heading_number

    assert heading_number(title) == number




@pytest.mark.parametrize("title,text,first", [
    ("9 Contents lists", "Contents lists This chapter describes the ToC.", "This chapter"),
    ("General considerations", "GENERAL CONSIDERATIONS The class is large.", "The class"),
    ("6.2.1 Which names were used?", "6.2.1 Which names were used? Aside from bullseye", "Aside"),
    ("5.5 Uploads to stable-backports", "5.5 Uploads to stablebackports Some text.", "Some text"),
    ("II Building a Presentation", "Building a Presentation This part explains.", "This part"),
    ("2 はじめの一歩", "はじめの一歩最新の内容を書き換えた。", "最新の内容"),
    ("Tab", "Tables are floats.", "Tables"),  # a heading never ends inside a word
    ("Fonts", "Some other opening.", "Some other"),
])
def test_a_quote_starts_after_the_heading_however_the_page_prints_it(title, text, first):
    chunk = Chunk(key=0, title=title, breadcrumb=[title], page_start=1, page_end=1, text=text)
    assert text[shown.heading_end(chunk):].lstrip().startswith(first)


@pytest.mark.parametrize("title,role,breadcrumb_row", [
    ("2.1 Sail care", "english", True),  # titled passages, the breadcrumb first
    ("2.1 帆の手入れ", "english", False),  # the English encoder reads no Japanese breadcrumb
    ("2.1 帆の手入れ", "multilingual", True),
])
def test_the_quote_is_looked_for_in_the_piece_nearest_the_question(title, role, breadcrumb_row):
    sentences = [f"Sentence {word} " + "filler words " * 22 + "end." for word in ("one", "two", "three")]
    chunk = Chunk(key=0, title=title, breadcrumb=["2 Sails", title], page_start=1, page_end=1,
                  text=" ".join(sentences))
    texts = pieces(chunk)
    assert len(texts) == 3
    rows = len(texts) + breadcrumb_row
    index = SimpleNamespace(rows={role: (np.eye(rows, dtype=np.float32), [0] * rows)})
    for nearest, piece in enumerate(texts):
        vector = np.eye(rows, dtype=np.float32)[nearest + breadcrumb_row]
        start, end = quotes._nearest_passage(chunk, index, SimpleNamespace(vectors={role: vector}))
        assert chunk.text[start:end] == piece


class _Encoded:
    """A shelf of three flat sections whose cosines per encoder are given."""

    def __init__(self, cosines):
        self.cosines_of = cosines
        self.sections = {k: Chunk(key=k, title=f"{k}", breadcrumb=[f"{k}"], page_start=1,
                                  page_end=1, text="", heading_id=k + 1) for k in range(3)}

    def cosines(self, role, vector, pairs):
        return np.array([self.cosines_of[role][key] for _, key in pairs], dtype=np.float32)

    def chunk(self, book_id, key):
        return self.sections[key]

    def potential(self, terms):
        return getattr(self, "could_score", 0.0)


@pytest.mark.parametrize("could_score,first", [
    (10.0, 0),  # the best section holds most of what the question's words could score
    (60.0, 1),  # it holds a word of them: the encoders choose
])
def test_a_section_holding_a_small_part_of_the_question_does_not_take_the_words(
        could_score, first):
    # 「gnuplot で線の太さを変えるには？」: "Changes" holds 変える's "change" in its heading.
    from retrieval.index import embeddings
    from retrieval.ranking import rank

    shelf = _Encoded({embeddings.MULTILINGUAL: [0.20, 0.34, 0.30]})
    shelf.could_score = could_score
    question = analysed.Question("q", ["線", "太い", "変える"], {embeddings.MULTILINGUAL: np.zeros(2)},
                             english=False)
    pairs = [(1, 0), (1, 1), (1, 2)]
    scored = rank._fused(question, shelf, pairs, {(1, 0): 11.9, (1, 1): 6.9, (1, 2): 5.3})
    assert scored[0].key == first


@pytest.mark.parametrize("english,first", [
    ([0.45, 0.50, 0.30], 1),  # both encoders put section 1 first: it is first
    ([0.50, 0.45, 0.30], 0),  # they disagree: the words' favourite stays first
])
def test_the_section_both_encoders_put_first_leads(english, first):
    from retrieval.index import embeddings
    from retrieval.ranking import rank

    shelf = _Encoded({embeddings.ENGLISH: english, embeddings.MULTILINGUAL: [0.45, 0.50, 0.30]})
    terms = ["caption", "next", "pictur", "underneath"]  # a sentence, not two keywords
    question = analysed.Question("q", terms, {embeddings.ENGLISH: np.zeros(2),
                                          embeddings.MULTILINGUAL: np.zeros(2)})
    pairs = [(1, 0), (1, 1), (1, 2)]
    scored = rank._fused(question, shelf, pairs, {(1, 0): 10.0, (1, 1): 3.0, (1, 2): 2.0})
    assert scored[0].key == first


def test_a_section_the_english_encoder_cannot_read_is_not_held_back_for_it():
    """Section 0 is Japanese (no English vector): the multilingual encoder, which puts it
    first, speaks for it in the English encoder's share too."""
    from retrieval.index import embeddings
    from retrieval.ranking import rank

    shelf = _Encoded({embeddings.ENGLISH: [0.0, 0.40, 0.30],
                      embeddings.MULTILINGUAL: [0.50, 0.45, 0.30]})
    question = analysed.Question("q", ["sail"], {embeddings.ENGLISH: np.zeros(2),
                                             embeddings.MULTILINGUAL: np.zeros(2)})
    pairs = [(1, 0), (1, 1), (1, 2)]
    scored = rank._fused(question, shelf, pairs, {(1, 0): 5.0, (1, 1): 5.0, (1, 2): 5.0})
    assert scored[0].key == 0
    assert sum(s.score for s in scored) == pytest.approx(1.0)


class _Reader:
    """An encoder that reads a sentence as near the question as the list given says."""

    role = "english"

    def __init__(self, nearness):
        self.nearness = nearness

    def applies(self, text):
        return True

    def encode(self, texts):
        return np.array([[self.nearness.get(t.split()[0], 0.0), 1.0] for t in texts])


@pytest.mark.parametrize("closely,quoted", [(False, "Loops"), (True, "Bowlines")])
def test_the_first_place_quotes_the_sentence_nearest_the_question_among_those_holding_it(
        monkeypatch, closely, quoted):
    from retrieval.index import embeddings

    text = ("Loops of every kind slip when the knot is tied badly and the loop is loaded. "
            "Bowlines make a fixed loop that holds however the load pulls on it. "
            "Sheets are tied with a knot. Reefing is a different matter entirely.")
    chunk = Chunk(key=0, title="2.1 Bowline", breadcrumb=["2.1 Bowline"], page_start=1,
                  page_end=1, text=text)
    # The encoder finds "Sheets…" nearest of all, but it holds none of the question's words.
    reader = _Reader({"Loops": 0.1, "Bowlines": 0.9, "Sheets": 2.0})
    monkeypatch.setattr(embeddings, "encoders", lambda: [reader])
    monkeypatch.setattr(quotes, "_weights", lambda question: {"loop": 1.0, "slip": 1.0,
                                                             "load": 0.5})
    question = SimpleNamespace(text="How do I tie a loop that will not slip?",
                               vectors={"english": np.array([1.0, 0.0])}, terms=[],
                               translated={})
    index = SimpleNamespace(rows={})
    found = quotes.quote(chunk, index, question, closely=closely)
    assert found.text.startswith(quoted)


def test_a_sentence_repeated_in_many_sections_is_boilerplate_and_never_quoted(monkeypatch):
    notice = "この入門書を書き換えたものが Guide for Debian Maintainers として入手できます。"
    wrapped = "この入門書を書き換えたものが Guide for Debian\nMaintainers として入手できます。"
    chunks = [Chunk(key=k, title=title, breadcrumb=[title], page_start=k + 1, page_end=k + 1,
                    text=f"{title}{opening}{body}")
              for k, (title, opening, body) in enumerate([
                  ("1 はじめの一歩", notice, "パッケージを作りましょう。"),
                  ("6 パッケージのビルド", wrapped, "これでパッケージをビルドする準備が整いました。"),
                  ("8 パッケージの更新", notice, "パッケージを更新する必要があります。")])]
    repeated = shown.boilerplate(chunks)
    # The notice opens every chapter, wrapped at another place on one page; the bodies differ.
    assert repeated == {sentences.sentence_key(notice)}
    monkeypatch.setattr(quotes, "_weights", lambda question: {"パッケージ": 1.0, "入門書": 1.0,
                                                             "guid": 1.0, "maintain": 1.0})
    question = SimpleNamespace(text="パッケージのビルドの章", vectors={}, terms=[], translated={})
    index = SimpleNamespace(rows={}, boilerplate=repeated)
    assert quotes.quote(chunks[1], index, question).text == "これでパッケージをビルドする準備が整いました。"
    assert quotes.quote(chunks[1], SimpleNamespace(rows={}), question).text.startswith("この入門書")


@pytest.mark.parametrize("sentence,low,high", [
    ("The print command saves the current figure to a file.", 0.99, 1.0),
    ("figure (1); clf (); surf (peaks); print figure1.pdf", 0.0, 0.4),  # figure, surf, print
    ("\\documentclass[aspectratio=169]{beamer}", 0.0, 0.0),
    ("数式の中でベクトルを太字にするには \\boldsymbol を使います。", 0.99, 1.0),
])
def test_a_sentences_prose_is_its_common_words_or_its_japanese(sentence, low, high):
    assert low <= quotes._prose(sentence) <= high


def test_a_sentence_of_prose_is_quoted_before_a_code_listing_run_into_one(monkeypatch):
    text = ("Printing Plots The print command saves a figure to a file in the format you name. "
            "Example: print to a file. figure (1); clf (); surf (peaks); print figure1.pdf "
            "print figure1.png")
    chunk = Chunk(key=0, title="Printing Plots", breadcrumb=["Printing Plots"], page_start=1,
                  page_end=1, text=text)
    monkeypatch.setattr(quotes, "_weights", lambda question: {"print": 1.0, "figur": 1.0,
                                                             "file": 1.0, "pdf": 1.0})
    question = SimpleNamespace(text="print the figure to a pdf file", vectors={}, terms=[],
                               translated={})
    found = quotes.quote(chunk, SimpleNamespace(rows={}), question)
    assert found.text == "The print command saves a figure to a file in the format you name."


def test_a_pages_running_head_and_folio_are_never_shown_as_the_sections_words(monkeypatch):
    # Page 41 runs on from page 40 in mid-sentence; its head and folio stand between.
    text = ("3.3 数式の書き方 平方根は\\sqrt で書きます.根号の中に 12 個の項を書けます.40 "
            "第3 章数式の組版 太字のベクトルは\\boldsymbol で書きます. 41")
    chunk = Chunk(key=0, title="3.3 数式の書き方", breadcrumb=["3.3 数式の書き方"], page_start=40,
                  page_end=41, text=text, starts=[[40, 0], [41, text.index("40 第3")]])
    furniture = {40: ["12"], 41: ["41", "40 第3 章数式の組版"]}
    shown = shown_text(chunk, furniture)
    assert len(shown) == len(text)  # every offset into the text holds
    assert "第3 章" not in shown and "41" not in shown
    # Furniture opens or closes its page's text: the same number within it is the text's own.
    assert shown.startswith("3.3 数式の書き方") and "12 個" in shown
    monkeypatch.setattr(quotes, "_weights", lambda question: {"太字": 1.0, "ベクトル": 1.0})
    question = SimpleNamespace(text="ベクトルを太字に", vectors={}, terms=[], translated={})
    found = quotes.quote(chunk, SimpleNamespace(rows={}, furniture=furniture), question)
    assert found.text == "太字のベクトルは\\boldsymbol で書きます."
    assert found.page == 41
    excerpt = quotes.excerpt(chunk, found, width=40, furniture=furniture)
    assert "章" not in excerpt and "組版" not in excerpt


def test_a_book_named_outright_counts_more_than_one_hinted_at():
    # 「LuaTeX-ja で縦書きにするには？」 asks for that book; "my beamer slides" hints at one.
    from retrieval.question import naming as books
    from retrieval.ranking import rank
    chunk = Chunk(key=0, title="1 Frames", breadcrumb=["1 Frames"], page_start=1, page_end=1,
                  text="A frame is a slide.")
    shelf = SimpleNamespace(chunk=lambda book_id, key: chunk)
    question = analysed.Question(text="", terms=[], named={1: books.EXPLICIT, 2: books.HINT})
    outright, hinted, other = (rank._prior(question, shelf, (b, 0)) for b in (1, 2, 3))
    assert outright == pytest.approx(np.exp(rank.NAMED_OUTRIGHT)) and other == 1.0
    assert hinted == pytest.approx(np.exp(rank.NAMED * books.HINT)) and hinted < outright


def test_the_english_encoder_reads_a_section_only_where_most_of_it_is_english():
    # Section 0: Japanese, quoting one English error message; section 1: English.
    from retrieval.index import embeddings
    from retrieval.index import book as memory

    chunks = [Chunk(key=k, title=f"{k}", breadcrumb=[f"{k}"], page_start=1, page_end=1, text="")
              for k in range(2)]
    vector = np.array([1.0, 0.0], dtype=np.float32)
    rows = {embeddings.MULTILINGUAL: (np.tile(vector, (6, 1)), np.array([0, 0, 0, 0, 1, 1])),
            embeddings.ENGLISH: (np.tile(vector, (3, 1)), np.array([0, 1, 1]))}
    index = memory.BookIndex(1, chunks, rows=rows)
    assert list(index.cosines(embeddings.ENGLISH, vector, [0, 1])) == [0.0, 1.0]
    assert list(index.vector_scores(embeddings.ENGLISH, vector)) == [0.0, 1.0]
    assert list(index.cosines(embeddings.MULTILINGUAL, vector, [0, 1])) == [1.0, 1.0]


@pytest.mark.parametrize("question", ["第2部の内容は？", "第II部の内容は？", "第Ⅱ部の内容は？"])
def test_a_japanese_part_is_asked_for_by_any_of_its_numerals(question):
    from retrieval.question import units

    assert query.plan(question).section == ("部", "2")
    part = SimpleNamespace(parent_key=None, children=[1], title="第II部 リファレンス")
    assert units.is_part(part)  # so its chapters are the book's chapters, not it


def test_a_shelfs_names_are_made_once_and_anew_when_a_title_or_cover_changes():
    from retrieval.question import naming

    described = [(1, "The memoir class", "memoir.pdf"), (2, "Beamer User Guide", "beamer.pdf"),
                 (3, "Boats", "")]
    covers = {3: "Sails and knots"}
    made = naming.titles(list(described), covers)
    assert naming.titles(list(described), covers) is made
    assert made.named_by({"memoir", "knot"}) == {1, 3}  # a cover's word may name its book
    assert made.plain[3] == naming.plain_names("Boats")[0] and "knot" not in made.plain[3]
    renamed = naming.titles([*described[:2], (3, "Sailing boats", "")], covers)
    assert renamed is not made and renamed.named_by({"sail"}) == {3}
    assert naming.titles(list(described), {3: "Oars"}) is not made
