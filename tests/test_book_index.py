"""The book's own index, end to end: the stage reads it from a real PDF, the shelf stores,
prints, serves and shows it."""

import json
from io import StringIO

import pymupdf
import pytest
from django.core.management import call_command
from django.urls import reverse

from books import bookindex
from books.models import IndexEntry

pytestmark = pytest.mark.django_db

# physical page p (2..11) prints p - 1 at its foot; page 12 is the index.
INDEX_LEFT = ["anchor, 2, 4-5", "boats", "    sailing, 3", "    rowing, 7", "buoy, see mark",
              "cleat, 6, 99", "deck, 8"]
INDEX_RIGHT = ["hull, 9", "keel, 9, 10", "knots, 3", "mast, 4", "rudder, 5", "stern, 6"]


def _book_with_index(path):
    document = pymupdf.open()
    for number in range(1, 12):
        page = document.new_page(width=420, height=595)
        for row in range(18):
            page.insert_text((50, 80 + 16 * row), f"Page {number} tells of boats, line {row}.",
                             fontsize=10)
        if number > 1:
            page.insert_text((205, 560), str(number - 1), fontsize=10)
    page = document.new_page(width=420, height=595)
    page.insert_text((50, 60), "Index", fontsize=16)
    for column, rows in ((50, INDEX_LEFT), (230, INDEX_RIGHT)):
        for row, text in enumerate(rows):
            indent = 12 if text.startswith("    ") else 0
            page.insert_text((column + indent, 100 + 13 * row), text.strip(), fontsize=10)
    document.save(path)
    return path


@pytest.fixture
def harbour(shelve, tmp_path):
    book = shelve(_book_with_index(tmp_path / "harbour.pdf"))
    book.refresh_from_db()
    return book


def test_the_stage_reads_the_index_and_maps_its_pages(harbour):
    found = {(e["parent"], e["term"]): e for e in bookindex.records(harbour)}
    assert found[(None, "anchor")]["labels"] == ["2", "4-5"]
    assert found[(None, "anchor")]["pages"] == [3, 5]
    assert found[("boats", "rowing")]["pages"] == [8]
    assert found[(None, "buoy")]["see"] == ["mark"]
    assert found[(None, "cleat")]["labels"] == ["6", "99"]
    assert found[(None, "cleat")]["pages"] == [7]  # no page prints 99: left unresolved
    assert harbour.index_pages == [12]
    run = harbour.stage_runs.get(stage="backindex")
    assert run.summary.startswith("12 index entries (Index), 13 of 14 page references placed")


def test_running_the_stage_again_replaces_its_entries(harbour):
    from indexing.stages.backindex import BackIndexStage

    before = IndexEntry.objects.filter(book=harbour).count()
    BackIndexStage().run(None, harbour, lambda *args, **kwargs: None)
    assert IndexEntry.objects.filter(book=harbour).count() == before


def test_an_index_that_mostly_fails_to_map_is_an_anomaly(harbour):
    harbour.pages.update(label="")
    from indexing.stages.backindex import BackIndexStage

    BackIndexStage().run(None, harbour, lambda *args, **kwargs: None)
    harbour.refresh_from_db()
    kinds = [a["kind"] for a in harbour.anomalies]
    assert kinds.count("index_unmapped") == 1
    BackIndexStage().run(None, harbour, lambda *args, **kwargs: None)  # replaced, not added
    harbour.refresh_from_db()
    assert [a["kind"] for a in harbour.anomalies].count("index_unmapped") == 1


def _misread(harbour, source):
    """Make the index page read "bóats" for "boats", its pages come from source."""
    from books.models import Page

    harbour.pages.update(source=source)
    page = harbour.pages.get(number=12)
    page.lines = [dict(line, text=line["text"].replace("boats", "bóats")) for line in page.lines]
    page.save()
    return Page


def test_a_scan_s_index_is_mended_against_the_words_of_its_pages(harbour):
    from indexing.stages.backindex import BackIndexStage

    Page = _misread(harbour, "ocr")
    assert Page.objects.filter(book=harbour, source=Page.Source.OCR).count() == 12
    BackIndexStage().run(None, harbour, lambda *args, **kwargs: None)
    assert ("boats", "rowing") in {(e["parent"], e["term"]) for e in bookindex.records(harbour)}


def test_a_born_book_s_index_is_taken_as_printed(harbour):
    from indexing.stages.backindex import BackIndexStage

    _misread(harbour, "text_layer")
    BackIndexStage().run(None, harbour, lambda *args, **kwargs: None)
    assert ("bóats", "rowing") in {(e["parent"], e["term"]) for e in bookindex.records(harbour)}


def test_the_command_prints_the_index_as_json(harbour):
    out = StringIO()
    call_command("bookindex", str(harbour.pk), "--json", stdout=out)
    entries = json.loads(out.getvalue())
    assert {"term": "sailing", "parent": "boats", "pages": [4], "labels": ["3"],
            "see": []} in entries
    assert set(entries[0]) == {"term", "parent", "pages", "labels", "see"}


def test_lookup_sends_a_term_to_its_pages(harbour):
    [place] = bookindex.lookup("Keel")
    assert (place.book_id, place.pages, place.labels) == (harbour.pk, [10, 11], ["9", "10"])
    assert [p.term for p in bookindex.lookup("boats")] == ["sailing", "rowing"]
    assert bookindex.lookup("nothing") == []


