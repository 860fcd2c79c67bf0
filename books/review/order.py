"""Whether placing a heading on a page keeps the contents tree whole (pure over heading rows).

The contents give the order of the sections, and a section lies inside its
parent: a page before the heading's placed predecessor, after its placed
successor, before its parent's page or past the heading that ends its
parent's range would make the tree disagree with the book. Such a placement
may still be right (a book bound out of order), so it is asked about, not
refused outright.
"""

SILENT = {"rejected", "absent"}  # headings that bound no pages


def order_problems(headings, heading, page: int) -> list[str]:
    """Return why placing heading on physical page breaks the tree ([] when it does not).

    headings: the book's headings in reading order (with pk, level, title, page,
    status); heading: one of them.
    """
    rows = [h for h in headings if h.status not in SILENT or h.pk == heading.pk]
    index = next(i for i, h in enumerate(rows) if h.pk == heading.pk)
    before = next((h for h in reversed(rows[:index]) if h.page is not None), None)
    after = next((h for h in rows[index + 1:] if h.page is not None), None)
    problems = []
    if before is not None and before.page > page:
        problems.append(f"“{before.title}”, before it in the contents, is on PDF page "
                        f"{before.page}, after page {page}.")
    if after is not None and after.page < page:
        problems.append(f"“{after.title}”, after it in the contents, is on PDF page "
                        f"{after.page}, before page {page}.")
    parent = next((h for h in reversed(rows[:index]) if h.level < heading.level), None)
    if parent is not None and parent.page is not None:
        ending = next((h for h in rows[index + 1:]
                       if h.level <= parent.level and h.page is not None), None)
        if page < parent.page:
            problems.append(f"Its parent “{parent.title}” starts on PDF page {parent.page}, "
                            f"after page {page}.")
        elif ending is not None and page > ending.page:
            problems.append(f"Its parent “{parent.title}” ends where “{ending.title}” starts, "
                            f"on PDF page {ending.page}, before page {page}.")
    return list(dict.fromkeys(problems))
