"""The same contracts on PostgreSQL: search, claims, and stages handed between processes."""

import subprocess
import sys

import psycopg

from tests.pdfs import make_pdf
from tests.scaled.conftest import ROOT, app_env
from tests.scaled.servers import create_database, drop_database

CONTRACT_TESTS = ["tests/test_search.py", "tests/test_runner.py"]


def test_the_search_and_claim_contracts_hold_on_postgresql(pg_server, tmp_path):
    # The very tests the embedded default passes, run against PostgreSQL.
    env = app_env(tmp_path, database_url=create_database(pg_server, "librarian_contract"))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CONTRACT_TESTS],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    drop_database(pg_server, "librarian_contract")
    drop_database(pg_server, "test_librarian_contract")
    assert result.returncode == 0, result.stdout[-4000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout


def test_search_uses_the_trigram_index(stack, tmp_path):
    book = make_pdf(tmp_path / "boats.pdf", ["The mainsail catches the wind."] * 3)
    assert stack.manage("addbook", "--wait", book).returncode == 0
    with psycopg.connect(stack.database_url, autocommit=True) as connection:
        connection.execute("SET enable_seqscan = off")  # a tiny table: force the planner's hand
        plan = "\n".join(row[0] for row in connection.execute(
            "EXPLAIN SELECT rowid FROM books_page_fts WHERE text ILIKE '%mainsail%'"))
        rows = connection.execute("SELECT count(*) FROM books_page_fts").fetchone()[0]
    assert "books_page_fts_trgm" in plan
    assert rows == 3
