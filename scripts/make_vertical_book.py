"""Typeset a vertical (縦書き) test book with upLaTeX and scan it like bookbench's make_scans.py.

No bookbench book is set vertically, so this one is made from real Japanese
text: the sentences and short phrases of the Japanese catalogues Django ships
(BSD licence). Three levels (第一章 / 第一節 / 一), kanji folios (〔一二〕) and,
in its 目次, kanji page numbers (一二) or, with --numbers tcy, upright arabic
numbers set 縦中横. The PDF is compiled twice (the contents need the pages),
scanned with make_scans.py's degradation (an image-only PDF), and the ground
truth is written in the bookbench format from what TeX recorded at shipout.

Usage: .venv/bin/python scripts/make_vertical_book.py [--numbers kanji|tcy]
       [--bench-dir ~/.cache/bookbench] [--bookbench /work/shared/bookbench] [--noise medium]
Writes BENCH_DIR/scans/vertical/<id>.pdf (the scan) and <id>.gt.json beside it, and the
born-digital BENCH_DIR/pdf/vertical/<id>.pdf; <id> is vertical-kanji or vertical-tcy.
Needs uplatex and dvipdfmx (Debian: texlive-lang-japanese).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import django

KANJI = "〇一二三四五六七八九"
CHAPTERS, SECTIONS, ITEMS = 7, 3, 3  # 7 chapters of 3 sections of 3 items: 91 headings
SENTENCES_PER_ITEM = 11
FOOT = 0.92  # the folio stands below this share of the page; the contents' numbers above
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]+>|\\n")
LATIN = re.compile(r"[A-Za-z0-9_@/.+\-:;=#$%&^~\\{}<>|'\"()\[\]*]+")
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
HIRAGANA = re.compile(r"[\u3041-\u3096]{2}")
TITLE = re.compile(r"^[\u3040-\u30ff\u4e00-\u9fff]{3,11}$")


def kanji_digits(value: int) -> str:
    """Return value in positional kanji digits (12 → 一二)."""
    return "".join(KANJI[int(digit)] for digit in str(value))


def kanji_count(value: int) -> str:
    """Return a small count in kanji as chapters are numbered (12 → 十二)."""
    tens, ones = divmod(value, 10)
    ten = ("" if tens < 2 else KANJI[tens]) + ("十" if tens else "")
    return ten + (KANJI[ones] if ones else "")


def catalogue() -> list[str]:
    """Return the Japanese messages of Django's catalogues, in a fixed order."""
    root = Path(django.__file__).parent
    found = []
    for path in sorted(root.glob("**/locale/ja/LC_MESSAGES/django.po")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r'msgstr(?:\[\d\])? ((?:".*"\n?)+)', text):
            message = "".join(re.findall(r'"(.*)"', match.group(1)))
            if message:
                found.append(message)
    return list(dict.fromkeys(found))


def sentences_and_titles(messages: list[str]) -> tuple[list[str], list[str]]:
    """Return (body sentences, short heading phrases) from the catalogue messages."""
    sentences = []
    for message in messages:
        plain = "".join(PLACEHOLDER.sub("それ", message).split())
        plain = LATIN.sub("", plain).replace("“", "「").replace("”", "」")
        japanese = sum(1 for char in plain if JAPANESE.match(char))
        prose = HIRAGANA.search(plain) and plain.count("それ") <= 1
        if len(plain) >= 12 and prose and japanese >= 0.8 * len(plain):
            sentences.append(plain if plain.endswith(("。", "？", "！")) else plain + "。")
    titles = [m for m in messages if TITLE.match(m) and not m.endswith("語")]
    return sentences, titles


def outline(titles: list[str], offset: int) -> list[tuple[int, str, str]]:
    """Return [(level, numbering, title)] for the book, titles taken in turn from offset."""
    pool = iter(titles[offset:] + titles[:offset])
    entries = []
    for chapter in range(1, CHAPTERS + 1):
        entries.append((1, f"第{kanji_count(chapter)}章", next(pool)))
        for section in range(1, SECTIONS + 1):
            entries.append((2, f"第{kanji_count(section)}節", next(pool)))
            for item in range(1, ITEMS + 1):
                entries.append((3, kanji_count(item), next(pool)))
    return entries


