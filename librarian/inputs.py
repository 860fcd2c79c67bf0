"""What comes in from a request: whole numbers and text, checked once at the boundary.

``whole_number`` reads an id, a page or a level from a form field or a query
string: plain ASCII digits only (``str.isdigit`` also accepts "²", which
``int`` refuses), no sign, never above what the database stores (2^63 - 1).
``clean_text`` drops what no text needs and some code cannot take: NUL (the
end of an FTS5 MATCH string, refused by PostgreSQL) and lone surrogates
(which cannot be encoded as UTF-8 for the database or the sentence encoder).
The pydantic types say the same for the JSON API's schemas.
"""

import re
from typing import Annotated

from pydantic import AfterValidator, Field

MAX_ID = 2**63 - 1  # the largest value of a 64-bit signed integer column
MAX_QUESTION_CHARS = 2000
UPLOAD_SLACK = 64 * 1024  # an upload body besides its file: boundaries, headers, fields
_UNWANTED = re.compile("[\x00\ud800-\udfff]")


def whole_number(value, *, minimum: int = 0, maximum: int = MAX_ID) -> int | None:
    """Return value as an int when it is a plain whole number from minimum to maximum, else None."""
    text = value.strip() if isinstance(value, str) else ""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(maximum)):
        return None
    number = int(text)
    return number if minimum <= number <= maximum else None


def megabytes(size: int) -> str:
    """Return a size in bytes as people read it ("12.5 MB")."""
    return f"{size / (1024 * 1024):,.1f} MB"


def clean_text(text: str) -> str:
    """Return text without NUL characters and lone surrogates."""
    return _UNWANTED.sub("", text)


CleanStr = Annotated[str, AfterValidator(clean_text)]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
PageNumber = Annotated[int, Field(ge=1, le=MAX_ID)]
