import re
from io import StringIO

import pymupdf
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from books import headings
from books.review import decisions
from books.models import Heading, HeadingDecision, ReviewFlag
from books.review.items import build_item
from books.signals import headings_changed
from books.tree import build_tree
from indexing.runner import run_pending
from tests.pdfs import make_pdf

pytestmark = pytest.mark.django_db

BODY_TOP = "\n\n"  # below the band where running heads are, as in a real book
PAGES = [
    "Contents\n1 Sails ........ 1\n2 Knots ........ 3\n3 Anchors ........ 5",
    BODY_TOP + "1 Sails\nThe mainsail catches the wind and drives the boat forward.",
    BODY_TOP + "The jib sits in front of the mast and helps the boat point upwind.",
    BODY_TOP + "2 Knots\nThe bowline makes a fixed loop at the end of a rope.",
    BODY_TOP + "A clove hitch holds a rope to a post for a short while.",
    BODY_TOP + "3 Anchors\nA plough anchor digs into sand and mud.",
    BODY_TOP + "Index\nanchor 5, bowline 3, jib 2",
]


def read(shelve, path):
    """Register path and read its pages (the only stage review needs: lines with boxes)."""
    book = shelve(path, process=False)
    run_pending("test-worker", stages=["previews", "ocr"], book_id=book.pk)
    return book


@pytest.fixture
def boats(shelve, tmp_path):
    """A seven-page book with headings made here: 2 Knots unplaced and flagged."""
    book = read(shelve, make_pdf(tmp_path / "boats.pdf", PAGES, title="Boats"))
    book.toc_pages = [1]
    book.save()
    rows = [(1, "1 Sails", 2, "exact"), (1, "2 Knots", None, "unresolved"),
            (1, "3 Anchors", 6, "exact")]
    for position, (level, title, page, status) in enumerate(rows):
        Heading.objects.create(book=book, position=position, level=level, title=title,
                               printed_page=str(2 * position + 1), page=page, status=status,
                               toc_page=1, toc_line=position + 1)
    headings.restructure(book)
    ReviewFlag.objects.create(heading=heading(book, "2 Knots"), reason="Not found.", severity=2)
    return book


def heading(book, title) -> Heading:
    return book.headings.get(title=title)


def review_urls(book):
    knots = heading(book, "2 Knots")
    return [
        ("get", reverse("review")),
        ("get", reverse("review-item", args=[knots.pk])),
        ("get", reverse("review-toc-line", args=[knots.pk])),
        ("post", reverse("review-decide", args=[knots.pk, "place"])),
        ("post", reverse("review-decide", args=[knots.pk, "edit"])),
        ("post", reverse("review-decide", args=[knots.pk, "absent"])),
        ("post", reverse("review-decide", args=[knots.pk, "reject"])),
        ("post", reverse("review-decide", args=[knots.pk, "split"])),
    ]


def place(client, h, page, **extra):
    return client.post(reverse("review-decide", args=[h.pk, "place"]), {"page": page}, **extra)


def test_readers_are_forbidden_every_review_url(bob_client, boats):
    for method, url in review_urls(boats):
        assert getattr(bob_client, method)(url, {"page": 4}).status_code == 403, url
    assert not HeadingDecision.objects.exists()
    assert 'href="/review/' not in bob_client.get(reverse("shelf")).content.decode()
    assert "/review/" not in bob_client.get(reverse("book", args=[boats.pk])).content.decode()


