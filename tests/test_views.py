import pytest
from django.test import Client
from django.urls import reverse

from books.models import Book
from indexing.models import StageRun

pytestmark = pytest.mark.django_db


def reader_urls(book):
    return [
        reverse("shelf"),
        reverse("search") + "?q=bowline",
        reverse("book", args=[book.pk]),
        reverse("book-progress", args=[book.pk]),
        reverse("book-search", args=[book.pk]) + "?q=bowline",
        reverse("page", args=[book.pk, 2]),
        reverse("page-image", args=[book.pk, 2, "thumb"]),
    ]


def test_anonymous_users_are_sent_to_the_login_page(boats):
    client = Client()
    for url in reader_urls(boats) + [reverse("register")]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_a_reader_sees_every_reader_page(bob_client, boats):
    for url in reader_urls(boats):
        assert bob_client.get(url).status_code == 200, url


def test_a_reader_cannot_register_or_retry(bob_client, boats, english_pdf):
    with open(english_pdf, "rb") as handle:
        assert bob_client.post(reverse("register"), {"files": [handle]}).status_code == 403
    assert bob_client.post(reverse("retry-stage", args=[boats.pk, "ocr"])).status_code == 403


def test_the_shelf_shows_books_with_their_stages(bob_client, boats):
    response = bob_client.get(reverse("shelf"))
    assert response.context["books"] == [boats]
    content = response.content.decode()
    assert "A Short Guide to Boats" in content
    assert "3 pages · English" in content
    assert 'id="register"' not in content  # readers get no upload form
    assert "every 3s" not in content  # nothing is processing: no polling


