"""Result cards: the places retrieval found, as stored on a message and as shown (pure helpers).

A card is a plain dict, JSON-safe, made once from a retrieval result and kept
on the answer so a conversation reads back exactly as it was answered. Its
labels are made when it is shown, in the language then active: the question's
(``answer_language``), whatever the language of the rest of the page.
"""

import dataclasses
from urllib.parse import quote

from django.urls import reverse
from django.utils.translation import gettext as _

from books.highlight import segments as marked
from books.text import language_of
from retrieval.answer.guide import HOW
from retrieval.results import RESULT_FIELDS, Answer

FIELDS = RESULT_FIELDS


def plain(value):
    """Return value as JSON-safe data: dataclasses and objects become dicts, tuples lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "__dict__"):
        return {key: plain(item) for key, item in vars(value).items() if not key.startswith("_")}
    return str(value)


def card(result, n: int, book_pages: int | None = None) -> dict:
    """Return the stored card for a retrieval result (an object or a dict), numbered n."""
    get = result.get if isinstance(result, dict) else lambda name, default=None: getattr(
        result, name, default)
    data = {name: plain(get(name)) for name in FIELDS}
    data["breadcrumb"] = [str(part) for part in (data["breadcrumb"] or [])]
    data["terms"] = [str(term) for term in (data["terms"] or [])]
    data["excerpt"] = data["excerpt"] or ""
    data["quote"] = data["quote"] or ""
    data["subsections"] = [item for item in data["subsections"] or [] if isinstance(item, dict)]
    data["book_title"] = data["book_title"] or ""
    data["printed_start"] = _label(data["printed_start"])
    data["printed_end"] = _label(data["printed_end"]) or data["printed_start"]
    if data["page_end"] is None:
        data["page_end"] = data["page_start"]
    data["n"] = n
    data["book_pages"] = book_pages or data["book_pages"]
    return data


def _label(value) -> str:
    return "" if value is None else str(value)


def answer_language(answer) -> str:
    """Return the language an answer is shown in: its question's ("ja" or "en"), which views
    set as .language, else the language its guide was written in."""
    language = getattr(answer, "language", None)
    if language not in ("en", "ja"):
        guide = answer.guide if isinstance(getattr(answer, "guide", None), dict) else {}
        language = guide.get("language")
    return language if language in ("en", "ja") else "en"


def question_language(text: str) -> str:
    """Return the language of a question: "ja" where it has Japanese in it, else "en"."""
    return language_of(str(text or ""))


def _span(first, last, one: str, many: str) -> str:
    return one % {"page": first} if first == last else many % {"first": first, "last": last}


def printed_pages(data: dict) -> str:
    """Return "pp. 12–15", or "" when the printed numbers are not known."""
    if not (data["printed_start"] and data["printed_end"]):
        return ""
    return _span(data["printed_start"], data["printed_end"], _("p. %(page)s"),
                 _("pp. %(first)s–%(last)s"))


def physical_pages(data: dict) -> str:
    return _span(data["page_start"], data["page_end"], _("PDF page %(page)s"),
                 _("PDF pages %(first)s–%(last)s"))


def preview_label(data: dict) -> str:
    """Return the preview link's text for the card's first page."""
    if data["printed_start"]:
        return _("Preview page %(page)s") % {"page": data["printed_start"]}
    return _("Preview PDF page %(page)s") % {"page": data["page_start"]}


def download_label(data: dict) -> str:
    """Return the download link's text: printed pages where known, else PDF pages."""
    if data["printed_start"] and data["printed_end"]:
        return _span(data["printed_start"], data["printed_end"], _("Download page %(page)s (PDF)"),
                     _("Download pages %(first)s–%(last)s (PDF)"))
    return _span(data["page_start"], data["page_end"], _("Download PDF page %(page)s"),
                 _("Download PDF pages %(first)s–%(last)s"))


