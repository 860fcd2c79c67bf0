"""What the pipeline tells people, stored as a code and its values and worded when shown.

A stage's summary, why a stage failed, a disagreement between a book's contents and its
body, why the verification agent was not asked about a heading: each is written while a
book is processed and read later, by people in their own language. So each is stored as
data, ``{"code": "ocr.read", "n": 12}``, and worded here when a page shows it, through
gettext; the log and the API get the English (``english``).

A stored text is a list of sentences, each a list of clauses (``sentences``). A text
stored before codes existed is a plain English string and is shown as it is.
"""

import re

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext

from toc.model import ANOMALY_WORDS

WORDS = {
    # A stage's summary, clause by clause.
    "previews.made": _("%(shown)s of %(total)s page previews (%(made)s made now)"),
    "previews.failed": _("pages %(pages)s could not be drawn"),
    "ocr.pages": ngettext_lazy("%(n)s page", "%(n)s pages", "n"),
    "ocr.text_layer": _("%(n)s from the text layer"),
    "ocr.read": _("%(n)s read by OCR"),
    "ocr.blank": _("%(n)s blank"),
    "ocr.failed": _("%(n)s could not be read"),
    "ocr.no_engine": _("%(n)s without text (no OCR engine is configured)"),
    "ocr.not_read": _("%(n)s without text (not read)"),
    "pdf.JavaScript": _("It contains JavaScript, which is never run here"),
    "pdf.Launch": _("It contains actions that launch programs, which are never run here"),
    "pdf.EmbeddedFile": _("It carries embedded files, which are never opened or extracted here"),
    "ingest.none": _("No page has text yet: nothing to search"),
    "ingest.done": _("%(n)s of %(total)s pages searchable"),
    "contents.none": _("No table of contents and no headings found"),
    "contents.printed": ngettext_lazy("%(n)s heading from the printed contents",
                                      "%(n)s headings from the printed contents", "n"),
    "contents.inferred": ngettext_lazy("%(n)s heading inferred from the body",
                                       "%(n)s headings inferred from the body", "n"),
    "contents.spreads": _("each two-page spread read as its two book pages"),
    "contents.exact": _("%(n)s placed exactly"),
    "contents.fuzzy": _("%(n)s placed approximately"),
    "contents.offset": _("%(n)s placed by page numbers only"),
    "contents.unresolved": _("%(n)s not placed"),
    "contents.outline": ngettext_lazy("%(n)s disagreement with the PDF's outline",
                                      "%(n)s disagreements with the PDF's outline", "n"),
    "backindex.entries": _("%(n)s index entries (%(names)s), %(placed)s of %(total)s page "
                           "references placed"),
    "backindex.none": _("No back-of-book index found"),
    "backindex.figures": ngettext_lazy("%(n)s figure listed", "%(n)s figures listed", "n"),
    "backindex.tables": ngettext_lazy("%(n)s table listed", "%(n)s tables listed", "n"),
    "verify.none": _("No unplaced headings left to check"),
    "verify.no_model": _("No language model: %(n)s unplaced heading(s) left for review without "
                         "asking"),
    "verify.asked": _("Asked about %(done)s of %(total)s unplaced heading(s) in %(calls)s "
                      "call(s): %(placed)s placed and checked"),
    "verify.unasked": _("%(n)s not worth a call (no matching line between their neighbours)"),
    "verify.discarded": _("%(n)s answer(s) discarded by the check"),
    "verify.failed": _("%(n)s call(s) failed"),
    "verify.left": _("%(n)s left for review"),
    "verify.stopped_calls": _("stopped: the limit of %(limit)s model calls per book was "
                              "reached, %(n)s not asked"),
    "verify.stopped_tokens": _("stopped: the limit of %(limit)s tokens per book was reached, "
                               "%(n)s not asked"),
    "verify.stopped_seconds": _("stopped: the limit of %(limit)s s per book was reached, "
                                "%(n)s not asked"),
    "verify.stopped_failures": _("stopped: %(limit)s calls in a row failed, so the model was no "
                                 "longer asked, %(n)s not asked"),
    "verify.stopped_server": _("stopped: the model server did not answer (%(error)s), "
                               "%(n)s not asked"),
    "verify.took": _("in %(seconds)s s"),
    "embed.done": _("%(sections)s sections, %(passages)s passages (%(made)s embedded anew)"),
    # Why a stage failed or waits again.
    "run.internal": _("Internal error while processing this stage; the details are in the "
                      "server log"),
    "run.database_busy": _("The database was busy or out of reach"),
    "run.retrying": _("Retrying in %(seconds)s s"),
    "run.interrupted_silent": _("Interrupted: the worker stopped responding; the stage was "
                                "requeued"),
    "run.interrupted_ended": _("Interrupted: the worker process ended; the stage was requeued"),
    "run.gave_up_silent": _("Gave up after %(n)s attempts: the worker stopped responding"),
    "run.gave_up_ended": _("Gave up after %(n)s attempts: the worker process ended"),
    "run.recut": _("Sections are cut by newer rules"),
    "run.reencode": _("The sentence encoder changed: the passages are embedded again"),
    "run.encoder_down": _("The encoder server did not answer: %(error)s"),
    "run.waiting_model": _("Waiting for the model server (%(error)s): asking again at "
                           "%(at)s"),
    "pdf.unopenable": _("The stored PDF could not be opened"),
    "ocr.engine": _("The OCR engine cannot be loaded: %(error)s"),
    # Why the verification agent placed a heading, or did not.
    "agent.too_many": _("The agent was not asked: the pages between its placed neighbours "
                        "(%(low)s–%(high)s) are too many to check, and no page carries its "
                        "printed number"),
    "agent.no_pages": _("The agent was not asked: no body pages lie between its placed "
                        "neighbours"),
    "agent.no_line": _("The agent was not asked: no heading-like line on pages "
                       "%(first)s–%(last)s matches it"),
    "agent.not_found": _("The agent did not find it: %(said)s"),
    "agent.not_found_silent": _("The agent did not find it: no reason given"),
    "agent.not_shown": _("The agent answered line %(line)s, which is not one of the lines shown "
                         "for this heading; the answer was discarded"),
    "agent.no_match": _("The agent pointed to “%(text)s” on page %(page)s, which does not match "
                        "the heading; the answer was discarded"),
    "agent.found": _("Found on page %(page)s: %(said)s"),
    "agent.found_silent": _("Found on page %(page)s"),
    "agent.no_answer": _("The agent gave no usable answer: %(error)s"),
    # A disagreement between the contents and the body (toc.model.ANOMALY_WORDS).
    "duplicate_page": _("pages %(first)s and %(second)s both read %(label)s"),
    "out_of_order_run": _("pages %(first)s–%(last)s read %(first_label)s–%(last_label)s"),
    "out_of_order": _("page %(page)s reads %(label)s after %(before)s on page %(before_page)s"),
    "missing_page": _("%(count)s printed page(s) missing between %(before)s and %(after)s"),
    "scan_missing": _("printed pages %(first)s–%(last)s are not in the scan"),
    "scan_missing_one": _("printed page %(first)s is not in the scan"),
    "scan_missing_some": _("printed pages %(first)s–%(last)s are not all in the scan: "
                           "%(count)s of them missing"),
    "scan_missing_some_one": _("printed page %(first)s may not be in the scan"),
    "scan_twice": _("printed pages %(first)s–%(last)s are in the scan twice"),
    "scan_twice_one": _("printed page %(first)s is in the scan twice"),
    "scan_out_of_order": _("printed pages %(first)s–%(last)s are out of order in the scan"),
    "scan_out_of_order_one": _("printed page %(first)s is out of order in the scan"),
    "far_from_toc": _("“%(title)s” found on page %(page)s, TOC and folios say %(predicted)s"),
    "far_from_toc_unknown": _("“%(title)s” found on page %(page)s, TOC and folios say unknown"),
    "toc_page_confirmed": _("“%(title)s”: printed %(read)s read, %(confirmed)s confirmed"),
    "toc_page_order": _("“%(title)s”: printed %(read)s breaks the page order"),
    "outline_level": _("“%(title)s”: level %(printed)s by the printed contents, %(outline)s by "
                       "the PDF's outline; the outline's is taken"),
    "outline_page": _("“%(title)s”: the printed contents place it on page %(printed)s, the "
                      "PDF's outline on page %(outline)s; page %(taken)s is taken"),
    "outline_titles": _("The PDF's outline and the printed contents share no titles; the "
                        "printed contents are used"),
    "outline_order": _("“%(title)s” stands in another order in the PDF's outline (bookmark "
                       "%(bookmark)s) than in the printed contents"),
    "outline_missing": _("“%(title)s” (printed contents) is not in the PDF's outline"),
    "outline_extra": _("“%(title)s” (PDF's outline, level %(level)s) is not in the printed "
                       "contents"),
    "outline_more": _("%(count)s more disagreements of this kind with the PDF's outline"),
    "order_inversion": _("“%(title)s” is on page %(page)s, before “%(before)s” on page "
                         "%(before_page)s, though the contents list it after"),
    "far_from_toc_agent": _("“%(title)s” found by the agent on page %(page)s; its printed page "
                            "%(printed)s is page %(expected)s"),
    "index_unmapped": _("%(unmapped)s of the index's %(total)s page references could not be "
                        "mapped to a page of this book: its printed page numbers were not read "
                        "on the pages, or the index belongs to another edition. They are kept "
                        "as printed, unresolved"),
}
assert set(ANOMALY_WORDS) <= set(WORDS)

