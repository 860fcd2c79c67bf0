from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Return mapping[key], or None: for lookups by a variable key in templates."""
    return mapping.get(key) if mapping else None
