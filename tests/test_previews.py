"""The previews stage: a thumbnail of every page made ahead, served from the cache."""

import pytest
from django.urls import reverse

from books.rendering import image_path
from books.storage import data_dir

pytestmark = pytest.mark.django_db


def previews_of(book):
    return data_dir() / "cache" / "pages" / book.sha256


def test_every_page_gets_a_thumbnail_before_it_is_asked_for(shelve, english_pdf, bob_client):
    book = shelve(english_pdf)
    run = book.stage_runs.get(stage="previews")
    assert run.status == "done" and run.summary == "3 of 3 page previews (3 made now)."
    made = image_path(previews_of(book), 2, "thumb")
    assert made.read_bytes().startswith(b"\x89PNG")
    stamp = made.stat().st_mtime_ns
    response = bob_client.get(reverse("page-image", args=[book.pk, 2, "thumb"]))
    assert response.status_code == 200 and made.stat().st_mtime_ns == stamp  # served, not redrawn


def test_running_again_makes_only_what_is_missing(shelve, english_pdf):
    from indexing import runner

    book = shelve(english_pdf)
    image_path(previews_of(book), 1, "thumb").unlink()
    book.stage_runs.filter(stage="previews").update(status="pending")
    runner.run_pending("test-worker", book_id=book.pk)
    assert book.stage_runs.get(stage="previews").summary == "3 of 3 page previews (1 made now)."


def test_a_page_that_cannot_be_drawn_does_not_hold_the_book_back(shelve, english_pdf, monkeypatch):
    from books import rendering

    real = rendering.render_page

    def fail_on_two(page, width, target, bounds, clip=None):
        if page.number == 1:
            raise RuntimeError("broken drawing")
        return real(page, width, target, bounds, clip)

    monkeypatch.setattr(rendering, "render_page", fail_on_two)
    book = shelve(english_pdf)
    run = book.stage_runs.get(stage="previews")
    assert run.status == "done" and "pages 2 could not be drawn" in run.summary
    assert book.stage_runs.get(stage="ocr").status == "done"


def test_the_upload_script_gets_each_files_outcome_as_json(alice_client, english_pdf, tmp_path):
    bad = tmp_path / "notes.pdf"
    bad.write_text("not a pdf")
    with open(english_pdf, "rb") as handle:
        good = alice_client.post(reverse("register"), {"files": [handle]},
                                 HTTP_ACCEPT="application/json").json()
    [outcome] = good["outcomes"]
    assert outcome["ok"] and outcome["message"] == "registered as “A Short Guide to Boats”"
    with open(bad, "rb") as handle:
        [refused] = alice_client.post(reverse("register"), {"files": [handle]},
                                      HTTP_ACCEPT="application/json").json()["outcomes"]
    assert refused == {"file": "notes.pdf", "ok": False,
                       "message": "This is not a PDF file (it has no PDF header)."}
    shown = [str(m) for m in alice_client.get(reverse("shelf")).context["messages"]]
    assert "boats.pdf: registered as “A Short Guide to Boats”." in shown
