"""What the crash tests look at: every committed page write and claim, logged by triggers.

The triggers sit in the database, outside the app, so they see what each
process really committed; work rolled back (a killed or fenced worker's) is
not logged.
"""

import shutil
import subprocess
from pathlib import Path

from tests.pdfs import make_pdf, scan_of

PG_TRIGGERS = """
CREATE TABLE page_writes (id serial PRIMARY KEY, book_id bigint, number int, source text);
CREATE FUNCTION log_page_write() RETURNS trigger AS $$
BEGIN
    INSERT INTO page_writes (book_id, number, source) VALUES (NEW.book_id, NEW.number, NEW.source);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER page_written AFTER INSERT OR UPDATE OF source, text, lines ON books_page
    FOR EACH ROW EXECUTE FUNCTION log_page_write();
CREATE TABLE claims (id serial PRIMARY KEY, run_id bigint, stage text, book_id bigint, worker text);
CREATE FUNCTION log_claim() RETURNS trigger AS $$
BEGIN
    INSERT INTO claims (run_id, stage, book_id, worker)
        VALUES (NEW.id, NEW.stage, NEW.book_id, NEW.claimed_by);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER run_claimed AFTER UPDATE OF status ON indexing_stagerun
    FOR EACH ROW WHEN (NEW.status = 'running' AND OLD.status <> 'running')
    EXECUTE FUNCTION log_claim();
"""

SQLITE_TRIGGERS = """
CREATE TABLE page_writes (id integer PRIMARY KEY, book_id integer, number integer, source text);
CREATE TRIGGER page_inserted AFTER INSERT ON books_page BEGIN
    INSERT INTO page_writes (book_id, number, source) VALUES (NEW.book_id, NEW.number, NEW.source);
END;
CREATE TRIGGER page_updated AFTER UPDATE OF source, text, lines ON books_page BEGIN
    INSERT INTO page_writes (book_id, number, source) VALUES (NEW.book_id, NEW.number, NEW.source);
END;
"""

PAGES = "SELECT number, source, text, lines::text, error FROM books_page WHERE book_id = %s ORDER BY number"
HEADINGS = (
    "SELECT position, level, number, title, printed_page, page, page_end, status, confidence "
    "FROM books_heading WHERE book_id = %s ORDER BY position"
)
CHAPTERS = ["Sails", "Knots", "Anchors", "Rigging", "Weather", "Charts", "Tides"]


def book_pages(count: int) -> list[str]:
    """Return the texts of a book with a contents page, a chapter every few pages, and folios."""
    every = max(1, (count - 1) // len(CHAPTERS))
    starts = {2 + i * every: title for i, title in enumerate(CHAPTERS) if 2 + i * every <= count}
    contents = ["Contents"] + [f"{i + 1} {title} .......... {page}"
                               for i, (page, title) in enumerate(sorted(starts.items()))]
    pages = ["\n".join(contents)]
    for number in range(2, count + 1):
        lines = []
        if number in starts:
            lines.append(f"{sorted(starts).index(number) + 1} {starts[number]}")
        lines += [f"Line {k} of page {number}: the crew hauls rope number {number * 10 + k}."
                  for k in range(1, 4)]
        lines += [""] * 6 + [str(number)]
        pages.append("\n".join(lines))
    return pages


def twin_scans(folder: Path, count: int) -> tuple[Path, Path]:
    """Write a text-less scanned book and a twin with the same pages but another file hash."""
    born_digital = make_pdf(folder / "born-digital.pdf", book_pages(count))
    scan = scan_of(born_digital, folder / "scan.pdf", dpi=100)
    twin = folder / "twin.pdf"
    shutil.copy(scan, twin)
    with open(twin, "ab") as handle:
        handle.write(b"\n% the same book, scanned again\n")
    return scan, twin


def other_host() -> list[str]:
    """Return a command prefix that runs a process under another host name, or [] if impossible.

    A claim held on another machine can only be freed by its expiry, which
    is what a worker killed on a GPU box looks like to the rest.
    """
    prefix = ["unshare", "--uts", "sh", "-c", 'hostname gpu-box && exec "$@"', "sh"]
    if shutil.which("unshare") and subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
        return prefix
    return []
