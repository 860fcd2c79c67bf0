#!/usr/bin/env python
"""Benchmark: how long a book's page takes to open on a cold server, and what previews cost.

Registers PDF in a data directory of its own (kept with --data, so the
pipeline runs once), runs the stages the book page shows (previews, ocr,
ingest, index), then starts the server fresh (a cold process, the OS file
cache dropped where the machine allows it) and times, over HTTP as a browser
asks: the book page's HTML, then the page with its 48 thumbnails (six at a
time, as a browser fetches them). It does the same once more with the
previews removed, which is how the page opened before the pipeline made them.

    python scripts/bench_book_page.py ~/.cache/bookbench/pdf/dev/octave.pdf --data /tmp/bench-octave
"""

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = "previews,ocr,ingest,contents"
USER, PASSWORD = "bench", "bench-password"
CREATE_USER = f"""
from django.contrib.auth.models import User
if not User.objects.filter(username="{USER}").exists():
    User.objects.create_user("{USER}", password="{PASSWORD}")
"""
BROWSER_CONNECTIONS = 6


def manage(env, *args, capture=True) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=capture, text=True)
    return done.stdout if capture else ""


def prepare(env, pdf: Path) -> dict:
    """Register pdf and run the stages the book page shows; return the book as addbook says."""
    manage(env, "migrate", "--noinput")
    manage(env, "shell", "-c", CREATE_USER)
    book = json.loads(manage(env, "addbook", str(pdf), "--json").strip().splitlines()[-1])
    manage(env, "runworker", "--once", "--stages", STAGES)
    report = manage(env, "shell", "-c", (
        "import json; from indexing.models import StageRun; print(json.dumps({r.stage: "
        f"[r.status, r.seconds, r.summary] for r in StageRun.objects.filter(book={book['id']})}}))"))
    book["stages"] = json.loads(report.strip().splitlines()[-1])
    return book


def drop_file_cache() -> bool:
    """Ask the kernel to forget cached file pages; return False where that is not allowed."""
    try:
        subprocess.run(["sync"], check=True)
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(env):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env={**env, "LIBRARIAN_WORKER": "external"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/login/", timeout=2)
            return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("The server did not start.")


def log_in(base):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/login/").read()
    token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    data = urllib.parse.urlencode({"username": USER, "password": PASSWORD,
                                   "csrfmiddlewaretoken": token}).encode()
    opener.open(urllib.request.Request(base + "/login/", data, headers={"Referer": base})).read()
    return opener


def open_book_page(env, book_id: int) -> dict:
    """Return seconds for the book page's HTML and for the page with all its thumbnails."""
    dropped = drop_file_cache()
    process, base = serve(env)
    try:
        opener = log_in(base)
        start = time.perf_counter()
        html = opener.open(f"{base}/books/{book_id}/").read().decode()
        html_seconds = time.perf_counter() - start
        thumbs = re.findall(r'src="(/books/\d+/pages/\d+/thumb\.png)"', html)
        with ThreadPoolExecutor(BROWSER_CONNECTIONS) as pool:
            sizes = list(pool.map(lambda url: len(opener.open(base + url).read()), thumbs))
        return {"html": html_seconds, "complete": time.perf_counter() - start,
                "thumbnails": len(thumbs), "thumbnail_kb": sum(sizes) / 1024,
                "file_cache_dropped": dropped}
    finally:
        process.terminate()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--data", type=Path, help="data directory to keep (default: a temporary one)")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="bench-book-page-"))
    data.mkdir(parents=True, exist_ok=True)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LIBRARIAN_")},
           "LIBRARIAN_DATA_DIR": str(data), "LIBRARIAN_LLM_MODEL": "none",
           "LIBRARIAN_DEBUG": "false"}
    book = prepare(env, args.pdf)
    status, seconds, summary = book["stages"]["previews"]
    print(f"{args.pdf.name}: {book['pages']} pages, book {book['id']}, data in {data}")
    for stage, (state, took, said) in book["stages"].items():
        print(f"  stage {stage}: {state} in {took or 0:.1f} s — {said}")
    print(f"previews: {1000 * (seconds or 0) / book['pages']:.1f} ms a page")
    with_previews = open_book_page(env, book["id"])
    folder = data / "cache" / "pages" / json.loads(manage(env, "shell", "-c", (
        f"import json; from books.models import Book; print(json.dumps(Book.objects.get(pk={book['id']}).sha256))"
    )).strip().splitlines()[-1])
    aside = folder.with_name(folder.name + ".bench-aside")
    shutil.move(folder, aside)
    try:
        on_demand = open_book_page(env, book["id"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.move(aside, folder)
    for name, figures in (("with previews", with_previews), ("rendered on demand", on_demand)):
        print(f"cold book page, {name}: HTML {figures['html']:.2f} s; with its "
              f"{figures['thumbnails']} thumbnails ({figures['thumbnail_kb']:.0f} KB) "
              f"{figures['complete']:.2f} s (file cache dropped: {figures['file_cache_dropped']})")


if __name__ == "__main__":
    main()
