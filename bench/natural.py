"""Natural reader questions against the shelf: the right section, chapter, places and book?

The questions (``questions/natural.jsonl`` of bookbench) are written the way a
reader types them, not copied from the page; ``NATURAL.md`` beside them says
how they are scored, and this module does exactly that:

- lookup: a hit when the book is right, the wanted title equals one of the
  result's last two breadcrumb entries, and the page ranges overlap (hit@1,
  hit@5);
- range: the first result has the wanted title and its pages overlap the
  wanted ones with a Jaccard of at least 0.7;
- multi: every wanted place is matched (as in lookup) by one of the first five;
- which_book: the first recommended book is the wanted one;
- none (a question the books do not answer, ``want`` empty): the answer says so
  (``Answer.weak``).

Whatever the kind, a row also says what issue 51 found readers meeting: the "no answer"
banner above a first card that is right (``banner_over_right``), and a first card with
nothing to read under its heading (``empty_first``).

Each kind is reported by the question's language, with the time to the first
result and to the guide (the written answer composed from the places). The
table says whether the local model's index terms were asked for
(``LIBRARIAN_QUERY_TERMS``, ``retrieval.question.suggest``): with them, the time to the
first result includes the model's. Where the terms come after the cards, each
lookup is asked again with them (``retrieval.refine``) and the table says how
often the place they put first, where it is not card [1], is the wanted one.
"""

import json
import re
import statistics
import time
import unicodedata
from collections import defaultdict
from difflib import SequenceMatcher
from pathlib import Path

from retrieval import iter_results, refine
from retrieval.question import suggest
from retrieval.results import Answer, Result

KINDS = ("lookup", "range", "multi", "which_book", "none")
JACCARD = 0.7
EMPTY = 40
"""A first card whose excerpt holds fewer letters than this past its heading's words has
nothing to read: a chapter's title page, a part's divider."""
ONE_PLACE = ("lookup", "none")
"""The kinds whose first card is one place to read (a whole unit's card lists its sections)."""


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# The outline's titles leave out the numbering that the printed contents (and so the
# recovered headings) carry: "UTF-8 変換" is "8.5 UTF-8 変換", "E Installing Octave"
# is "Appendix E Installing Octave".
_NUMBERING = re.compile(
    r"^(?:(?:chapter|part|section|appendix|付録)\s*)?"
    r"(?:[0-9]+(?:\.[0-9]+)*\.?\s*|[ivxlc]+\.?\s+|[a-z](?:\.[0-9]+)*\.?\s+)"
    r"|^第\s*[0-9〇一二三四五六七八九十百]+\s*[章部編節款項]\s*"
)


def _key(title: str) -> str:
    title = " ".join(unicodedata.normalize("NFKC", title).casefold().split())
    return _NUMBERING.sub("", title, count=1)


def same_title(found: str, wanted: str) -> bool:
    """Return True if two titles are the same heading, numbering aside (OCR may slip a
    character or two)."""
    a, b = _key(found), _key(wanted)
    return a == b or (min(len(a), len(b)) >= 8 and SequenceMatcher(None, a, b).ratio() >= 0.92)


def matches(result, want: dict, book_id: int) -> bool:
    """Return True if result is the wanted place: same book, title among the last two
    breadcrumb entries, overlapping pages."""
    if result.book_id != book_id:
        return False
    crumbs = (result.breadcrumb or [])[-2:]
    if not any(same_title(crumb, want["title"]) for crumb in crumbs):
        return False
    return result.page_start <= want["page_end"] and want["page_start"] <= result.page_end


def jaccard(result, want: dict) -> float:
    found = set(range(result.page_start, result.page_end + 1))
    wanted = set(range(want["page_start"], want["page_end"] + 1))
    return len(found & wanted) / len(found | wanted)


def ask(question: str, limit: int = 10) -> tuple[list[Result], Answer, float, float]:
    """Return the results, the answer, the seconds to the first result and to the answer."""
    started = time.perf_counter()
    first, results, answer = None, [], None
    for item in iter_results(question, limit=limit):
        if isinstance(item, Result):
            first = first or time.perf_counter() - started
            results.append(item)
        else:
            answer = item
    done = time.perf_counter() - started
    return results, answer, first if first is not None else done, done


