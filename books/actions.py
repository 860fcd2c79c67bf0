"""What the views and the API do to the shelf, in one place."""

from dataclasses import dataclass

from django.utils.translation import gettext

from books.registration import (
    Limits,
    RegistrationError,
    read_chunks,
    register,
)
from librarian.inputs import megabytes


@dataclass(frozen=True)
class Outcome:
    filename: str
    book: object = None
    created: bool = False
    error: str = ""
    warnings: tuple[str, ...] = ()


def register_uploads(files, user, oversized=(), title: str = "") -> list[Outcome]:
    """Register each uploaded file; return one outcome per file, errors included."""
    limits = Limits.from_settings()
    outcomes = [
        Outcome(name, error=gettext("The file is larger than the limit of %(limit)s.") % {
            "limit": megabytes(limits.max_bytes)})
        for name in oversized
    ]
    for upload in files:
        title_for_file = title if len(files) == 1 else ""
        try:
            with upload.open("rb") as handle:
                result = register(read_chunks(handle), upload.name, title=title_for_file,
                                  user=user, limits=limits)
        except RegistrationError as error:
            outcomes.append(Outcome(upload.name, error=error.message))
        else:
            outcomes.append(Outcome(upload.name, result.book, result.created, warnings=result.warnings))
    return outcomes

