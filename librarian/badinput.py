"""Bad input in the log as one warning line: a refused request is no error of the app.

Django answers a request it takes for suspicious (a Host not allowed, too many
fields, an unreadable multipart body) with 400 and logs it to
``django.security.<kind>`` as an ERROR with the traceback of the refusal. That
traceback only shows Django's own parser; an operator needs the kind, the
request and the reason, on one line, at the level of any other refused input.
"""

import logging


def one_line(record: logging.LogRecord) -> str:
    """Return the line that stands for record: kind, method, path and reason.

    The path and the reason carry what the sender sent (a Host, a path with a
    %0A in it): their line breaks become spaces, so no line is forged.
    """
    kind = record.name.rsplit(".", 1)[-1]
    request = getattr(record, "request", None)
    where = f"{request.method} {request.path}" if request is not None else "a request"
    return " ".join(f"Refused bad input ({kind}) in {where}: {record.getMessage()}".split())


class BadInputFilter(logging.Filter):
    """Turn each record it passes into a one-line warning without a traceback."""

    def filter(self, record):
        record.msg, record.args = one_line(record), ()
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