def score(question: dict, results, answer, ids: dict[str, int]) -> dict:
    """Return the figures of one question (ids: bookbench id → book id on this shelf)."""
    kind, wants = question["kind"], question["want"]
    book = ids.get(wants[0]["book_id"]) if wants else None
    row = {"qid": question["qid"], "kind": kind, "lang": question["lang"],
           "weak": bool(answer and answer.weak),
           "empty_first": kind in ONE_PLACE and bool(results) and empty(results[0])}
    if kind == "none":
        row["hit1"] = row["weak"]
    elif kind == "lookup":
        hits = [matches(r, wants[0], book) for r in results[:5]]
        row.update(hit1=bool(hits and hits[0]), hit5=any(hits))
        row.update(_interview(answer, wants[0], book, bool(hits and hits[0])))
        if question.get("scope"):
            row["scope_kind"] = question["scope"]["kind"]
            row["scope_at1"] = bool(results) and _is_scope(results[0], question["scope"], book)
    elif kind == "range":
        top = results[0] if results else None
        row["jaccard"] = round(jaccard(top, wants[0]), 3) if top and top.book_id == book else 0.0
        row["hit1"] = bool(top) and top.book_id == book and row["jaccard"] >= JACCARD and any(
            same_title(crumb, wants[0]["title"]) for crumb in top.breadcrumb[-2:])
    elif kind == "multi":
        found = [any(matches(r, want, ids.get(want["book_id"])) for r in results[:5])
                 for want in wants]
        row.update(hit1=all(found), parts=sum(found), wanted=len(found))
    else:
        picks = (answer.recommendation or []) if answer else []
        row["hit1"] = bool(picks) and picks[0].book_id == book
        row["picked"] = [pick.book_id for pick in picks[:3]]
    row["banner_over_right"] = row["weak"] and kind != "none" and bool(row.get("hit1"))
    row["top"] = [f"{r.book_id}:{' > '.join(r.breadcrumb[-2:])} ({r.page_start}-{r.page_end})"
                  for r in results[:5]]
    return row


def empty(result) -> bool:
    """Return True if a card shows nothing to read but its headings (see EMPTY)."""
    heading = {w.casefold() for crumb in result.breadcrumb for w in re.findall(r"\w+", crumb)}
    letters = sum(len(w) for w in re.findall(r"\w+", result.excerpt or "")
                  if w.casefold() not in heading and not w.isdigit())
    return letters < EMPTY


def _interview(answer, want: dict, book: int, hit1: bool) -> dict:
    """Return whether the librarian asked which place is meant, whether the wanted place was
    an option, and whether it was found in the first exchange (the first card where it did
    not ask, an option where it did)."""
    clarify = answer.clarify if answer else None
    if clarify is None:
        return {"asked": False, "first_exchange": hit1}
    offered = any(matches(option.place, want, book) for option in clarify.options)
    return {"asked": True, "in_options": offered, "first_exchange": offered}


def _is_scope(result, scope: dict, book: int) -> bool:
    """Return True if result is the scope the question named, not a place inside it."""
    if result.book_id != book:
        return False
    if scope["title"]:
        return same_title(result.breadcrumb[-1], scope["title"])
    return scope["pages"] is not None and result.page_start <= scope["pages"][0] \
        and result.page_end >= scope["pages"][1] and (result.page_start, result.page_end) != \
        tuple(scope["pages"])


def run(questions: list[dict], ids: dict[str, int]) -> dict:
    """Ask every question of the whole shelf; return the rows and the summary."""
    next(iter_results("warm up", limit=1))  # loads the indexes and the encoder
    rows = []
    for question in questions:
        results, answer, first, done = ask(question["query"])
        row = score(question, results, answer, ids)
        row.update(first_ms=round(1000 * first), guide_ms=round(1000 * (done - first)),
                   suggested=list(answer.suggested) if answer else [])
        if question["kind"] == "lookup" and answer and suggest.when() == suggest.AFTER:
            refined = refine(question["query"], answer.shown())
            offered = refined.place if refined else None
            row["offered"] = None if offered is None else matches(
                offered, question["want"][0], ids.get(question["want"][0]["book_id"]))
            row["suggested"] = list(refined.terms) if refined else []
        rows.append(row)
    return {"rows": rows, "summary": summarise(rows), "suggested": suggest.when()}


def _share(rows, name) -> str:
    return f"{sum(bool(r.get(name)) for r in rows)}/{len(rows)}" if rows else "—"


def _pct(rows, name) -> float | None:
    return round(100 * sum(bool(r.get(name)) for r in rows) / len(rows), 1) if rows else None


def summarise(rows: list[dict]) -> dict:
    groups = defaultdict(list)
    for row in rows:
        for lang in (row["lang"], "all"):
            groups[(row["kind"], lang)].append(row)
    out = {}
    for (kind, lang), members in sorted(groups.items()):
        figures = {"questions": len(members), "hit1": _pct(members, "hit1")}
        if kind == "lookup":
            figures["hit5"] = _pct(members, "hit5")
        if kind == "range":
            figures["jaccard_mean"] = round(statistics.fmean(r["jaccard"] for r in members), 3)
        out[f"{kind}/{lang}"] = figures
    first = sorted(r["first_ms"] for r in rows) or [0]
    guide = sorted(r["guide_ms"] for r in rows) or [0]
    out["latency_ms"] = {"first_p50": _quantile(first, 0.5), "first_p95": _quantile(first, 0.95),
                         "guide_p50": _quantile(guide, 0.5), "guide_p95": _quantile(guide, 0.95)}
    return out


