"""Managing the shelf: a book's details, deleting it, its original file, collections."""

import pytest
from django.urls import reverse

from books import search
from books.deletion import delete_book
from books.models import Book, Collection, Heading, Page, ReviewFlag
from books.storage import blob_path, data_dir
from chat.models import Conversation, Message
from chat.signals import is_removal
from indexing import runner
from indexing.models import StageRun

pytestmark = pytest.mark.django_db


def details(book, **changes):
    data = {"title": book.title, "authors": book.authors, "year": book.year or "",
            "edition": book.edition, "languages": book.language_list,
            "collections": list(book.collections.values_list("pk", flat=True))}
    return {**data, **changes}


# Editing

def test_a_librarian_renames_a_book_and_gives_its_details(alice_client, boats):
    response = alice_client.post(reverse("book-edit", args=[boats.pk]), details(
        boats, title="  Boats,   a guide ", authors="Ann Reef;  Bo Line ; ", year="2019",
        edition="2nd", languages=["en", "fr"], new_collection="Seamanship"))
    assert response.status_code == 302 and response["Location"] == boats.get_absolute_url()
    boats.refresh_from_db()
    assert (boats.title, boats.authors, boats.year, boats.edition) == (
        "Boats, a guide", "Ann Reef; Bo Line", 2019, "2nd")
    assert boats.author_list == ["Ann Reef", "Bo Line"]
    assert boats.language_list == ["en", "fr"] and boats.languages_fixed
    assert [c.name for c in boats.collections.all()] == ["Seamanship"]
    page = alice_client.get(boats.get_absolute_url()).content.decode()
    assert "Boats, a guide" in page and "Ann Reef, Bo Line, 2019 · 2nd" in page
    assert "English, French" in page and "Seamanship" in page


def test_bad_details_are_refused_with_the_reason_and_nothing_changes(alice_client, boats):
    response = alice_client.post(reverse("book-edit", args=[boats.pk]),
                                 details(boats, title="   ", year="20190", languages=["xx"]))
    assert response.status_code == 400
    content = response.content.decode()
    assert "A book needs a title." in content
    assert "Give the year the book was published" in content
    assert "Select a valid choice" in content
    boats.refresh_from_db()
    assert boats.title == "A Short Guide to Boats" and boats.year is None


def test_languages_a_librarian_set_survive_reading_the_book_again(alice_client, boats):
    alice_client.post(reverse("book-edit", args=[boats.pk]), details(boats, languages=["ja"]))
    boats.stage_runs.filter(stage="ingest").update(status=StageRun.Status.PENDING)
    runner.run_pending("test-worker", book_id=boats.pk)
    boats.refresh_from_db()
    assert boats.language_list == ["ja"]


def test_the_edit_form_says_where_each_detail_came_from(alice_client, shelve, tmp_path):
    from tests.pdfs import make_pdf

    path = make_pdf(tmp_path / "scan-0001.pdf", ["Seamanship\nCopyright 2009 Ann Reef",
                                                  "1 Knots\nThe bowline makes a loop."])
    book = shelve(path)
    book.refresh_from_db()
    # No metadata, no title set large: the file's name; the copyright line gives the year.
    assert (book.title, book.year) == ("scan-0001", 2009)
    content = alice_client.get(reverse("book-edit", args=[book.pk])).content.decode()
    assert "From the file name." in content and "From the front pages (page 1)." in content


TITLE_PAGE = [[("HARBOURS", 40), ("A Study of Ports", 22), "", "", ("BY", 12),
               ("MARY OLSEN", 16), "", "", "", "", "", ("CHICAGO:", 12),
               ("LAKESIDE PRESS", 12), ("1938.", 12)],
              ["1 Ports", "A port is a place where ships load and unload."] * 3,
              ["2 Tides", "The tide rises and falls twice a day."] * 3]


def test_the_title_page_fills_in_the_book_and_a_librarians_edit_stays(alice_client, shelve,
                                                                       tmp_path):
    from tests.pdfs import make_book_pdf

    book = shelve(make_book_pdf(tmp_path / "scan-0002.pdf", TITLE_PAGE))
    book.refresh_from_db()
    assert (book.title, book.authors, book.year) == ("Harbours: A Study of Ports", "Mary Olsen",
                                                     1938)
    assert book.details_from["title"] == {"from": "title_page", "page": 1}
    content = alice_client.get(reverse("book-edit", args=[book.pk])).content.decode()
    assert content.count("From the title page (page 1).") == 3
    alice_client.post(reverse("book-edit", args=[book.pk]), details(book, title="Harbours"))
    book.stage_runs.filter(stage="ocr").update(status=StageRun.Status.PENDING)
    runner.run_pending("test-worker", book_id=book.pk)  # the pages read again
    book.refresh_from_db()
    assert (book.title, book.authors) == ("Harbours", "Mary Olsen")
    assert book.details_from["title"] == {"from": "person"}


