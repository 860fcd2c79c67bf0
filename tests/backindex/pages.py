"""Hand-made index pages for the book-index tests: rows of (text, indent) in columns."""

WIDTH, HEIGHT = 612.0, 792.0
TOP, STEP, SIZE = 100.0, 12.0, 10.0
COLUMNS = (72.0, 320.0)  # left edges of a two-column page


def line(text, x0, y0, x1=None, height=SIZE):
    x1 = x0 + 4.5 * len(text) if x1 is None else x1
    return {"text": text, "box": [x0, y0, x1, y0 + height], "conf": 1.0, "dir": "h"}


def index_page(number, *columns, heading=None, folio=None):
    """Return a page whose columns are lists of rows: "text" (main) or (text, indent).

    A row given as (text, indent, height) is set in that type size (a group heading).
    """
    lines = []
    top = TOP
    if heading:
        lines.append(line(heading, COLUMNS[0], 60.0, height=18.0))
    for left, rows in zip(COLUMNS, columns):
        y = top
        for row in rows:
            text, indent, *size = (row, 0.0) if isinstance(row, str) else row
            height = size[0] if size else SIZE
            lines.append(line(text, left + indent, y, min(left + indent + 4.5 * len(text),
                                                          left + 230), height))
            y += STEP if height <= SIZE else height + 4
    if folio is not None:
        lines.append(line(str(folio), 300, 740))
    return {"number": number, "width": WIDTH, "height": HEIGHT, "lines": lines}


def body(number, folio):
    """Return a body page with its folio and some text."""
    rows = [line(f"Body text line {i} of page {number}.", 72, TOP + STEP * i) for i in range(20)]
    return {"number": number, "width": WIDTH, "height": HEIGHT,
            "lines": rows + [line(str(folio), 300, 740)]}
