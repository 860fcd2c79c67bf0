"""The librarian's one short question, as stored on an answer and as shown (pure helpers).

Each option is a place among the cards: a button that asks for it (a reply in
the same conversation, resolved by ``retrieval.question.followups``), with the number
of the card that already shows it. An option whose book was deleted since is marked
``gone`` (``chat.signals``): shown, but no button; a reply that still names it (a page
opened before the deletion) is told so (``gone_choice``).
"""

from retrieval.answer.interview import NONE_OF_THESE
from retrieval.results import Answer


def stored(outcome: Answer, shown: list[dict]) -> dict | None:
    """Return the question as kept in the answer's guide (None where none was asked)."""
    if outcome.clarify is None:
        return None
    numbers = {(c["book_id"], c["page_start"], c["page_end"], tuple(c["breadcrumb"])): c["n"]
               for c in shown}
    return {
        "question": outcome.clarify.question,
        "language": outcome.language,
        "options": [{"label": o.label, "why": o.why, "book_id": o.place.book_id,
                     "page_start": o.place.page_start, "page_end": o.place.page_end,
                     "n": numbers.get((o.place.book_id, o.place.page_start, o.place.page_end,
                                       tuple(o.place.breadcrumb)))}
                    for o in outcome.clarify.options],
    }


def view(guide, message_id=None) -> dict | None:
    """Return the question as the template shows it (None where none was asked)."""
    asked = guide.get("clarify") if isinstance(guide, dict) else None
    if not isinstance(asked, dict) or not asked.get("options"):
        return None
    language = "ja" if asked.get("language") == "ja" else "en"
    options = [{**option, "anchor": f"m{message_id}-r{option['n']}" if option.get("n") else ""}
               for option in asked["options"] if isinstance(option, dict) and option.get("label")]
    return {"question": str(asked.get("question") or ""), "language": language,
            "options": options, "none": NONE_OF_THESE[language],
            "open": any(not option.get("gone") for option in options)}


def gone_choice(question: str, guides) -> dict | None:
    """Return the option of an earlier question (guides: the stored guides of the answers
    before) whose words the reader's question repeats, where that option's book was deleted
    since; None where the question chooses no such option (or also one still on the shelf)."""
    named = [option for guide in guides for option in _options(guide)
             if option.get("label") == question]
    return named[0] if named and all(option.get("gone") for option in named) else None


def _options(guide) -> list[dict]:
    asked = guide.get("clarify") if isinstance(guide, dict) else None
    options = asked.get("options") if isinstance(asked, dict) else None
    return [option for option in options or [] if isinstance(option, dict)]