KINDS = {
    "missing_page": _("Pages missing"),
    "duplicate_page": _("A page twice"),
    "out_of_order": _("Pages out of order"),
    "far_from_toc": _("A heading far from where the contents put it"),
    "toc_page_number": _("A page number in the contents"),
    "order_inversion": _("Headings out of order"),
    "outline_level": _("A level unlike the PDF's outline"),
    "outline_page": _("A page unlike the PDF's outline"),
    "outline_titles": _("The PDF's outline"),
    "outline_order": _("An order unlike the PDF's outline"),
    "outline_missing": _("Not in the PDF's outline"),
    "outline_extra": _("Only in the PDF's outline"),
    "index_unmapped": _("Index page numbers not found in the book"),
}
"""What each kind of anomaly is, as a heading before its sentence."""


def note(code: str, **values) -> dict:
    """Return the note code says with values, as it is stored (KeyError for a code unknown)."""
    WORDS[code]  # noqa: B018 (a typo in a code fails where it is written, not where shown)
    return {"code": code, **values}


def words(item) -> str:
    """Return one stored note worded in the active language: a plain string as it is; ""
    for what is neither (or a code unknown here, or values it does not fit)."""
    if isinstance(item, str):
        return item
    template = WORDS.get(item.get("code")) if isinstance(item, dict) else None
    if template is None:
        return ""
    values = {key: _shown(value) for key, value in item.items() if key != "code"}
    try:
        return str(template % values) if values else str(template)
    except (KeyError, TypeError, ValueError):
        return ""