PREAMBLE = r"""\documentclass[12pt,openany]{utbook}
\setlength{\paperwidth}{128mm}\setlength{\paperheight}{182mm}
\AtBeginDvi{\special{papersize=128mm,182mm}}
\setlength{\textheight}{95mm}\setlength{\textwidth}{138mm}
\setlength{\topmargin}{-10mm}\setlength{\oddsidemargin}{-12mm}\setlength{\evensidemargin}{-12mm}
\setlength{\headsep}{6mm}\setlength{\footskip}{12mm}
\makeatletter
\newcommand{\gtentry}[3]{}
\def\ps@book{\def\@oddfoot{\hfil\FOLIO\hfil}\def\@evenfoot{\@oddfoot}%
  \def\@oddhead{\hfil{\small\rightmark}}\def\@evenhead{{\small\rightmark}\hfil}}
\def\ps@front{\def\@oddfoot{}\def\@evenfoot{}\def\@oddhead{}\def\@evenhead{}}
\renewcommand{\thepage}{\number\c@page}
\newcommand{\leader}{\leaders\hbox to 1zw{\hss ・\hss}\hfill}
\newcommand{\tocline}[3]{\par\ifnum#1=1 \vskip 0.6zw\fi
  \noindent\hspace*{\numexpr 2*(#1-1)\relax zw}%
  {\ifnum#1=1 \bfseries\fi #2}\nobreak\leader\nobreak\TOCNUM{#3}\par}
\newcommand{\entry}[3]{\addtocontents{toc}{\protect\tocline{#3}{#2}{\thepage}}%
  \protected@write\@auxout{}{\string\gtentry{#3}{#2}{\thepage}}}
\newcommand{\Chapter}[2]{\clearpage\markright{#1　#2}%
  \vspace*{2zw}{\LARGE\bfseries #1　#2\entry{chapter}{#1　#2}{1}\par}\vspace{2zw}}
\newcommand{\Section}[2]{\par\vspace{1zw}%
  {\Large\bfseries #1　#2\entry{section}{#1　#2}{2}\par}\nopagebreak\vspace{0.5zw}}
\newcommand{\Item}[2]{\par\vspace{0.5zw}%
  {\large\bfseries #1　#2\entry{subsection}{#1　#2}{3}\par}\nopagebreak}
\makeatother
"""


def tex(entries, sentences, numbers: str, title: str) -> str:
    """Return the LaTeX source of the whole book."""
    folio = r"〔\kansuji\c@page〕" if numbers == "kanji" else r"\number\c@page"
    toc_number = (r"\newcommand{\TOCNUM}[1]{\kansuji#1}" if numbers == "kanji"
                  else r"\newcommand{\TOCNUM}[1]{\rensuji{#1}}")
    parts = [PREAMBLE, rf"\makeatletter\newcommand{{\FOLIO}}{{{folio}}}\makeatother", toc_number,
             r"\begin{document}\pagestyle{front}",
             rf"\vspace*{{4zw}}{{\Huge\bfseries {title}}}\par",
             r"\vspace{4zw}{\large 試験用の縦組み本}",
             r"\clearpage\null\clearpage",
             r"\renewcommand{\contentsname}{目次}\tableofcontents",
             r"\clearpage\pagestyle{book}\setcounter{page}{1}"]
    stream = _cycle(sentences)
    for level, number, heading in entries:
        command = {1: "Chapter", 2: "Section", 3: "Item"}[level]
        parts.append(rf"\{command}{{{number}}}{{{heading}}}")
        if level == 3:
            body = "".join(next(stream) for _ in range(SENTENCES_PER_ITEM))
            parts.append(body + r"\par")
    parts.append(r"\end{document}")
    return "\n".join(parts)


def _cycle(items):
    while True:
        yield from items