def _quantile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def report(figures: dict) -> str:
    rows, summary = figures["rows"], figures["summary"]
    terms = {suggest.BEFORE: "with the local model's index terms",
             suggest.AFTER: "the local model's index terms after the cards"}.get(
        figures.get("suggested"), "without the local model's index terms")
    lines = ["", f"Natural questions ({len(rows)}, each asked of the whole shelf, {terms})",
             f"  {'kind':12}{'lang':6}{'n':>4}{'hit@1':>9}{'hit@5':>9}{'other':>22}"]
    for kind in KINDS:
        for lang in ("en", "ja", "all"):
            members = [r for r in rows if r["kind"] == kind and (lang == "all" or r["lang"] == lang)]
            if not members:
                continue
            other = ""
            if kind == "range":
                other = f"Jaccard mean {statistics.fmean(r['jaccard'] for r in members):.2f}"
            if kind == "multi":
                other = f"parts {sum(r['parts'] for r in members)}/{sum(r['wanted'] for r in members)}"
            hit5 = _share(members, "hit5") if kind == "lookup" else ""
            lines.append(f"  {kind:12}{lang:6}{len(members):>4}{_share(members, 'hit1'):>9}"
                         f"{hit5:>9}{other:>22}")
    lat = summary["latency_ms"]
    lines.append(f"  first card p50 {lat['first_p50']} ms, p95 {lat['first_p95']} ms; "
                 f"guide after it p50 {lat['guide_p50']} ms, p95 {lat['guide_p95']} ms")
    offered = [r for r in rows if r.get("offered") is not None]
    if figures.get("suggested") == suggest.AFTER:
        right = sum(bool(r["offered"]) for r in offered)
        fixed = sum(bool(r["offered"]) and not r["hit1"] for r in offered)
        lines.append(f"  after the cards, the model's terms put another place first in "
                     f"{len(offered)} lookups: the wanted one in {right} ({fixed} where card [1] "
                     "had missed it)")
    lines.extend(_interview_lines(rows))
    lines.append(f"  \"no answer\" banner over a right first card {_share(rows, 'banner_over_right')}; "
                 f"a first card with nothing to read {_share(rows, 'empty_first')}")
    misses = [r for r in rows if not r.get("hit1")]
    lines.append(f"  missed at 1 ({len(misses)}):")
    for row in misses:
        lines.append(f"    {row['qid']} {row['kind']}/{row['lang']}: " + " | ".join(row["top"][:3]))
    return "\n".join(lines)


def _interview_lines(rows) -> list[str]:
    """Return the reference interview's figures over the lookups, and the scopes'."""
    lookups = [r for r in rows if r["kind"] == "lookup"]
    if not lookups:
        return []
    asked = [r for r in lookups if r["asked"]]
    quiet = [r for r in lookups if not r["asked"]]
    lines = [f"  interview: asked in {len(asked)}/{len(lookups)} lookups "
             f"({100 * len(asked) / len(lookups):.0f}%); found in the first exchange "
             f"{_share(lookups, 'first_exchange')}; the wanted place an option when asked "
             f"{_share(asked, 'in_options')}; card [1] wrong when not asked "
             f"{sum(not r['hit1'] for r in quiet)}/{len(quiet)}"]
    scoped = [r for r in lookups if r.get("scope_kind")]
    for kind in sorted({r["scope_kind"] for r in scoped}):
        members = [r for r in scoped if r["scope_kind"] == kind]
        lines.append(f"  scope {kind:8} hit@1 {_share(members, 'hit1')}, hit@5 "
                     f"{_share(members, 'hit5')}, the scope itself first "
                     f"{_share(members, 'scope_at1')}")
    return lines


def bench(truth_dir: Path, find_book, write, path: Path | None = None) -> dict:
    """Ask the natural questions of path (default: the truth directory's natural.jsonl;
    find_book(bookbench id) → Book or None); write the table with write and return the
    figures. Questions about a book not on the shelf are skipped."""
    questions = load(path or truth_dir / "questions" / "natural.jsonl")
    ids = {}
    for question in questions:
        for want in question["want"]:
            if want["book_id"] not in ids:
                book = find_book(want["book_id"])
                ids[want["book_id"]] = book.pk if book else None
    missing = sorted(name for name, pk in ids.items() if pk is None)
    if missing:
        write(f"natural questions: no book for {', '.join(missing)}; their questions are skipped")
    asked = [q for q in questions if all(ids.get(w["book_id"]) for w in q["want"])]
    figures = run(asked, ids)
    write(report(figures))
    return figures
