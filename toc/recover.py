"""The whole recovery, stage by stage: folios, contents pages, entries, levels, grounding."""

from toc import kanji, spreads
from toc.detect import Block, find_blocks
from toc.folios import Mapping, fit
from toc.ground import NEAR, Body, Placement, ground
from toc.infer import infer
from toc.levels import levels
from toc.lists import split_lists
from toc.model import Anomaly, Entry, PageRecord, TocResult, anomaly, with_ends
from toc.numbers import label
from toc.outline import Mark, with_outline
from toc.parse import Raw, parse_pages
from toc.repair import bounds, order_key, plausible_repair, suspects

MIN_ENTRIES = 3


def recover(pages: list[PageRecord], outline: list[Mark] = ()) -> TocResult:
    """Return the book's TOC with each heading placed, or a structure inferred from the body.

    A book scanned as two-page spreads is recovered on its book pages (each
    half of a spread), and the result carried back to the PDF's pages. The
    PDF's own outline (bookmarks), where given, is checked against what the
    pages gave (``toc.outline``): it confirms or corrects where the
    two agree on a title, and each disagreement becomes an anomaly.
    """
    if spreads.is_spread_book(pages):
        logical, halves = spreads.split(pages)
        result = spreads.to_physical(recover_pages(logical), halves, len(pages))
    else:
        result = recover_pages(pages)
    return with_outline(result, list(outline), pages)


def recover_pages(pages: list[PageRecord]) -> TocResult:
    """Return the TOC of pages that are each one book page."""
    mapping = fit(pages)
    blocks = find_blocks(pages, mapping.folio_lines)
    toc_pages = sorted(p for b in blocks if b.kind == "toc" for p in b.pages)
    lot_pages = sorted(p for b in blocks if b.kind == "lot" for p in b.pages)
    raws = _main_entries(pages, [b for b in blocks if b.kind == "toc"], mapping)
    contents = set(toc_pages) | set(lot_pages)
    body = Body(pages, contents, mapping.folio_lines)
    if len(raws) < MIN_ENTRIES:
        entries = infer(pages, body, len(pages))
        return TocResult(entries, toc_pages, lot_pages, mapping.labels,
                         list(mapping.anomalies), inferred=True)
    entries, anomalies = _place(raws, mapping, body, len(pages))
    return TocResult(entries, toc_pages, lot_pages, mapping.labels,
                     list(mapping.anomalies) + anomalies)


def _main_entries(pages: list[PageRecord], blocks: list[Block], mapping: Mapping) -> list[Raw]:
    """Return the entries of the most detailed contents, with the blocks that continue it."""
    by_number = {page["number"]: page for page in pages}
    parsed = [parse_pages([by_number[n] for n in b.pages], mapping.folio_lines) for b in blocks]
    if not parsed:
        return []
    main = max(range(len(parsed)), key=lambda index: len(parsed[index]))
    entries = list(parsed[main])
    for following in parsed[main + 1:]:
        if not _continues(entries, following):
            break
        entries += following
    entries, _ = split_lists(entries)  # lists of figures or examples are not contents
    bad = suspects([raw.printed for raw in entries])
    clean = {id(raw) for i, raw in enumerate(entries) if i not in bad}
    return kanji.repair_entries(entries, lambda raw: id(raw) in clean)


def _continues(entries: list[Raw], following: list[Raw]) -> bool:
    last = next((e.printed for e in reversed(entries) if e.printed), None)
    first = next((e.printed for e in following if e.printed), None)
    return bool(last and first and order_key(first) >= order_key(last))


def _place(raws: list[Raw], mapping: Mapping, body: Body, page_count: int):
    printed = [raw.printed for raw in raws]
    bad = suspects(printed)
    # An entry whose printed page the folios show missing from the scan is not looked
    # for: the line that matches it elsewhere is a running head or a mention, never its
    # opening. It stays unplaced, for a person who has the book.
    missing = {index for index, value in enumerate(printed)
               if value and index not in bad and value in mapping.missing}
    predicted, strong = [], []
    for index, value in enumerate(printed):
        trusted = value and index not in bad | missing
        guess, sure = mapping.predict(*value) if trusted else (None, False)
        predicted.append(guess)
        strong.append(sure and not raws[index].repaired)  # a repair only guides the search
    placements = _ground(raws, predicted, strong, missing, body, page_count)
    anomalies: list[Anomaly] = []
    entries = []
    for index, (raw, level) in enumerate(zip(raws, levels(raws))):
        placement = placements[index]
        page_label = _printed_label(raw, index, printed, bad, placement, mapping, anomalies)
        status, page, line, confidence = _status(
            placement, predicted[index], strong[index], placements, index
        )
        if placement and (placement.far or (
            strong[index] and abs(placement.page - predicted[index]) > NEAR
        )):
            anomalies.append(anomaly(
                "far_from_toc", [placement.page],
                "far_from_toc" if predicted[index] else "far_from_toc_unknown",
                title=raw.title, page=placement.page, predicted=predicted[index]))
        entries.append(Entry(level, raw.title, page_label, page, None, status,
                             round(confidence, 3), line, raw.toc_page, raw.toc_line, raw.number))
    return with_ends(entries, page_count), anomalies


def _ground(raws: list[Raw], predicted, strong, missing: set[int], body: Body, page_count: int):
    """Return the placement of each entry, None for the entries in missing (not looked for)."""
    kept = [index for index in range(len(raws)) if index not in missing]
    found = ground([raws[i].title for i in kept], [predicted[i] for i in kept],
                   [strong[i] for i in kept], body, page_count)
    placements: list[Placement | None] = [None] * len(raws)
    for index, placement in zip(kept, found):
        placements[index] = placement
    return placements


def _printed_label(raw, index, printed, bad, placement, mapping, anomalies) -> str | None:
    """Return the printed page as printed, or as repaired where grounding confirms it."""
    value = printed[index]
    if not value:
        return raw.token
    read = label(*value)
    if index not in bad:
        return read
    before, after = bounds(printed, bad, index)
    found = mapping.values.get(placement.page) if placement else None
    ok = found and all(
        order_key(found) >= order_key(b) for b in [before] if b
    ) and all(order_key(found) <= order_key(a) for a in [after] if a)
    if ok and plausible_repair(read, label(*found)):
        anomalies.append(anomaly("toc_page_number", [raw.toc_page], "toc_page_confirmed",
                                 title=raw.title, read=read, confirmed=label(*found)))
        return label(*found)
    anomalies.append(anomaly("toc_page_number", [raw.toc_page], "toc_page_order",
                             title=raw.title, read=read))
    return read


def _status(placement: Placement | None, guess, sure, placements, index):
    """Return (status, page, line, confidence)."""
    if placement:
        exact = placement.similar >= 1.0
        confidence = (0.95 if exact else 0.9 * placement.similar)
        if placement.far:
            confidence = 0.5
        return ("exact" if exact else "fuzzy"), placement.page, placement.line, confidence
    if guess is not None and sure:
        before = next((p.page for p in reversed(placements[:index]) if p), 0)
        after = next((p.page for p in placements[index + 1:] if p), 10**9)
        if before <= guess <= after:
            return "offset", guess, None, 0.6
    return "unresolved", None, None, 0.0
