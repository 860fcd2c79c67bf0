"""The written answer, composed by code from the places found: always right about where.

It says, in the question's language, which book to read first and why, the
place with its printed pages, the sentence that answers (quoted from the
page, with its page), and the alternatives; each place cites its card as
[n]. Nothing in it is generated: every word comes from the books' titles,
headings and text, or from the templates below.
"""

from retrieval import kinds

OTHER_PLACES = 2
HOW = {  # how much of a recommended book is about the question, by its unit (``recommend``)
    "en": {"chapter": "a whole chapter on it", "part": "a part on it",
           "section": "a section on it", "mentions": "mentions it"},
    "ja": {"chapter": "章を通して扱っています", "part": "部で扱っています",
           "section": "節で扱っています", "mentions": "本文で触れています"},
}


def compose(answer) -> str:
    """Return the guide for answer ("" when nothing was found)."""
    if not answer.places:
        return ""
    ja = answer.language == "ja"
    numbers = {id(r): n for n, r in enumerate(answer.results, 1)}
    for n, r in reversed(list(enumerate(answer.results, 1))):
        numbers[where(r)] = n  # a place made apart (a pick's) cites the card of its section
    lines = [answer.note, ""] if getattr(answer, "weak", False) else []
    picks = answer.recommendation or []
    if picks:
        lines.append(_pick(picks[0], ja, numbers, first=True))
        lines.extend(_pick(pick, ja, numbers, first=False) for pick in picks[1:3])
        lines.append("")
    for place in answer.places:
        lines.extend(_place(place, ja, numbers, kinds.of(answer.type).places == "parts"))
    shown = {where(place) for place in answer.places}
    others = [r for r in answer.results if where(r) not in shown][:OTHER_PLACES]
    if others and kinds.of(answer.type).names_others:
        lines.append(("ほかの候補：" if ja else "Also: ")
                     + ("、" if ja else "; ").join(_short(r, ja, numbers) for r in others))
    return "\n".join(lines).strip()


def where(result) -> tuple:
    """Return what tells one place from another: its book, heading and pages."""
    return result.book_id, result.heading_id, result.page_start, result.page_end


def _pick(pick, ja: bool, numbers: dict, first: bool) -> str:
    where = pick.where
    size = f"{pick.book_pages:,}" if pick.book_pages else "?"
    cite = _cite(where, numbers)
    crumb = " > ".join(where.breadcrumb)
    if ja:
        label = "【推薦】" if first else "【代替】"
        how = HOW["ja"][pick.unit]
        return f"{label}『{pick.book_title}』（{size}ページ）— {how}：{crumb}（{pages(where, True)}）{cite}"
    label = "Read first:" if first else "Also:"
    how = HOW["en"][pick.unit]
    crumb = f"{crumb}, " if crumb else ""
    return f"{label} {pick.book_title} ({size} pages) — {how}: {crumb}{pages(where, False)}{cite}"


def _place(place, ja: bool, numbers: dict, by_part: bool) -> list[str]:
    crumb = " > ".join(place.breadcrumb)
    cite = _cite(place, numbers)
    if ja:
        head = f"『{place.book_title}』{crumb}（{pages(place, True)}）{cite}"
        if place.part and by_part:
            head = f"「{place.part}」→ {head}"
    else:
        head = f"{crumb + ' in ' if crumb else ''}{place.book_title}, {pages(place, False)}{cite}"
        if place.part and by_part:
            head = f"“{place.part}”: {head}"
    out = [head]
    if place.unit and place.subsections:
        count = place.page_end - place.page_start + 1
        names = ("、" if ja else "; ").join(s["title"] for s in place.subsections[:8])
        more = "…" if len(place.subsections) > 8 else ""
        out.append(f"　{count}ページ分：{names}{more}" if ja else f"  {count} pages: {names}{more}")
    if place.quote:
        where = _quote_page(place, ja)
        out.append(f"　「{place.quote}」{where}" if ja else f"  “{place.quote}” {where}".rstrip())
    return out


def _short(result, ja: bool, numbers: dict) -> str:
    title = result.breadcrumb[-1] if result.breadcrumb else ""
    if ja:
        return f"『{result.book_title}』{title}（{pages(result, True)}）{_cite(result, numbers)}"
    if not title:
        return f"{result.book_title}, {pages(result, False)}{_cite(result, numbers)}"
    return f"{title} ({result.book_title}, {pages(result, False)}){_cite(result, numbers)}"


def _cite(result, numbers: dict) -> str:
    n = numbers.get(id(result)) or numbers.get(where(result))
    return f" [{n}]" if n else ""


def pages(result, ja: bool) -> str:
    """Return the printed page range where known, else the PDF pages."""
    first, last = result.printed_start, result.printed_end or result.printed_start
    if first:
        if ja:
            return f"{first}ページ" if first == last else f"{first}–{last}ページ"
        return f"p. {first}" if first == last else f"pp. {first}–{last}"
    a, b = result.page_start, result.page_end
    if ja:
        return f"PDFの{a}ページ" if a == b else f"PDFの{a}–{b}ページ"
    return f"PDF page {a}" if a == b else f"PDF pages {a}–{b}"


def _quote_page(place, ja: bool) -> str:
    if place.quote_page is None:
        return ""
    label = place.quote_label
    if ja:
        return f"（{label}ページ）" if label else f"（PDFの{place.quote_page}ページ）"
    return f"(p. {label})" if label else f"(PDF page {place.quote_page})"