def test_the_api_serves_the_index(alice_client, harbour):
    response = alice_client.get(f"/api/books/{harbour.pk}/index?q=anchor")
    assert response.status_code == 200
    assert response.json() == [{"term": "anchor", "parent": None, "pages": [3, 5],
                                "labels": ["2", "4-5"], "see": [], "index": "Index",
                                "unresolved": []}]
    cleat = alice_client.get(f"/api/books/{harbour.pk}/index?q=cleat").json()[0]
    assert cleat["unresolved"] == ["99"]
    places = alice_client.get("/api/index-terms?term=keel").json()
    assert places[0]["pages"] == [10, 11]
    assert "/api/books/{book_id}/index" in alice_client.get("/api/openapi.json").json()["paths"]


def test_the_index_tab_browses_filters_and_links_to_the_viewer(alice_client, harbour):
    page = alice_client.get(reverse("book-index", args=[harbour.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "anchor" in body and "?g=K" in body
    assert f'href="/books/{harbour.pk}/pages/3/?q=anchor"' in body
    keel = alice_client.get(reverse("book-index", args=[harbour.pk]), {"g": "K"}).content.decode()
    assert "keel" in keel and "anchor" not in keel
    partial = alice_client.get(reverse("book-index", args=[harbour.pk]), {"q": "rudd"},
                               HTTP_HX_REQUEST="true").content.decode()
    assert "rudder" in partial and "<html" not in partial
    # The letters come along out of band: while a filter is shown no letter is current.
    assert 'id="index-groups"' in partial and 'hx-swap-oob="true"' in partial
    assert "current" not in partial.split('id="index-groups"')[1].split("</nav>")[0]
    assert 'aria-current="true"' in body  # browsing a letter marks it
    book_page = alice_client.get(harbour.get_absolute_url()).content.decode()
    assert reverse("book-index", args=[harbour.pk]) in book_page


def test_index_pages_are_never_a_sections_text(harbour):
    from retrieval.index.cut import book_chunks

    for chunk in book_chunks(harbour):
        assert "cleat" not in chunk.text


@pytest.mark.parametrize(("term", "initial"), [
    ("apple", "A"), ("\\alert", "A"), ("10pt", "#"), ("@", "#"), ("アクセント", "あ"),
    ("がっこう", "か"), ("ぱらめた", "は"), ("ん", "わ"), ("括弧", "他"),
])
def test_a_term_is_browsed_under_its_first_letter_or_kana_row(term, initial):
    assert bookindex.initial_of(term) == initial


@pytest.mark.parametrize(("group", "term", "initial"), [
    ("か", "括弧", "か"), ("記号", "\\!", "#"), ("Symbols", "!", "#"), ("", "括弧", "他"),
    ("B", "boats", "B"),
])
def test_a_printed_group_heading_decides_the_group(group, term, initial):
    assert bookindex.group_initial(group, term) == initial


def test_the_command_prints_a_parent_once_above_its_sub_entries(harbour):
    out = StringIO()
    call_command("bookindex", str(harbour.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1:4] == ["boats", "  sailing … 3 (pp. 4)", "  rowing … 7 (pp. 8)"]
    assert "buoy → see mark" in lines


@pytest.mark.parametrize(("text", "key"), [
    ("Keel,", "keel"), ("  Classpath,   setting ", "classpath, setting"), ("A4 用紙", "a4用紙"),
    ("ＬａＴｅＸ の良い点", "latexの良い点"), ("\\@makefnmark", "\\@makefnmark"),
])
def test_terms_are_looked_up_by_a_folded_key(text, key):
    assert bookindex.fold(text) == key


def test_the_index_tab_prints_a_parent_once_above_its_sub_entries(alice_client, harbour):
    body = alice_client.get(reverse("book-index", args=[harbour.pk]), {"g": "B"}).content.decode()
    assert body.count('<li class="index-parent-line">boats</li>') == 1
    assert "boats ›" not in body  # browsing: no parent before each sub-entry


def test_the_index_tab_speaks_japanese_to_a_japanese_browser(alice_client, harbour):
    body = alice_client.get(reverse("book-index", args=[harbour.pk]), HTTP_ACCEPT_LANGUAGE="ja",
                            ).content.decode()
    assert "目次とページ" in body and "索引を絞り込む" in body and "項目" in body
    assert "Contents &amp; pages" not in body and "entries as printed" not in body
    english = alice_client.get(reverse("book-index", args=[harbour.pk])).content.decode()
    assert "Contents &amp; pages" in english and "entries as printed on page" in english


def test_the_index_tab_s_filter_finds_figure_and_table_captions_too(alice_client, harbour):
    for position, (kind, number, caption) in enumerate(
            [("table", "1", "Knots and their uses"), ("figure", "2", "A sail plan")], 100):
        IndexEntry.objects.create(book=harbour, position=position, kind=kind, number=number,
                                  term=caption, key=bookindex.fold(caption), labels=["3"],
                                  pages=[4], page_ends=[4], printed_on=1)
    url = reverse("book-index", args=[harbour.pk])
    every = alice_client.get(url).content.decode()
    assert "Knots and their uses" in every and "A sail plan" in every
    sails = alice_client.get(url, {"q": "sail"}, HTTP_HX_REQUEST="true").content.decode()
    assert "A sail plan" in sails and "Knots and their uses" not in sails
    nothing = alice_client.get(url, {"q": "zebra"}).content.decode()
    assert "A sail plan" not in nothing and "No entry matches." in nothing
