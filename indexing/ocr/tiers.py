"""Columns read across the two tiers (段) of a vertical page, read again tier by tier.

A magazine or a newspaper of the Meiji era sets its vertical text in two tiers,
one over the other, a narrow gap between them. The detector often bridges that
gap and takes a column of the upper tier and the column under it for one line:
its text then runs from one article into another ("…信徒增加する從ひ敎其の存亡に
於て…"), and a quote or a search hit joins the two. Where many columns of a
vertical page end at one height and as many begin just below it, that height is
the tiers' edge: each line that crosses it is cut there, and each part read on
its own. The page's lines then go tier by tier, each tier right to left.
"""

from statistics import median

from indexing.ocr import columns, layout

MIN_EDGES = 4  # columns ending, and as many beginning, at one height make a tiers' edge
NEAR = 0.6  # column widths: how close to the edge a column's end or start lies
INSIDE = (0.2, 0.8)  # where the edge may lie, as a share of the text's height
MAX_CUTS = 40  # lines cut on one page at most


def edge(lines: list[dict]) -> float | None:
    """Return the height (in points) where a vertical page's two tiers meet, or None."""
    columns_ = [line for line in lines if line["dir"] == "v" and len(line["text"]) >= 2]
    if len(columns_) < 2 * MIN_EDGES:
        return None
    width = median(line["box"][2] - line["box"][0] for line in columns_)
    top = min(line["box"][1] for line in columns_)
    bottom = max(line["box"][3] for line in columns_)
    best, best_count = None, 0
    for line in columns_:
        at = line["box"][3]
        if not INSIDE[0] <= (at - top) / max(bottom - top, 1.0) <= INSIDE[1]:
            continue
        ends = sum(abs(other["box"][3] - at) <= NEAR * width for other in columns_)
        starts = sum(abs(other["box"][1] - at) <= NEAR * width for other in columns_)
        if ends >= MIN_EDGES and starts >= MIN_EDGES and min(ends, starts) > best_count:
            best, best_count = at, min(ends, starts)
    return best


def reread(engine, image, scale: float, lines: list[dict]) -> list[dict]:
    """Return the page's lines with those that cross its tiers' edge read again in two parts,
    tier by tier; the lines as they were where the page has no such edge."""
    if not lines or not columns.layout_vertical(lines):
        return lines
    at = edge(lines)
    if at is None:
        return lines
    width = median(line["box"][2] - line["box"][0] for line in lines if line["dir"] == "v")
    across = [line for line in lines if line["dir"] == "v"
              and line["box"][1] < at - NEAR * width and line["box"][3] > at + NEAR * width]
    across = across[:MAX_CUTS]
    if not across:
        return _tier_by_tier(lines, at)
    parts = [(line, box) for line in across for box in _halves(line["box"], at)]
    read = _read(engine, image, scale, [box for _, box in parts])
    fresh = [{**line, "text": text, "conf": round(conf, 3), "box": box}
             for (line, box), (text, conf) in zip(parts, read, strict=True) if text.strip()]
    cut = {id(line) for line in across}
    kept = [line for line in lines if id(line) not in cut]
    return _tier_by_tier(kept + fresh, at)


def _read(engine, image, scale: float, boxes: list[list[float]]) -> list[tuple[str, float]]:
    """Return (text, confidence) of each box (points) of the page read as one line: by the
    engine's recogniser alone where it has one; else each box's crop read whole, its most
    confident line kept (the crop's margin may show a neighbouring column)."""
    recognise = getattr(engine, "recognise", None)
    if recognise is not None:
        quads = [[(x0 * scale, y0 * scale), (x1 * scale, y0 * scale), (x1 * scale, y1 * scale),
                  (x0 * scale, y1 * scale)] for x0, y0, x1, y1 in boxes]
        return recognise(image, quads)
    crops = [columns.crop(image, box, scale) for box in boxes]
    found = []
    for raw in engine.read([strip for strip, _ in crops]):
        best = max(raw, key=lambda line: line.conf, default=None)
        found.append((best.text, best.conf) if best else ("", 0.0))
    return found


def _halves(box, at: float) -> list[list[float]]:
    x0, y0, x1, y1 = box
    return [[x0, y0, x1, at], [x0, at, x1, y1]]


def _tier_by_tier(lines: list[dict], at: float) -> list[dict]:
    """Return the lines of the upper tier, then of the lower, each right to left."""
    upper = [line for line in lines if (line["box"][1] + line["box"][3]) / 2 < at]
    lower = [line for line in lines if (line["box"][1] + line["box"][3]) / 2 >= at]
    return layout.reading_order_vertical(upper) + layout.reading_order_vertical(lower)