def test_the_shelf_polls_while_a_book_is_processing(alice_client, shelve, english_pdf):
    shelve(english_pdf, process=False)
    content = alice_client.get(reverse("shelf")).content.decode()
    assert 'hx-trigger="every 3s"' in content
    assert 'id="register"' in content
    partial = alice_client.get(reverse("shelf"), HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<section id="book-list"')


def test_an_empty_shelf_says_what_to_do(alice_client):
    assert "Drop a PDF above to register your first book." in alice_client.get("/").content.decode()


def test_the_shelf_query_count_does_not_grow_with_books(alice_client, shelve, tmp_path,
                                                       django_assert_max_num_queries):
    from tests.pdfs import make_pdf

    for index in range(5):
        shelve(make_pdf(tmp_path / f"b{index}.pdf", [f"book {index}"]), process=False)
    # + the collections bar and each book's collections: two queries, however many books;
    # + the books being read, the line of books waiting and the stages' recorded pace: three
    with django_assert_max_num_queries(13):
        alice_client.get(reverse("shelf"))


def test_a_librarian_registers_several_files_at_once(alice_client, english_pdf, japanese_pdf, tmp_path):
    bad = tmp_path / "notes.pdf"
    bad.write_text("not a pdf")
    with open(english_pdf, "rb") as one, open(japanese_pdf, "rb") as two, open(bad, "rb") as three:
        response = alice_client.post(reverse("register"), {"files": [one, two, three]}, follow=True)
    messages = [str(message) for message in response.context["messages"]]
    assert messages == [
        "boats.pdf: registered as “A Short Guide to Boats”.",
        "fune.pdf: registered as “fune”.",
        "notes.pdf: This is not a PDF file (it has no PDF header).",
    ]
    assert Book.objects.count() == 2


def test_an_oversized_upload_is_refused_while_it_arrives(alice_client, english_pdf, settings):
    settings.LIBRARIAN_MAX_UPLOAD_MB = 1
    big = english_pdf.parent / "big.pdf"
    big.write_bytes(english_pdf.read_bytes() + b"\n%" + b"x" * (2 * 1024 * 1024))
    with open(big, "rb") as handle:
        response = alice_client.post(reverse("register"), {"files": [handle]}, follow=True)
    [message] = [str(message) for message in response.context["messages"]]
    assert message == "big.pdf: The file is larger than the limit of 1.0 MB."
    assert not Book.objects.exists()


def test_registering_nothing_says_so(alice_client):
    response = alice_client.post(reverse("register"), follow=True)
    [message] = [str(message) for message in response.context["messages"]]
    assert message == "Choose one or more PDF files to register."


def test_the_book_page_shows_progress_and_polls_only_while_active(alice_client, shelve, english_pdf):
    book = shelve(english_pdf, process=False)
    url = reverse("book", args=[book.pk])
    before = alice_client.get(url).content.decode()
    assert 'hx-trigger="every 2s"' in before
    assert "<details>" not in before  # the stages stay in view while they run
    from indexing.runner import run_pending

    run_pending("w", book_id=book.pk)
    content = alice_client.get(url).content.decode()
    assert "every 2s" not in content
    assert "3 pages, 3 from the text layer" in content
    assert "3 of 3 pages searchable" in content
    assert "<details>" in content and "all 7 stages in" in content  # folded once done


def test_the_poll_that_sees_the_run_end_reloads_the_page_once(alice_client, shelve, english_pdf):
    from indexing.runner import run_pending

    book = shelve(english_pdf, process=False)
    progress = reverse("book-progress", args=[book.pk])
    assert "HX-Refresh" not in alice_client.get(progress, HTTP_HX_REQUEST="true").headers
    run_pending("w", book_id=book.pk)
    assert alice_client.get(progress, HTTP_HX_REQUEST="true").headers["HX-Refresh"] == "true"
    assert "HX-Refresh" not in alice_client.get(progress).headers  # not for a plain GET


def test_a_failed_stage_shows_its_error_and_a_retry_button(alice_client, boats):
    StageRun.objects.filter(book=boats, stage="ocr").update(
        status="failed", message="The stored PDF could not be opened."
    )
    progress = reverse("book-progress", args=[boats.pk])
    content = alice_client.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert "The stored PDF could not be opened." in content
    assert reverse("retry-stage", args=[boats.pk, "ocr"]) in content
    response = alice_client.post(reverse("retry-stage", args=[boats.pk, "ocr"]), HTTP_HX_REQUEST="true")
    assert "every 2s" in response.content.decode()  # queued again, so polling resumes
    assert StageRun.objects.get(book=boats, stage="ocr").status == "pending"


def test_search_within_a_book_highlights_and_links_to_the_page(bob_client, boats):
    url = reverse("book-search", args=[boats.pk])
    content = bob_client.get(url, {"q": "bowline"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<mark>bowline</mark>" in content
    assert reverse("page", args=[boats.pk, 3]) + "?q=bowline" in content


def test_search_says_when_nothing_matches(bob_client, boats):
    content = bob_client.get(reverse("search"), {"q": "anchor"}).content.decode()
    assert "Nothing found." in content


def test_the_page_view_shows_the_image_text_and_neighbours(bob_client, boats):
    response = bob_client.get(reverse("page", args=[boats.pk, 2]), {"q": "mainsail"})
    content = response.content.decode()
    assert reverse("page-image", args=[boats.pk, 2, "page"]) in content
    assert "<mark>mainsail</mark>" in content
    assert reverse("page", args=[boats.pk, 1]) in content
    assert reverse("page", args=[boats.pk, 3]) in content
    assert bob_client.get(reverse("page", args=[boats.pk, 4])).status_code == 404


def test_page_images_are_png_and_bounded(bob_client, boats, settings):
    import pymupdf

    response = bob_client.get(reverse("page-image", args=[boats.pk, 1, "page"]))
    assert response["Content-Type"] == "image/png"
    image = pymupdf.Pixmap(b"".join(response.streaming_content))
    assert image.width == 1400
    settings.LIBRARIAN_MAX_RENDER_PIXELS = 100_000
    response = bob_client.get(reverse("page-image", args=[boats.pk, 2, "page"]))
    image = pymupdf.Pixmap(b"".join(response.streaming_content))
    assert image.width * image.height <= 100_000
    assert bob_client.get(reverse("page-image", args=[boats.pk, 1, "huge"])).status_code == 404


def test_images_rendered_on_request_are_kept_within_the_cache_limit(bob_client, boats):
    import os

    from books import rendering
    from books.storage import cache_dir

    def served(number):
        response = bob_client.get(reverse("page-image", args=[boats.pk, number, "page"]))
        assert response.status_code == 200
        return b"".join(response.streaming_content)

    first = served(1)
    views = cache_dir(rendering.VIEWS, boats.sha256)
    for number in (2, 3):
        served(number)
    for age, number in enumerate((2, 3, 1)):  # page 1 served last of all
        os.utime(views / f"{number}-1400.png", (1_000_000 + age, 1_000_000 + age))
    sizes = {p.name: p.stat().st_size for p in views.iterdir()}
    thumbs = sorted(p.name for p in cache_dir(rendering.PREVIEWS, boats.sha256).iterdir())

    assert rendering.trim(limit=sum(sizes.values())) == 0
    assert rendering.trim(limit=sizes["1-1400.png"] + sizes["3-1400.png"] // 2) == 2
    assert sorted(p.name for p in views.iterdir()) == ["1-1400.png"]
    assert sorted(p.name for p in cache_dir(rendering.PREVIEWS, boats.sha256).iterdir()) == thumbs
    assert served(2) and served(1) == first  # rendered again, or served from the cache


def test_a_new_image_sets_off_a_trim_at_most_every_few_seconds(bob_client, boats, monkeypatch):
    from books import rendering

    calls = []
    monkeypatch.setattr(rendering, "trim", lambda: calls.append(1))
    monkeypatch.setattr(rendering, "_last_trim", [float("-inf")])
    for number in (1, 2, 1):  # two new images, then one from the cache (no trim)
        response = bob_client.get(reverse("page-image", args=[boats.pk, number, "large"]))
        assert response.status_code == 200
    assert calls == [1]  # the second new image came within TRIM_SECONDS of the first


def test_images_earlier_versions_rendered_beside_the_previews_are_removed(tmp_path):
    from books.rendering import remove_served_previews

    folder = tmp_path / "pages" / ("a" * 64)
    folder.mkdir(parents=True)
    for name in ("1-240.png", "12-240.png", "1-1400.png", "3-2400.png", "crop-2-0-10-400-60.png"):
        (folder / name).write_bytes(b"png")
    assert remove_served_previews(tmp_path) == 3
    assert sorted(p.name for p in folder.iterdir()) == ["1-240.png", "12-240.png"]


def test_the_admin_site_lists_every_model(client, boats, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="root-password")
    client.force_login(admin)
    for model in ("books/book", "books/page", "books/heading", "books/reviewflag",
                  "indexing/stagerun"):
        assert client.get(f"/admin/{model}/").status_code == 200, model
    assert client.get(f"/admin/books/book/{boats.pk}/change/").status_code == 200


def test_unknown_pages_get_a_friendly_404(bob_client):
    response = bob_client.get("/books/999/")
    assert response.status_code == 404
    assert "Back to the shelf" in response.content.decode()


def test_languages_are_shown_by_name():
    from books.templatetags.shelf import language_names

    assert language_names("ja,latn") == "Japanese"  # "latn" named a script, not a language
    assert language_names("ja,fr") == "Japanese, French"
    assert language_names("en") == "English"
    assert language_names("") == ""
