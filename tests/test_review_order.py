"""The review queue keeps the contents tree whole: placements out of order are asked about."""

from types import SimpleNamespace

import pytest
from django.urls import reverse

from books.models import HeadingDecision, ReviewFlag
from books.review import decisions
from books.review.order import order_problems
from tests.test_review import boats, heading  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def row(pk, level, title, page, status="exact"):
    return SimpleNamespace(pk=pk, level=level, title=title, page=page, status=status)


TREE = [row(1, 1, "1 Sails", 2), row(2, 2, "1.1 Jib", None, "unresolved"),
        row(3, 2, "1.2 Mast", 5), row(4, 1, "2 Knots", 8), row(5, 2, "2.1 Hitch", 9)]


@pytest.mark.parametrize("page, words", [
    (3, None), (2, None), (5, None),  # between its neighbours, in its parent
    (1, "Its parent “1 Sails” starts on PDF page 2"),
    (6, "“1.2 Mast”, after it in the contents, is on PDF page 5"),
])
def test_order_problems(page, words):
    problems = order_problems(TREE, TREE[1], page)
    assert (words is None and problems == []) or any(words in p for p in problems)


def test_a_section_placed_past_its_parents_end_is_a_problem():
    tree = [*TREE[:2], row(4, 1, "2 Knots", 8)]
    assert order_problems(tree, tree[1], 9) == [
        "“2 Knots”, after it in the contents, is on PDF page 8, before page 9.",
        "Its parent “1 Sails” ends where “2 Knots” starts, on PDF page 8, before page 9."]


def test_rejected_and_absent_headings_bound_nothing():
    tree = [row(1, 1, "1 Sails", 2), row(2, 1, "Noise", 7, "rejected"),
            row(3, 1, "2 Knots", None, "unresolved"), row(4, 1, "3 Anchors", 9)]
    assert order_problems(tree, tree[2], 5) == []


def test_a_placement_out_of_order_needs_confirmation(boats, alice):  # noqa: F811
    knots = heading(boats, "2 Knots")
    with pytest.raises(decisions.NeedsConfirmation) as asked:
        decisions.do_place(knots, alice, 7)  # after 3 Anchors (PDF page 6)
    assert asked.value.page == 7 and "3 Anchors" in asked.value.message
    knots.refresh_from_db()
    assert knots.page is None and not HeadingDecision.objects.exists()
    decisions.do_place(knots, alice, 7, confirmed=True)
    knots.refresh_from_db()
    assert knots.page == 7


def test_the_page_asks_before_placing_out_of_order_and_places_once_confirmed(
        boats, alice_client):  # noqa: F811
    knots = heading(boats, "2 Knots")
    url = reverse("review-decide", args=[knots.pk, "place"])
    asked = alice_client.post(url, {"page": "7"}, HTTP_HX_REQUEST="true")
    html = asked.content.decode()
    assert "after it in the contents, is on PDF page 6" in html
    assert "Place on PDF page 7 anyway" in html
    knots.refresh_from_db()
    assert knots.page is None
    alice_client.post(url, {"page": "7", "confirm": "yes"}, HTTP_HX_REQUEST="true")
    knots.refresh_from_db()
    assert knots.page == 7


def test_the_api_refuses_an_out_of_order_page_unless_confirmed(boats, alice_client):  # noqa: F811
    knots = heading(boats, "2 Knots")
    url = f"/api/review/{knots.pk}/place"
    refused = alice_client.post(url, {"page": 7}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "breaks_order"
    placed = alice_client.post(url, {"page": 7, "confirm": True}, content_type="application/json")
    assert placed.status_code == 200


def test_the_another_page_box_says_it_takes_a_pdf_page(boats, alice_client):  # noqa: F811
    html = alice_client.get(reverse("review")).content.decode()
    assert "Another page: PDF page (1–7), not the printed number" in html


def test_an_agent_note_says_so_once_its_neighbours_changed(
        boats, alice, alice_client):  # noqa: F811
    knots = heading(boats, "2 Knots")
    ReviewFlag.objects.filter(heading=knots).update(agent_reason="Not between pages 2 and 6.")
    page = alice_client.get(reverse("review")).content.decode()
    assert "Not between pages 2 and 6." in page and "Written before its neighbours" not in page
    decisions.do_place(heading(boats, "3 Anchors"), alice, 5)
    page = alice_client.get(reverse("review")).content.decode()
    assert "Written before its neighbours changed: it now lies between “1 Sails” (PDF page 2)" \
        " and “3 Anchors” (PDF page 5)" in page


def test_without_javascript_the_question_comes_with_the_whole_page(
        boats, alice_client):  # noqa: F811
    knots = heading(boats, "2 Knots")
    asked = alice_client.post(reverse("review-decide", args=[knots.pk, "place"]), {"page": "7"})
    assert asked.status_code == 409
    html = asked.content.decode()
    assert "<h1>Review</h1>" in html and 'name="confirm" value="yes"' in html