def test_a_book_deleted_while_its_pages_are_read_is_left_alone(shelve, tmp_path, monkeypatch):
    from books import metadata
    from books.titlepage import Found
    from tests.pdfs import make_book_pdf

    book = shelve(make_book_pdf(tmp_path / "scan-0003.pdf", TITLE_PAGE), process=False)
    monkeypatch.setattr(metadata, "read_pages", lambda book: {
        "title": Found("Harbours", 1, "title_page")})
    Book.objects.filter(pk=book.pk).delete()
    assert metadata.fill_in(book) == [] and book.title == "scan-0003"


def test_a_japanese_books_colophon_names_it(shelve, tmp_path):
    from tests.pdfs import make_book_pdf

    text = ["もやい結びはロープの端に輪を作る。"] * 12
    pages = [[("結びの本", 30), "", "", ("結び書房", 12)]] + [text] * 10 + [
        [("結びの本", 16), "", "2009年3月1日 初版第1刷発行", "2015年4月1日 第3刷発行",
         "著者 山田太郎", "発行所 株式会社結び書房", "ISBN978-4-00-000000-0"]]
    book = shelve(make_book_pdf(tmp_path / "musubi.pdf", pages, fontname="japan"))
    book.refresh_from_db()
    assert (book.title, book.authors, book.year) == ("結びの本", "山田太郎", 2009)
    assert book.details_from["authors"] == {"from": "colophon", "page": 12}


def test_the_pdfs_own_title_stays_and_the_title_page_adds_the_rest(shelve, tmp_path):
    from tests.pdfs import make_book_pdf

    book = shelve(make_book_pdf(tmp_path / "harbours.pdf", TITLE_PAGE, title="Harbours (2nd ed.)"))
    book.refresh_from_db()
    assert (book.title, book.authors, book.year) == ("Harbours (2nd ed.)", "Mary Olsen", 1938)
    assert book.details_from["title"] == {"from": "metadata"}


def test_readers_cannot_edit_delete_or_manage_collections(bob_client, boats):
    for name in ("book-edit", "book-delete"):
        assert bob_client.get(reverse(name, args=[boats.pk])).status_code == 403
        assert bob_client.post(reverse(name, args=[boats.pk])).status_code == 403
    assert bob_client.post(reverse("collections"), {"name": "Mine"}).status_code == 403
    assert Book.objects.filter(pk=boats.pk).exists() and not Collection.objects.exists()


# The original file

