import pytest

from books import search
from tests.pdfs import make_japanese_pdf

pytestmark = pytest.mark.django_db


def pages(hits):
    return [(hit.book_id, hit.page) for hit in hits]


def test_it_finds_english_words_case_insensitively(boats):
    hits = search.search("MAINSAIL wind")
    assert pages(hits) == [(boats.pk, 2)]
    assert [s for s, matched in hits[0].excerpt if matched] == ["mainsail", "wind"]


def test_every_term_must_match(boats):
    assert search.search("mainsail bowline") == []


def test_it_finds_japanese_without_a_word_segmenter(fune):
    assert pages(search.search("もやい結び")) == [(fune.pk, 3)]


def test_it_finds_terms_shorter_than_three_characters_and_ranks_them(fune):
    # Page 3 says 結び twice, the contents once: the body page comes first.
    assert pages(search.search("結び")) == [(fune.pk, 3), (fune.pk, 1)]
    assert set(pages(search.search("帆"))) == {(fune.pk, 1), (fune.pk, 2)}


def test_it_finds_a_japanese_word_wrapped_across_lines(shelve, tmp_path):
    book = shelve(make_japanese_pdf(tmp_path / "wrap.pdf", ["ロープの端に固定されたもや\nい結びの輪"]))
    assert pages(search.search("もやい結び")) == [(book.pk, 1)]


def test_it_limits_the_search_to_some_books(boats, fune):
    assert search.search("mainsail", book_ids=[fune.pk]) == []
    assert pages(search.search("mainsail", book_ids=[boats.pk])) == [(boats.pk, 2)]


def test_full_width_queries_match_half_width_text(boats):
    assert pages(search.search("ｍａｉｎｓａｉｌ")) == [(boats.pk, 2)]


def test_query_syntax_is_taken_literally(boats):
    assert search.search('"mainsail" OR NEAR(x y) *') == []
    assert search.search("100%_") == []


def test_deleting_a_book_removes_it_from_search(boats):
    boats.delete()
    assert search.search("mainsail") == []


def test_reindexing_does_not_duplicate_hits(boats):
    search.index_book(boats)
    assert pages(search.search("mainsail")) == [(boats.pk, 2)]


def test_a_book_is_indexed_a_batch_at_a_time_to_its_last_page(boats):
    reported = []
    indexed = search.index_book(boats, lambda done, total: reported.append(done), batch_size=1)
    assert indexed == len(reported) == boats.pages.exclude(text="").count() > 1
    assert reported == sorted(reported)
    assert pages(search.search("mainsail")) == [(boats.pk, 2)]
    assert pages(search.search("bowline")) == [(boats.pk, 3)]


@pytest.mark.parametrize("printed", [
    "Hold a package with apt-mark hold package_name.",
    "Hold a package with apt-\nmark: hold it.",  # hyphenated at a line end, joined
    "To hold: apt – mark, as OCR spaces a dash.",
    "hold ... and, far away, apt\u2010mark",  # a typographic hyphen, words not adjacent
])
def test_a_dashed_word_is_found_however_the_page_prints_it(shelve, tmp_path, printed):
    from tests.pdfs import make_pdf

    book = shelve(make_pdf(tmp_path / "apt.pdf", [printed, "Nothing here."]))
    hits = search.search("apt-mark hold")
    assert pages(hits) == [(book.pk, 1)]
    assert {s.casefold() for s, matched in hits[0].excerpt if matched} & {"apt-mark", "apt", "mark"}
