from django import template
from django.utils.translation import gettext_lazy as _

from books.models import Heading, HeadingDecision, ReviewFlag
from books.review import decisions

register = template.Library()

FIELD_NAMES = {"title": _("title"), "level": _("level"), "printed_page": _("printed page"),
               "page": _("page"), "page_end": _("last page"), "status": _("status")}


@register.simple_tag
def open_review_count() -> int:
    """Return how many headings wait for review, across the shelf."""
    return decisions.open_total()


@register.filter
def changes(decision) -> list[tuple[str, object, object]]:
    """Return (field, before, after) for each shown field a decision changed."""
    before, after = decision.before or {}, decision.after or {}
    return [
        (name, _shown(field, before.get(field)), _shown(field, after.get(field)))
        for field, name in FIELD_NAMES.items()
        if before.get(field) != after.get(field)
    ]


def _shown(field: str, value):
    """Return a status code as its words (in the page's language), other values as they are."""
    if field == "status" and value in Heading.Status.values:
        return Heading.Status(value).label
    return value


@register.filter
def action_label(value: str) -> str:
    """Return the words for a decision's action code ("move" → "moved to another page")."""
    try:
        return HeadingDecision.Action(value).label
    except ValueError:
        return value


@register.filter
def severity_reason(value) -> str:
    """Return what a flag's severity means (3: a top-level heading not placed, …)."""
    return ReviewFlag(severity=value or 1).severity_reason