def compile_pdf(source: str, work: Path) -> tuple[Path, str]:
    """Return (PDF, .aux text) of the source compiled with upLaTeX twice and dvipdfmx."""
    (work / "book.tex").write_text(source, encoding="utf-8")
    for _ in range(2):
        subprocess.run(["uplatex", "-interaction=nonstopmode", "-halt-on-error", "book.tex"],
                       cwd=work, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["dvipdfmx", "-q", "book.dvi"], cwd=work, check=True)
    return work / "book.pdf", (work / "book.aux").read_text(encoding="utf-8")


def ground_truth(book_id: str, title: str, aux: str, pdf: Path) -> dict:
    """Return the bookbench ground truth: folios read from the PDF, entries from the .aux file."""
    import pymupdf

    with pymupdf.open(pdf) as document:
        texts = ["".join(page.get_text().split()) for page in document]
        page_labels = [_folio(page) for page in document]
    physical = {label: number for number, label in enumerate(page_labels, 1) if label}
    outline = []
    for level, text, printed in re.findall(r"\\gtentry\{(\d)\}\{(.+?)\}\{(\d+)\}", aux):
        text = text.replace(r"\quad", "　").replace(" ", "")
        page = physical[printed]
        if text.split("　")[-1] not in texts[page - 1]:
            raise SystemExit(f"{text} is not on page {page}")
        outline.append({"level": int(level), "title": text, "page": page,
                        "in_printed_toc": True, "printed_page": printed, "toc_text": text})
    first = physical["1"]
    toc = [n for n in range(2, first) if "・・" in texts[n - 1]]
    return {"id": book_id, "title": title, "lang": "ja", "pages": len(texts), "toc_pages": toc,
            "lot_pages": [], "outline": outline, "page_labels": page_labels,
            "label_source": "folios-as-typeset", "offset": first - 1,
            "physical_page_of_printed_1": first, "source": {"generator": Path(__file__).name}}


def _folio(page) -> str:
    """Return the page's printed number as arabic digits ("" when it has none)."""
    for x0, y0, x1, _, text, *_ in page.get_text("words"):
        centred = abs((x0 + x1) / 2 - page.rect.width / 2) < 0.1 * page.rect.width
        if y0 < FOOT * page.rect.height or not centred:
            continue  # not the folio: the foot's centre holds it, below the columns' ends
        digits = text.strip("〔〕")
        if digits and all(char in KANJI for char in digits) and text.startswith("〔"):
            return str(int("".join(str(KANJI.index(char)) for char in digits)))
        if digits.isdigit():
            return digits
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench-dir", type=Path, default=Path(
        os.environ.get("BOOKBENCH_DIR", Path.home() / ".cache" / "bookbench")))
    parser.add_argument("--numbers", choices=["kanji", "tcy"], default="kanji")
    parser.add_argument("--bookbench", type=Path, default=Path("/work/shared/bookbench"))
    parser.add_argument("--noise", default="medium")
    args = parser.parse_args()
    for tool in ("uplatex", "dvipdfmx"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install texlive-lang-japanese")
    sys.path.insert(0, str(args.bookbench))
    import make_scans

    book_id = f"vertical-{args.numbers}"
    sentences, titles = sentences_and_titles(catalogue())
    entries = outline(titles, 0 if args.numbers == "kanji" else 40)
    title = "縦組みの手引き" if args.numbers == "kanji" else "縦書き文書の作法"
    with tempfile.TemporaryDirectory() as work:
        pdf, aux = compile_pdf(tex(entries, sentences, args.numbers, title), Path(work))
        born = args.bench_dir / "pdf" / "vertical" / f"{book_id}.pdf"
        born.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(pdf, born)
    gt = ground_truth(book_id, title, aux, born)
    out = args.bench_dir / "scans" / "vertical"
    scan = make_scans.make_scan(str(born), str(out / f"{book_id}.pdf"), book_id,
                                noise=args.noise)
    scan.pop("per_page", None)
    gt["scan"] = scan
    (out / f"{book_id}.gt.json").write_text(json.dumps(gt, ensure_ascii=False, indent=1))
    print(f"{book_id}: {gt['pages']} pages, {len(gt['outline'])} headings, "
          f"contents on pages {gt['toc_pages']}")


if __name__ == "__main__":
    main()
