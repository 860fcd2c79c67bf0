"""Hand-made page dicts for the TOC tests: lines with boxes, as the pipeline stores them."""

WIDTH, HEIGHT = 612.0, 792.0
TOP, STEP, SIZE = 90.0, 14.0, 10.0


def line(text, x0, y0, x1=None, height=SIZE, conf=1.0, direction="h"):
    x1 = x0 + 5.5 * len(text) if x1 is None else x1
    return {"text": text, "box": [x0, y0, x1, y0 + height], "conf": conf, "dir": direction}


def page(number, rows, folio=None, top_folio=None, heading_size=None):
    """Return a page: rows are strings or lists of (text, x0[, x1]) boxes on one baseline.

    A leading "#" makes a row a heading set larger than the body text.
    """
    lines = []
    if top_folio is not None:
        lines.append(line(str(top_folio), 300, 40))
    y = TOP
    for row in rows:
        boxes = [(row, 72)] if isinstance(row, str) else row
        for box in boxes:
            text, x0, *rest = box
            size = (heading_size or 18.0) if text.startswith("#") else SIZE
            size = rest[1] if len(rest) > 1 else size  # (text, x0, x1, height)
            lines.append(line(text.lstrip("#"), x0, y, rest[0] if rest else None, size))
        y += STEP if not boxes[0][0].startswith("#") else 28
    if folio is not None:
        lines.append(line(str(folio), 300, 740))
    return {"number": number, "width": WIDTH, "height": HEIGHT, "lines": lines}


def toc_row(title, printed, x0=72.0, size=SIZE):
    """Return a TOC row as two boxes: the title with leaders, the page number at the right."""
    return [(f"{title} . . . . . . . .", x0, 480.0, size), (str(printed), 520.0, 532.0, size)]


def body(number, printed, headings=(), lines_count=20):
    """Return a body page with its folio, headings at the top and filler text below."""
    filler = [f"Body text line {i} of page {number} about nothing in particular." for i in range(lines_count)]
    return page(number, [f"#{h}" for h in headings] + filler, folio=printed)


def vertical_page(number, columns, folio=None):
    """Return a vertical (縦書き) page: columns right to left, each (title, number, indent)."""
    lines = []
    x = WIDTH - 80
    for title, printed, indent in columns:
        top = 72.0 + indent
        lines.append(line(title, x, top, x + SIZE, height=SIZE * len(title), direction="v"))
        if printed is not None:
            lines.append(line(printed, x, 680.0, x + SIZE, height=SIZE * len(printed),
                              direction="v"))
        x -= 18
    if folio is not None:
        lines.append(line(str(folio), 300, 740))
    return {"number": number, "width": WIDTH, "height": HEIGHT, "lines": lines}


def spread(number, left, right):
    """Return two pages side by side on one PDF page, as an overhead scanner makes them."""
    shift = float(left["width"])
    moved = [{**item, "box": [item["box"][0] + shift, item["box"][1],
                              item["box"][2] + shift, item["box"][3]]} for item in right["lines"]]
    return {"number": number, "width": shift + float(right["width"]), "height": left["height"],
            "lines": left["lines"] + moved, "gutter": shift}
