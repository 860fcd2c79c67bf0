from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Return mapping[key], or None: for lookups by a variable key in templates."""
    return mapping.get(key) if mapping else None


LANGUAGE_NAMES = {"ja": "Japanese", "zh": "Chinese", "en": "English", "latn": "Latin script"}


@register.filter
def language_names(codes: str) -> str:
    """Return a book's language codes ("ja,en") as names people read ("Japanese, English")."""
    return ", ".join(LANGUAGE_NAMES.get(code, code) for code in codes.split(",") if code)
