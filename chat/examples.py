"""Example questions for an empty conversation, made from the sections of the books on the shelf.

A question is asked in the page's language, whatever the language of the heading it names:
a reader of a Japanese page asks in Japanese about an English book too.
"""

import re

from django.utils.translation import gettext

from books.models import Heading

SKIPPED = (Heading.Status.UNRESOLVED, Heading.Status.ABSENT, Heading.Status.REJECTED)
_NUMBERING = re.compile(r"^\s*(?:第[0-9０-９一二三四五六七八九十百]+[編部章節款項]|"
                        r"(?:part|chapter|section)\s+\w+|[0-9ivxlcIVXLC]+(?:[.\-][0-9]+)*\.?)\s*",
                        re.IGNORECASE)


def topic(title: str) -> str:
    """Return a heading's title without its numbering ("第2章 結び" → "結び")."""
    return _NUMBERING.sub("", title).strip(" 　.:：")


def questions(books, limit: int = 4) -> list[str]:
    """Return up to limit example questions about sections of the given books."""
    if not books:
        return []
    rows = (Heading.objects.filter(book__in=[book.pk for book in books[:20]], page__isnull=False,
                                   level__lte=2)
            .exclude(status__in=SKIPPED).order_by("book_id", "position")
            .values_list("book_id", "title")[:200])
    topics: dict[int, list[str]] = {}
    for book_id, title in rows:
        name = topic(title)
        if 2 <= len(name) <= 40:
            topics.setdefault(book_id, []).append(name)
    picked = [names[len(names) // 2] for names in topics.values() if names]
    out = [_where(name) for name in picked[:2]]
    if len(topics) >= 2:
        out.append(_which(picked[-1]))
    elif picked and len(topics[next(iter(topics))]) > 1:
        out.append(_where(topics[next(iter(topics))][0]))
    return out[:limit]


def _where(name: str) -> str:
    if name.endswith(("?", "？")):
        return name  # a heading that is itself a question
    return gettext("Where is “%(topic)s” explained?") % {"topic": name}


def _which(name: str) -> str:
    return gettext("Which book covers “%(topic)s” best?") % {"topic": name}