def test_anonymous_users_are_sent_to_the_login_page(boats):
    client = Client()
    for method, url in review_urls(boats):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_decisions_need_the_csrf_token(alice, boats):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    knots = heading(boats, "2 Knots")
    assert place(client, knots, 4).status_code == 403
    assert not HeadingDecision.objects.exists()
    page = client.get(reverse("review-item", args=[knots.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert place(client, knots, 4, HTTP_X_CSRFTOKEN=token).status_code == 302
    assert HeadingDecision.objects.count() == 1


def test_the_queue_orders_by_book_then_severity_and_counts(alice_client, boats, shelve, tmp_path):
    other = read(shelve, make_pdf(tmp_path / "anchors.pdf", PAGES, title="Anchors"))
    low = Heading.objects.create(book=other, position=0, level=1, title="Low", status="unresolved")
    high = Heading.objects.create(book=other, position=1, level=1, title="High", status="fuzzy",
                                  page=3)
    ReviewFlag.objects.create(heading=low, reason="r", severity=1)
    ReviewFlag.objects.create(heading=high, reason="r", severity=3)
    ReviewFlag.objects.create(heading=high, reason="again", severity=1)
    ReviewFlag.objects.create(heading=heading(boats, "1 Sails"), reason="old", severity=5,
                              resolved_at="2026-01-01T00:00Z")
    assert [h.title for h in decisions.queue()] == ["High", "Low", "2 Knots"]  # Anchors < Boats
    assert decisions.open_counts() == {other.pk: 2, boats.pk: 1}
    assert decisions.open_total() == 3
    response = alice_client.get(reverse("review"))
    assert response.context["item"].heading == high
    content = response.content.decode()
    assert 'id="nav-review-count"' in content and ">3</span>" in content
    shelf = alice_client.get(reverse("shelf")).content.decode()
    assert "2 to review" in shelf and "1 to review" in shelf
    book_page = alice_client.get(reverse("book", args=[boats.pk])).content.decode()
    assert f'href="/review/?book={boats.pk}">1 to review' in book_page
    only_boats = alice_client.get(reverse("review") + f"?book={boats.pk}")
    assert [h.title for h in only_boats.context["queue"]] == ["2 Knots"]


def test_an_item_shows_neighbours_and_candidates_with_the_best_line(alice_client, boats):
    knots = heading(boats, "2 Knots")
    item = build_item(knots)
    assert (item.previous.title, item.next.title) == ("1 Sails", "3 Anchors")
    assert item.window == (2, 6)
    assert [c.page for c in item.candidates] == [2, 3, 4, 5, 6]
    best = next(c for c in item.candidates if c.best)
    assert best.page == 4 and best.match.text == "2 Knots"
    assert item.proposal == 4
    left, top, width, height = best.match.box
    assert 0 <= left < 50 and 0 <= top < 30 and 0 < width < 100 and 0 < height < 10
    content = alice_client.get(reverse("review-item", args=[knots.pk])).content.decode()
    assert 'aria-label="Page 4"' in content
    assert "Confirm on page 4" in content
    assert reverse("review-toc-line", args=[knots.pk]) in content
    assert "<script>" not in content


def test_the_toc_line_is_a_cropped_image(alice_client, boats, settings):
    knots = heading(boats, "2 Knots")
    response = alice_client.get(reverse("review-toc-line", args=[knots.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = pymupdf.Pixmap(b"".join(response.streaming_content))
    assert image.width == 1000 and 20 < image.height < 250  # a strip, not the page
    knots.toc_line = 99
    knots.save()
    assert alice_client.get(reverse("review-toc-line", args=[knots.pk])).status_code == 404


def test_placing_on_a_page_records_who_what_and_moves_on(alice_client, alice, boats):
    knots = heading(boats, "2 Knots")
    sails = heading(boats, "1 Sails")
    response = place(alice_client, knots, 4)
    assert response.status_code == 302
    knots.refresh_from_db()
    assert (knots.page, knots.status, knots.line) == (4, "reviewed", 0)
    decision = knots.decisions.get()
    assert (decision.user, decision.action) == (alice, "move")
    assert decision.before["page"] is None and decision.after["page"] == 4
    assert decision.before["status"] == "unresolved" and decision.after["status"] == "reviewed"
    flag = knots.flags.get()
    assert (flag.resolved_by, flag.resolution) == (alice, "move") and flag.resolved_at
    sails.refresh_from_db()
    assert sails.page_end == 3  # the section now ends before Knots
    assert knots.page_end == 5
    assert decisions.open_total() == 0
    assert response["Location"] == reverse("review")


def test_confirming_a_placed_heading_keeps_its_page(alice_client, boats):
    anchors = heading(boats, "3 Anchors")
    place(alice_client, anchors, 6)
    anchors.refresh_from_db()
    assert (anchors.page, anchors.status) == (6, "reviewed")
    assert anchors.decisions.get().action == "confirm"


def test_a_page_outside_the_book_is_refused(alice_client, boats):
    knots = heading(boats, "2 Knots")
    for page in (0, 8, "x"):
        response = place(alice_client, knots, page, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert "is not in this book" in response.content.decode() or "as a number" in \
            response.content.decode()
    knots.refresh_from_db()
    assert knots.page is None and not knots.decisions.exists()
    assert knots.flags.get().resolved_at is None


def test_marking_absent_keeps_the_heading_with_no_page(alice_client, boats):
    knots = heading(boats, "2 Knots")
    alice_client.post(reverse("review-decide", args=[knots.pk, "absent"]))
    knots.refresh_from_db()
    assert (knots.status, knots.page, knots.page_end) == ("absent", None, None)
    assert heading(boats, "1 Sails").page_end == 5  # ranges skip the entry not in the body
    tree = build_tree(boats.headings.order_by("position"))
    assert [node.heading.title for node in tree] == ["1 Sails", "2 Knots", "3 Anchors"]
    content = alice_client.get(reverse("book", args=[boats.pk])).content.decode()
    assert "not in body" in content and "1 not in the body" in content


def test_rejecting_removes_the_entry_from_the_tree_but_keeps_its_history(alice_client, boats):
    sub = Heading.objects.create(book=boats, position=5, level=2, title="2.1 Bowline",
                                 page=4, status="exact")
    Heading.objects.filter(title="3 Anchors").update(position=4)
    Heading.objects.filter(title="2 Knots").update(position=2)
    Heading.objects.filter(pk=sub.pk).update(position=3)  # under 2 Knots
    headings.restructure(boats)
    knots = heading(boats, "2 Knots")
    assert heading(boats, "2.1 Bowline").parent_id == knots.pk
    alice_client.post(reverse("review-decide", args=[knots.pk, "reject"]))
    assert heading(boats, "2.1 Bowline").parent_id == heading(boats, "1 Sails").pk
    knots.refresh_from_db()
    assert knots.status == "rejected" and knots.decisions.get().action == "reject"
    titles = [node.heading.title for node in build_tree(boats.headings.order_by("position"))]
    assert "2 Knots" not in titles
    content = alice_client.get(reverse("book", args=[boats.pk])).content.decode()
    assert "2 Knots" not in content and "1 rejected by a reviewer" in content
    history = alice_client.get(reverse("heading", args=[boats.pk, knots.pk]))
    assert "Rejected as not a real entry" in history.content.decode()


def test_the_toc_command_leaves_rejected_entries_out(alice, boats):
    decisions.do_reject(heading(boats, "3 Anchors"), alice)
    decisions.do_absent(heading(boats, "2 Knots"), alice)
    out = StringIO()
    call_command("toc", boats.pk, stdout=out)
    assert "Anchors" not in out.getvalue()
    assert "2 Knots … not in the body" in out.getvalue()


def test_editing_fixes_the_title_and_level_and_keeps_the_flag_open(alice_client, boats):
    knots = heading(boats, "2 Knots")
    response = alice_client.post(
        reverse("review-decide", args=[knots.pk, "edit"]),
        {"title": "2  Knots and hitches", "level": 2}, HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response.context["item"].heading.title == "2 Knots and hitches"
    knots.refresh_from_db()
    assert (knots.title, knots.level, knots.number) == ("2 Knots and hitches", 2, "2")
    assert knots.parent_id == heading(boats, "1 Sails").pk
    decision = knots.decisions.get()
    assert decision.before["title"] == "2 Knots" and decision.after["level"] == 2
    assert knots.flags.get().resolved_at is None
    bad = alice_client.post(reverse("review-decide", args=[knots.pk, "edit"]),
                            {"title": " ", "level": 1}, HTTP_HX_REQUEST="true")
    assert "cannot be empty" in bad.content.decode()
    assert knots.decisions.count() == 1


def test_htmx_gets_the_next_item_and_the_queue_out_of_band(alice_client, boats):
    sails = heading(boats, "1 Sails")
    ReviewFlag.objects.create(heading=sails, reason="Fuzzy.", severity=3)
    knots = heading(boats, "2 Knots")
    response = place(alice_client, sails, 2, HTTP_HX_REQUEST="true")
    content = response.content.decode()
    assert 'id="review-item"' in content and "2 Knots" in content
    assert '<aside id="review-side" class="review-side" hx-swap-oob="true">' in content
    assert '<span id="nav-review-count" class="count" title="Headings to review" ' \
        'hx-swap-oob="true">1</span>' in content
    assert response["HX-Push-Url"] == reverse("review-item", args=[knots.pk])
    assert "Recent decisions" in content
    done = place(alice_client, knots, 4, HTTP_HX_REQUEST="true").content.decode()
    assert "Nothing to review" in done


def test_every_decision_sends_headings_changed(alice, boats):
    seen = []

    def listener(sender, book, **kwargs):
        seen.append(book.pk)

    headings_changed.connect(listener)
    try:
        decisions.do_place(heading(boats, "2 Knots"), alice, 4)
        decisions.do_edit(heading(boats, "2 Knots"), alice, "2 Knots", 1)
    finally:
        headings_changed.disconnect(listener)
    assert seen == [boats.pk, boats.pk]


def test_a_failing_listener_undoes_the_decision(alice, boats):
    def broken(sender, book, **kwargs):
        raise RuntimeError("index unavailable")

    headings_changed.connect(broken)
    try:
        with pytest.raises(RuntimeError):
            decisions.do_place(heading(boats, "2 Knots"), alice, 4)
    finally:
        headings_changed.disconnect(broken)
    knots = heading(boats, "2 Knots")
    assert knots.page is None and not knots.decisions.exists()


def test_the_tree_links_each_heading_to_its_history(bob_client, alice, boats):
    knots = heading(boats, "2 Knots")
    decisions.do_place(knots, alice, 4)
    content = bob_client.get(reverse("book", args=[boats.pk])).content.decode()
    url = reverse("heading", args=[boats.pk, knots.pk])
    assert f'href="{url}"' in content
    history = bob_client.get(url).content.decode()
    assert "Moved to another page" in history and "alice" in history
    assert "Review this heading" not in history  # readers cannot review


def test_the_queue_is_empty_honestly(alice_client, boats):
    ReviewFlag.objects.all().delete()
    response = alice_client.get(reverse("review"))
    assert response.status_code == 200 and response.context["item"] is None
    assert "Nothing to review" in response.content.decode()


def test_the_api_lists_shows_and_decides(alice_client, alice, boats):
    knots = heading(boats, "2 Knots")
    [queued] = alice_client.get("/api/review").json()
    assert (queued["id"], queued["book_title"], queued["severity"]) == (knots.pk, "Boats", 2)
    shown = alice_client.get(f"/api/review/{knots.pk}").json()
    assert shown["proposal"] == 4 and shown["previous"]["title"] == "1 Sails"
    assert [c["page"] for c in shown["candidates"] if c["best"]] == [4]
    refused = alice_client.post(f"/api/review/{knots.pk}/place", {"page": 99},
                                content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_page"
    placed = alice_client.post(f"/api/review/{knots.pk}/place", {"page": 4},
                               content_type="application/json").json()
    assert placed["heading"]["page"] == 4 and placed["decision"]["user"] == "alice"
    assert alice_client.get("/api/review").json() == []


def test_readers_are_forbidden_the_review_api(bob_client, boats):
    knots = heading(boats, "2 Knots")
    assert bob_client.get("/api/review").status_code == 403
    assert bob_client.get(f"/api/review/{knots.pk}").status_code == 403
    for action in ("place", "edit", "absent", "reject", "split"):
        response = bob_client.post(f"/api/review/{knots.pk}/{action}",
                                   {"page": 4, "title": "x", "level": 1, "first": "x",
                                    "second": "y"},
                                   content_type="application/json")
        assert response.status_code == 403, action
    assert not HeadingDecision.objects.exists()
    assert Client().get("/api/review").status_code == 401


def test_the_contents_page_is_never_a_candidate_match(boats):
    sails = heading(boats, "1 Sails")
    Heading.objects.filter(pk=sails.pk).update(page=None, status="unresolved")
    # OCR often reads a contents line as title and page number apart, leader dots lost.
    boats.pages.filter(number=1).update(lines=[
        {"text": "Contents", "box": [50, 100, 110, 112], "conf": 1.0, "dir": "h"},
        {"text": "1 Sails", "box": [50, 120, 95, 132], "conf": 1.0, "dir": "h"},
        {"text": "1", "box": [360, 120, 366, 132], "conf": 1.0, "dir": "h"},
    ])
    item = build_item(heading(boats, "1 Sails"))
    assert item.previous is None and item.window == (1, 6)
    by_page = {c.page: c for c in item.candidates}
    assert by_page[1].match is None  # the TOC line "1 Sails ..... 1" is not the heading
    assert by_page[2].best and item.proposal == 2


def test_a_crop_spans_the_page_across_the_line():
    from books.rendering import crop_rect

    assert crop_rect((400, 600), (50, 100, 200, 112), vertical=False) == (0, 82, 400, 130)
    assert crop_rect((400, 600), (300, 50, 312, 400), vertical=True) == (282, 0, 330, 600)
    assert crop_rect((400, 600), (50, 2, 200, 14), vertical=False)[1] == 0  # kept on the page


def test_splitting_makes_two_entries_and_queues_the_second(alice_client, alice, boats):
    knots = heading(boats, "2 Knots")
    knots.title = "2 Knots 3 3 Anchors"
    knots.save()
    content = alice_client.get(reverse("review-item", args=[knots.pk])).content.decode()
    assert 'value="2 Knots 3"' in content and 'value="3 Anchors"' in content  # the guess
    response = alice_client.post(reverse("review-decide", args=[knots.pk, "split"]),
                                 {"first": "2 Knots 3", "second": "3 Anchors on rope"})
    assert response.status_code == 302
    titles = list(boats.headings.order_by("position").values_list("title", "printed_page"))
    assert titles == [("1 Sails", "1"), ("2 Knots", "3"), ("3 Anchors on rope", "3"),
                      ("3 Anchors", "5")]
    new = heading(boats, "3 Anchors on rope")
    assert new.status == Heading.Status.UNRESOLVED and new.flags.filter(
        resolved_at__isnull=True).exists()
    assert heading(boats, "2 Knots").decisions.get().action == HeadingDecision.Action.SPLIT
    assert new.decisions.get().before == {"split_from": knots.pk}


def test_a_split_needs_two_titles(alice_client, boats):
    knots = heading(boats, "2 Knots")
    response = alice_client.post(reverse("review-decide", args=[knots.pk, "split"]),
                                 {"first": "2 Knots", "second": " "}, HTTP_HX_REQUEST="true")
    assert "Give both entries a title." in response.content.decode()
    assert boats.headings.count() == 3


def test_the_item_says_what_its_severity_means(alice_client, boats):
    knots = heading(boats, "2 Knots")
    content = alice_client.get(reverse("review-item", args=[knots.pk])).content.decode()
    assert "Severity 2 of 3: The heading is not placed" in content
    [flag] = alice_client.get(f"/api/review/{knots.pk}").json()["open_flags"]
    assert flag["severity_reason"].startswith("The heading is not placed")


def test_a_spread_candidate_shows_the_half_with_the_heading(alice_client, boats):
    knots = heading(boats, "2 Knots")
    page = boats.pages.get(number=4)
    width = page.width
    page.lines = [{**line, "box": [line["box"][0] + width, line["box"][1],
                                   line["box"][2] + width, line["box"][3]]}
                  for line in page.lines]  # the page's text on the right half
    page.width, page.gutter = 2 * width, width
    page.save()
    item = build_item(knots)
    [four] = [c for c in item.candidates if c.page == 4]
    assert four.side == "right" and four.match is not None
    assert 0 <= four.match.box[0] < 100
    content = alice_client.get(reverse("review-item", args=[knots.pk])).content.decode()
    assert "half-right" in content and "(right half)" in content