def sentences(stored) -> str:
    """Return a stored text worded in the active language: its sentences, each of its
    clauses joined; a plain string (stored before notes) as it is."""
    if isinstance(stored, str):
        return stored
    comma = pgettext("between the clauses of a sentence", ", ")
    stop = pgettext("end of a sentence", ".")
    said = []
    for sentence in stored if isinstance(stored, list) else []:
        clauses = [text for text in map(words, sentence if isinstance(sentence, list) else [])
                   if text]
        if clauses:
            text = comma.join(clauses)
            said.append(text[:1].upper() + text[1:] + ("" if text.endswith(stop) else stop))
    # Japanese sentences follow one another with no space; English ones with one.
    return ("" if not stop.isascii() else " ").join(said)


def english(stored) -> str:
    """Return a stored text in English, as the log and the API give it."""
    with translation.override("en"):
        return sentences(stored)


def anomaly_text(anomaly: dict) -> tuple[str, str]:
    """Return (what kind it is, what it says) of one of a book's stored anomalies, worded in
    the active language; one stored before codes says its English detail."""
    kind = KINDS.get(anomaly.get("kind"), "")
    said = words({"code": anomaly.get("code"), **(anomaly.get("values") or {})}) \
        if anomaly.get("code") else ""
    return str(kind) or str(_("A disagreement")), said or str(anomaly.get("detail") or "")


def _shown(value):
    """Return a value as a sentence shows it: a list of pages as "3, 5, 8"."""
    if isinstance(value, list):
        return pgettext("between the items of a list", ", ").join(map(str, value))
    return value


def read_back(text: str, english: dict[str, str]) -> dict | None:
    """Return the note whose English (english: code → words) text is, with its values read
    back from it; None where it is none of them. For rows stored before notes."""
    text = (text or "").strip().removesuffix(".")
    for code, words_of in english.items():
        found = _pattern(words_of).fullmatch(text)
        if found:
            return {"code": code, **{key: int(value) if value.isdigit() else value
                                     for key, value in found.groupdict().items()}}
    return None


def english_words(codes) -> dict[str, str]:
    """Return the English of each of codes (codes of one form, not a plural), for
    ``read_back``."""
    with translation.override("en"):
        return {code: str(WORDS[code]) for code in codes}


def _pattern(words_of: str) -> re.Pattern:
    """Return the pattern of words with values: each value is the least text between."""
    parts = re.split(r"%\((\w+)\)s", words_of)
    return re.compile("".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
                              for i, part in enumerate(parts)), re.S)
