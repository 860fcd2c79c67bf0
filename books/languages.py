"""The languages a book can be in: codes (ISO 639-1) and the names people read."""

from django.utils.translation import gettext_lazy as _

NAMES = {
    "ja": _("Japanese"), "en": _("English"), "zh": _("Chinese"), "ko": _("Korean"),
    "de": _("German"), "fr": _("French"), "es": _("Spanish"), "it": _("Italian"),
    "pt": _("Portuguese"), "nl": _("Dutch"), "ru": _("Russian"), "la": _("Latin"),
    "el": _("Greek"), "ar": _("Arabic"),
}
CHOICES = list(NAMES.items())
# "latn" was once written for "some Latin-script language"; it names no language.
NOT_A_LANGUAGE = {"latn"}


def names(codes) -> list[str]:
    """Return the names of language codes, unknown codes as they are, non-languages left out."""
    return [str(NAMES.get(code, code)) for code in codes if code and code not in NOT_A_LANGUAGE]