def present(data: dict, message_id: int | None = None) -> dict:
    """Return what the card template needs: the card plus its labels and links."""
    data = {**{name: None for name in FIELDS}, **data}
    clip_url = reverse("clip", args=[data["book_id"]])
    return {
        **data,
        "anchor": f"m{message_id}-r{data['n']}" if message_id else f"r{data['n']}",
        "segments": marked(data["excerpt"], data["terms"]),
        "printed": printed_pages(data),
        "physical": physical_pages(data),
        "download_label": download_label(data),
        "preview_label": preview_label(data),
        "page_url": page_link(data, data["page_start"]),
        "quote_url": page_link(data, data["quote_page"], data["quote"]) if data["quote_page"] else "",
        "quote_where": quote_where(data),
        "thumb_url": reverse("page-image", args=[data["book_id"], data["page_start"], "thumb"]),
        "book_url": reverse("book", args=[data["book_id"]]),
        "clip_url": f"{clip_url}?start={data['page_start']}&end={data['page_end']}",
        "clip_form_url": clip_url,
    }


def page_link(data: dict, page: int, sentence: str = "") -> str:
    """Return the page viewer's address for page, marking the card's words (and sentence)."""
    url = reverse("page", args=[data["book_id"], page])
    query = [f"q={quote(' '.join(data['terms']))}"] if data["terms"] else []
    if sentence:
        query.append(f"quote={quote(sentence.rstrip('…'))}")
    return f"{url}?{'&'.join(query)}" if query else url


def quote_where(data: dict) -> str:
    """Return where the quote is printed: "p. 71", or "PDF page 79" when unknown."""
    if not data["quote_page"]:
        return ""
    if data["quote_label"]:
        return _("p. %(page)s") % {"page": data["quote_label"]}
    return _("PDF page %(page)s") % {"page": data["quote_page"]}


def guide(outcome: Answer, shown: list[dict]) -> dict | None:
    """Return the guide as stored on an answer: its text, language and places, each place
    with the number of the card that shows it (if one does)."""
    if not outcome.guide:
        return None
    numbers = {(c["book_id"], c["page_start"], c["page_end"], tuple(c["breadcrumb"])): c["n"]
               for c in shown}
    places = []
    for place in outcome.places:
        data = card(place, 0)
        data["n"] = numbers.get((data["book_id"], data["page_start"], data["page_end"],
                                 tuple(data["breadcrumb"])))
        places.append(data)
    stored = {"text": outcome.guide, "language": outcome.language, "places": places}
    if outcome.weak:
        stored["weak"] = outcome.note
    elif outcome.note:  # what the places are, where that is not what was asked for
        stored["note"] = outcome.note
    if outcome.suggested:
        stored["suggested"] = list(outcome.suggested)
    return stored


def picks(value) -> list[dict]:
    """Return structured which-book recommendations as shown: book, reason, link to where."""
    out = []
    for item in value if isinstance(value, list) else []:
        if not isinstance(item, dict) or not item.get("book_title"):
            continue
        title, reason = str(item["book_title"]), str(item.get("reason") or "")
        # The reason usually opens with the title ("A covers this in a whole chapter…").
        rest = reason[len(title):] if reason.startswith(title) else f" — {reason}" * bool(reason)
        pick = {"book_title": title, "reason": reason, "rest": rest}
        where = item.get("where")
        if isinstance(where, dict) and where.get("book_id") and where.get("page_start"):
            place = card(where, 0)
            pick["page_url"] = reverse("page", args=[place["book_id"], place["page_start"]])
            pick["where_label"] = _("Open %(pages)s") % {
                "pages": printed_pages(place) or physical_pages(place)}
        out.append(pick)
    return out


def recommendation_text(value) -> str:
    """Return a which-book recommendation as one readable sentence or paragraph."""
    if not value:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in ("text", "summary", "message", "reason"):
            if value.get(key):
                return str(value[key])
        return ""
    if isinstance(value, list):
        return " ".join(part for part in (recommendation_text(item) for item in value) if part)
    return str(value)


LABELS = {
    "en": {"title": "Where to read", "first": "Read first:", "also": "Also:", **HOW["en"],
           "pages": "pages", "sections": "Its sections:", "model_note": "",
           "suggested": "Also searched for the local model's terms:",
           "weak": "Nothing on the shelf seems to answer this"},
    "ja": {"title": "どこを読むか", "first": "【推薦】", "also": "【代替】", **HOW["ja"],
           "pages": "ページ", "sections": "含まれる節：", "model_note": "",
           "suggested": "ローカルモデルが挙げた語でも検索しました：",
           "weak": "答えは見当たりません"},
}