def test_everyone_logged_in_downloads_the_original_file_as_registered(bob_client, boats,
                                                                      english_pdf):
    response = bob_client.get(reverse("book-original", args=[boats.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'attachment; filename="boats.pdf"' == response["Content-Disposition"]
    assert b"".join(response.streaming_content) == english_pdf.read_bytes()


# Deleting

def test_a_confirmation_comes_first_and_says_what_goes(alice_client, boats):
    content = alice_client.get(reverse("book-delete", args=[boats.pk])).content.decode()
    assert "Delete “A Short Guide to Boats”?" in content and "cannot be undone" in content
    assert Book.objects.filter(pk=boats.pk).exists()


def test_deleting_a_book_leaves_nothing_a_reader_could_reach(alice, alice_client, bob_client,
                                                             boats, fune, django_capture_on_commit_callbacks):
    from retrieval.index import files

    heading = Heading.objects.create(book=boats, position=99, level=1, title="9 Tides",
                                     status=Heading.Status.UNRESOLVED)
    ReviewFlag.objects.create(heading=heading, reason="check it")
    answer = _answer_citing(alice, boats, fune)
    images = data_dir() / "cache" / "pages" / boats.sha256
    assert "A Short Guide to Boats" in alice_client.get(reverse("review")).content.decode()
    assert images.is_dir() and files.book_dir(boats.pk).is_dir() and blob_path(boats.sha256).exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(reverse("book-delete", args=[boats.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("shelf")
    said = alice_client.get(reverse("shelf")).content.decode()
    assert "Deleted “A Short Guide to Boats” and everything made from it." in said
    assert not Book.objects.filter(pk=boats.pk).exists()
    assert not Page.objects.filter(book_id=boats.pk).exists()
    assert not Heading.objects.filter(book_id=boats.pk).exists()
    assert not StageRun.objects.filter(book_id=boats.pk).exists()
    assert not ReviewFlag.objects.exists()
    assert search.search("mainsail") == []
    assert not images.exists() and not files.book_dir(boats.pk).exists()
    assert not blob_path(boats.sha256).exists()
    assert blob_path(fune.sha256).exists()  # the other book keeps its file
    answer.refresh_from_db()
    assert [card["book_id"] for card in answer.results] == [fune.pk]
    assert answer.text == "" and is_removal(answer.note)  # it cited the deleted book
    for url in (reverse("book", args=[boats.pk]), reverse("page", args=[boats.pk, 2]),
                reverse("page-image", args=[boats.pk, 2, "thumb"]),
                reverse("clip", args=[boats.pk]) + "?start=1&end=1",
                reverse("book-original", args=[boats.pk]), f"/api/books/{boats.pk}"):
        assert bob_client.get(url).status_code == 404, url
    assert "A Short Guide to Boats" not in bob_client.get(reverse("shelf")).content.decode()
    assert "A Short Guide to Boats" not in alice_client.get(reverse("review")).content.decode()


def _answer_citing(user, cited, other) -> Message:
    conversation = Conversation.objects.create(user=user, title="Knots")
    card = {"n": 1, "book_id": cited.pk, "book_title": cited.title, "excerpt": "bowline"}
    kept = {"n": 2, "book_id": other.pk, "book_title": other.title, "excerpt": "もやい"}
    return Message.objects.create(conversation=conversation, role=Message.Role.ASSISTANT,
                                  text="The bowline is in [1], also [2].", results=[card, kept],
                                  recommendation=[{"book_id": cited.pk, "book_title": cited.title}])


def test_deleting_stops_a_running_stage_and_its_leftovers_are_removed(boats, tmp_path,
                                                                       django_capture_on_commit_callbacks):
    """A worker mid-stage loses its claim: it writes nothing more and cleans up after itself."""
    from retrieval.index import files

    run = boats.stage_runs.get(stage="embed")
    run.status = StageRun.Status.PENDING
    run.save()
    claimed = runner.claim_next("w1", stages=["embed"])
    sha256 = boats.sha256
    with django_capture_on_commit_callbacks(execute=True):
        delete_book(Book.objects.get(pk=boats.pk))
    assert files.book_dir(claimed.book_id).exists() is False
    # The worker still runs the stage it claimed; what it writes must not outlive it.
    assert runner.execute(claimed, "w1") == "cancelled"
    assert not files.book_dir(claimed.book_id).exists()
    assert not (data_dir() / "cache" / "pages" / sha256).exists()


def test_deleting_through_the_admin_removes_the_files_too(boats, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        Book.objects.get(pk=boats.pk).delete()
    assert not blob_path(boats.sha256).exists()
    assert not (data_dir() / "cache" / "pages" / boats.sha256).exists()


# Collections

def test_a_book_on_several_collections_and_the_shelf_filtered_by_one(alice_client, boats, fune):
    sea, japan = Collection.objects.create(name="Sea"), Collection.objects.create(name="Japan")
    boats.collections.add(sea)
    fune.collections.add(sea, japan)
    shelf = alice_client.get(reverse("shelf") + f"?collection={japan.pk}")
    assert shelf.context["books"] == [fune]
    assert shelf.context["chosen"] == japan
    all_books = alice_client.get(reverse("shelf"))
    assert set(all_books.context["books"]) == {boats, fune}
    content = all_books.content.decode()
    assert "Sea <span class=\"chip-count\">2</span>" in content


def test_search_can_be_limited_to_a_collection(bob_client, boats, fune):
    sea = Collection.objects.create(name="Sea")
    fune.collections.add(sea)
    def found(query):
        response = bob_client.get(reverse("search") + query)
        return [group.book for group in response.context["groups"]]

    assert found("?q=mainsail") == [boats]
    assert found(f"?q=mainsail&collection={sea.pk}") == []
    assert found(f"?q=結び&collection={sea.pk}") == [fune]


def test_librarians_make_rename_and_delete_collections(alice_client, boats):
    assert alice_client.post(reverse("collections"), {"name": " Knots  and  ropes "}).status_code == 302
    collection = Collection.objects.get()
    assert collection.name == "Knots and ropes"
    refused = alice_client.post(reverse("collections"), {"name": "knots and ROPES"})
    assert refused.status_code == 400 and "already a collection" in refused.content.decode()
    boats.collections.add(collection)
    alice_client.post(reverse("collection-rename", args=[collection.pk]), {"name": "Ropes"})
    collection.refresh_from_db()
    assert collection.name == "Ropes"
    alice_client.post(reverse("collection-delete", args=[collection.pk]))
    assert not Collection.objects.exists() and Book.objects.filter(pk=boats.pk).exists()


def test_chat_questions_can_be_limited_to_a_collection(bob_client, boats, fune, monkeypatch):
    from chat import actions

    sea = Collection.objects.create(name="Sea")
    fune.collections.add(sea)
    assert actions.check_question("Where?", "", str(sea.pk)) == ("Where?", [fune.pk])
    assert actions.check_question("Where?", str(fune.pk), str(sea.pk)) == ("Where?", [fune.pk])
    with pytest.raises(actions.AskError, match="not in the collection"):
        actions.check_question("Where?", str(boats.pk), str(sea.pk))
    empty = Collection.objects.create(name="Empty")
    with pytest.raises(actions.AskError, match="no books yet"):
        actions.check_question("Where?", "", str(empty.pk))
    with pytest.raises(actions.AskError, match="not on the shelf any more"):
        actions.check_question("Where?", "", "9999")
    page = bob_client.get(reverse("chat")).content.decode()
    assert 'name="collection"' in page and ">Sea</option>" in page


def test_the_edit_form_takes_authors_one_a_line(alice_client, boats):
    content = alice_client.get(reverse("book-edit", args=[boats.pk])).content.decode()
    assert '<textarea name="authors"' in content and "one name a line" in content
    alice_client.post(reverse("book-edit", args=[boats.pk]),
                      details(boats, authors="Ann Reef\r\nLee, Bo\r\n\r\n"))
    boats.refresh_from_db()
    assert boats.author_list == ["Ann Reef", "Lee, Bo"]
    content = alice_client.get(reverse("book-edit", args=[boats.pk])).content.decode()
    assert ">\nAnn Reef\nLee, Bo</textarea>" in content
    assert "Ann Reef; Lee, Bo" in alice_client.get(reverse("shelf")).content.decode()


def test_too_many_authors_are_refused_not_cut(alice_client, boats):
    names = "\n".join(f"Ann {n:03d}" for n in range(60))  # 479 characters typed, 538 stored
    response = alice_client.post(reverse("book-edit", args=[boats.pk]),
                                 details(boats, authors=names))
    assert response.status_code == 400
    assert "more than 500 characters together" in response.content.decode()


def test_the_authors_a_pdf_names_are_registered_as_several(shelve, tmp_path):
    import pymupdf

    from tests.pdfs import make_pdf

    path = make_pdf(tmp_path / "knots.pdf", ["Knots"])
    with pymupdf.open(path) as document:
        document.set_metadata({"author": "Ann Reef, Bo Line & Cy Knot"})
        document.saveIncr()
    assert shelve(path, process=False).author_list == ["Ann Reef", "Bo Line", "Cy Knot"]


def test_a_book_read_to_the_end_shows_one_ready_state_not_a_chip_per_stage(bob_client, boats):
    content = bob_client.get(reverse("shelf")).content.decode()
    assert '<p class="ready small"' in content and 'class="badge done"' not in content
    boats.stage_runs.filter(stage="embed").update(status=StageRun.Status.FAILED, done=3, total=9,
                                                  message="Broken.")
    content = bob_client.get(reverse("shelf")).content.decode()
    assert 'class="ready' not in content and 'class="badge' not in content  # one bar, no chips
    assert "Stopped: Preparing the sections for questions failed." in content
    assert "(step 7 of 7)" in content and "Broken." in content and "embed" not in content


def test_a_deleted_books_places_leave_the_guide_and_a_note_is_shown_once(alice, alice_client,
                                                                         boats, fune):
    first = _answer_citing(alice, boats, fune)
    first.results = [{**card, "page_start": 2, "page_end": 2} for card in first.results]
    place = {"book_id": boats.pk, "page_start": 2, "page_end": 2, "breadcrumb": ["1 Sails"]}
    first.guide = {"text": "Read [1].", "language": "en",
                   "places": [{**place, "n": 1}, {**place, "book_id": fune.pk, "n": 2}],
                   "refined": {"terms": ["sail"], "place": place, "n": 1}}
    first.save()
    second = Message.objects.create(conversation=first.conversation, role=Message.Role.ASSISTANT,
                                    results=[{"n": 1, "book_id": boats.pk, "excerpt": "reef",
                                              "page_start": 3, "page_end": 3}])
    alice_client.post(reverse("book-delete", args=[boats.pk]))
    first.refresh_from_db(), second.refresh_from_db()
    assert [place["book_id"] for place in first.guide["places"]] == [fune.pk]
    assert "refined" not in first.guide and second.results == []
    assert first.note == second.note == (
        "“A Short Guide to Boats” has been deleted from the shelf since; its places are no longer "
        "shown.") and is_removal(first.note)
    page = alice_client.get(first.conversation.get_absolute_url()).content.decode()
    assert page.count("has been deleted from the shelf since") == 1  # the note once
    assert page.count("Its places were in a book deleted since.") == 1  # the answer it emptied
    assert f"/books/{boats.pk}/" not in page and "Nothing on the shelf" not in page
    fune.delete()  # a second book gone: the note speaks of books
    first.refresh_from_db()
    assert first.note.startswith("Books cited here have been deleted") and first.guide is None


LABELS = {"en": "A Short Guide to Boats › 2 Knots, p. 3",
          "ja": "『A Short Guide to Boats』2 Knots（3ページ）"}


def _asked_between(user, boats, fune, question="Where are knots explained?") -> Message:
    """Return an answer that asked which of two places (one in each book) the reader means,
    stored as the chat stores one (its guide's question, its context's options)."""
    from chat import clarify
    from chat.cards import card
    from retrieval.results import Answer, Clarification, Option, Result

    def place(book, n, crumb):
        return Result(book_id=book.pk, book_title=book.title, breadcrumb=[crumb],
                      heading_id=None, page_start=3, page_end=3,
                      printed_start="3", printed_end="3", excerpt="", terms=[], score=1.0 / n)

    shown = [place(boats, 1, "2 Knots"), place(fune, 2, "第2章 結び")]
    language = "ja" if question.startswith("結び") else "en"
    asked = Clarification("Which one do you mean?",
                          (Option(shown[0], LABELS[language], "knot"),
                           Option(shown[1], "fune › 第2章 結び, p. 3", "結び")))
    answer = Answer("lookup", question, results=tuple(shown), clarify=asked, language=language)
    cards = [card(result, n) for n, result in enumerate(shown, 1)]
    conversation = Conversation.objects.create(user=user, title="Knots")
    Message.objects.create(conversation=conversation, role=Message.Role.USER, text=question)
    return Message.objects.create(
        conversation=conversation, role=Message.Role.ASSISTANT, results=cards,
        guide={"language": language, "places": [], "clarify": clarify.stored(answer, cards)},
        context=answer.context())


def test_a_deleted_books_option_in_an_old_question_is_not_offered(alice, alice_client,
                                                                  boats, fune):
    asked = _asked_between(alice, boats, fune)
    alice_client.post(reverse("book-delete", args=[boats.pk]))
    page = alice_client.get(asked.conversation.get_absolute_url()).content.decode()
    assert 'data-question="fune › 第2章 結び, p. 3"' in page  # the other book's option stays
    assert 'value="A Short Guide to Boats › 2 Knots, p. 3"' not in page  # nothing to click
    assert "A Short Guide to Boats › 2 Knots, p. 3" in page  # still read, marked as gone
    assert "in a book deleted from the shelf since" in page
    assert "has been deleted from the shelf since" in page  # the answer says it once too


def test_choosing_a_deleted_books_option_says_so(alice, alice_client, boats, fune):
    """A page opened before the deletion still shows the button: its answer says why
    nothing comes, and shows no other book's pages."""
    asked = _asked_between(alice, boats, fune)
    alice_client.post(reverse("book-delete", args=[boats.pk]))
    alice_client.post(reverse("chat-ask"), {"conversation": asked.conversation_id,
                                            "question": "A Short Guide to Boats › 2 Knots, p. 3"})
    reply = Message.objects.filter(role=Message.Role.ASSISTANT).latest("id")
    assert reply.results == []
    page = alice_client.get(asked.conversation.get_absolute_url()).content.decode()
    said = page[page.index(f'id="message-{reply.pk}"'):]
    assert "That place was in a book deleted from the shelf since" in said
    assert "Try other words" not in said and f"/books/{fune.pk}/" not in said  # no other pages


def test_a_japanese_question_says_its_option_is_gone_in_japanese(alice, alice_client, boats,
                                                                 fune):
    asked = _asked_between(alice, boats, fune, question="結びはどこに書いてありますか？")
    alice_client.post(reverse("book-delete", args=[boats.pk]))
    alice_client.post(reverse("chat-ask"), {"conversation": asked.conversation_id,
                                            "question": LABELS["ja"]})
    page = alice_client.get(asked.conversation.get_absolute_url(),
                            HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "— その後書棚から削除された本にありました" in page  # the question's language
    assert "その箇所は、その後書棚から削除された本にありました" in page
