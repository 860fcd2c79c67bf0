"""The languages a book can be in: codes (ISO 639-1) and the names people read."""

NAMES = {
    "ja": "Japanese", "en": "English", "zh": "Chinese", "ko": "Korean", "de": "German",
    "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
    "ru": "Russian", "la": "Latin", "el": "Greek", "ar": "Arabic",
}
CHOICES = list(NAMES.items())
# "latn" was once written for "some Latin-script language"; it names no language.
NOT_A_LANGUAGE = {"latn"}


def names(codes) -> list[str]:
    """Return the names of language codes, unknown codes as they are, non-languages left out."""
    return [NAMES.get(code, code) for code in codes if code and code not in NOT_A_LANGUAGE]
