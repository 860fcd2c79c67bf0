from django import template

from books import languages
from books.pages import ranges

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Return mapping[key], or None: for lookups by a variable key in templates."""
    return mapping.get(key) if mapping else None


@register.filter
def language_names(codes: str) -> str:
    """Return a book's language codes ("ja,en") as names people read ("Japanese, English")."""
    return ", ".join(languages.names(codes.split(",")))


@register.filter
def page_ranges(numbers) -> str:
    """Return page numbers as ranges people read: [3, 4, 5, 9] → "3–5, 9"."""
    return ranges(numbers)