def _in_japanese(place: dict) -> dict:
    """Return a presented place with its page labels in Japanese."""
    def span(first, last, prefix=""):
        return f"{prefix}{first}ページ" if first == last else f"{prefix}{first}–{last}ページ"

    printed = span(place["printed_start"], place["printed_end"]) if place["printed"] else ""
    physical = span(place["page_start"], place["page_end"], "PDFの")
    return {**place, "printed": printed, "physical": physical,
            "download_label": f"{printed or physical}をダウンロード（PDF）",
            "quote_where": (f"{place['quote_label']}ページ" if place["quote_label"]
                            else f"PDFの{place['quote_page']}ページ") if place["quote_page"] else ""}


def refined_view(stored, message_id=None) -> dict | None:
    """Return the place the local model's terms put first after the cards, as the template
    shows it (None where they put none there): the terms, the place, its card's number."""
    refined = stored.get("refined") if isinstance(stored, dict) else None
    if not isinstance(refined, dict) or not isinstance(refined.get("place"), dict):
        return None
    language = "ja" if stored.get("language") == "ja" else "en"
    place = present(card(refined["place"], refined.get("n") or 0), message_id)
    if language == "ja":
        place = _in_japanese(place)
    terms = [str(term) for term in refined.get("terms") or [] if isinstance(term, str)]
    return {"language": language, "terms": terms, "place": place, "cited": bool(refined.get("n")),
            "crumb": " › ".join(place["breadcrumb"]),
            "lead": REFINED[language]}


REFINED = {
    "en": "Searched again with the local model's terms for it, this comes first:",
    "ja": "ローカルモデルが挙げた語で検索し直すと、次の箇所が最初に来ます：",
}


def guide_view(stored, recommendation, message_id=None) -> dict | None:
    """Return the guide as the template shows it: labels in its language, the books to read
    first with their places, and the places with their quotes and downloads."""
    if not isinstance(stored, dict) or not stored.get("text"):
        return None
    language = "ja" if stored.get("language") == "ja" else "en"
    labels = LABELS[language]
    picks = []
    for n, item in enumerate(recommendation if isinstance(recommendation, list) else []):
        if not isinstance(item, dict) or not item.get("book_title"):
            continue
        where = item.get("where")
        place = present(card(where, 0), message_id) if isinstance(where, dict) else None
        if place and language == "ja":
            place = _in_japanese(place)
        size = item.get("book_pages")
        picks.append({
            "label": labels["first"] if n == 0 else labels["also"],
            "book_title": str(item["book_title"]),
            "size": (f"{size:,}{labels['pages']}" if language == "ja" else f"{size:,} {labels['pages']}")
            if isinstance(size, int) else "",
            "how": labels.get(str(item.get("unit")), ""),
            "where": place,
            "crumb": " › ".join(place["breadcrumb"]) if place else "",
            "pages": (place["printed"] or place["physical"]) if place else "",
        })
    places = []
    first = picks[0]["where"] if picks and picks[0]["where"] else None
    for item in stored.get("places") or []:
        if isinstance(item, dict) and item.get("book_id") and item.get("page_start"):
            place = present(card(item, item.get("n") or 0), message_id)
            if language == "ja":
                place = _in_japanese(place)
            place["cited"] = bool(item.get("n"))
            place["crumb"] = " › ".join(place["breadcrumb"])
            # The book to read first already names this place: show only what it adds.
            place["same_as_pick"] = bool(first) and all(
                place[key] == first[key] for key in ("book_id", "page_start", "page_end"))
            if place["same_as_pick"] and place["cited"]:
                picks[0]["n"], picks[0]["anchor"] = place["n"], place["anchor"]
            places.append(place)
    weak = str(stored.get("weak") or "")
    if weak:  # the books do not seem to answer it: the places are only the nearest
        labels = {**labels, "title": labels["weak"]}
    return {"language": language, "labels": labels, "picks": picks[:3], "places": places,
            "weak": weak, "note": str(stored.get("note") or ""), "text": stored["text"],
            "model_note": str(stored.get("model_note") or ""),
            "suggested": [str(term) for term in stored.get("suggested") or []
                          if isinstance(term, str)]}
