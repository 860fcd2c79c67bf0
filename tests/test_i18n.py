"""The interface in Japanese and English: the reader's language; each answer in its question's."""

import ast
import gettext
import html.parser
import json
import re
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from chat.models import Message
from tests.test_chat import ask_json, boats, fake, no_model, read_stream, stream_url  # noqa: F401

pytestmark = pytest.mark.django_db
LOCALE = Path(__file__).resolve().parents[1] / "locale" / "ja" / "LC_MESSAGES"


def test_the_browsers_language_comes_first():
    assert "ログイン" in Client(HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5").get("/login/").text
    page = Client(HTTP_ACCEPT_LANGUAGE="en-GB,ja;q=0.5").get("/login/").text
    assert "Log in" in page and "ログイン" not in page
    assert '<html lang="ja">' in Client(HTTP_ACCEPT_LANGUAGE="ja").get("/login/").text


def test_the_language_switch_is_remembered_over_the_browsers(bob):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(bob)
    shelf = client.get(reverse("shelf")).text
    assert 'name="language" value="ja"' in shelf and "書棚" not in shelf
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/chat/"})
    assert response.status_code == 302 and response["Location"] == "/chat/"
    assert response.cookies["django_language"].value == "ja"
    page = client.get(reverse("shelf")).text
    assert "書棚" in page and "ログアウト" in page and 'value="en"' in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Log out" in client.get(reverse("shelf")).text


def test_the_scripts_catalogue_is_in_the_pages_language():
    answer = json.dumps("回答")[1:-1]  # the catalogue writes non-ASCII escaped
    assert answer in Client(HTTP_ACCEPT_LANGUAGE="ja").get(reverse("javascript-catalog")).text
    assert answer not in Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("javascript-catalog")).text


def answer_html(client, user, question):
    data = ask_json(client, question)
    _, events = read_stream(user, stream_url(data))
    return data["html"], " ".join(e[1].get("html", "") for e in events)


def test_a_japanese_questions_cards_are_labelled_in_japanese_on_an_english_page(
        bob, fake, no_model):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(bob)
    shell, streamed = answer_html(client, bob, "もやい結びはどこに書いてありますか？")
    assert "書棚を探しています" in shell and 'lang="ja"' in shell
    for label in ("1ページを表示", "1–2ページをダウンロード（PDF）",
                  "PDFの3–4ページ", "別のページを選ぶ…", "PDF をダウンロード"):
        assert label in streamed, label
    for english in ("Preview page", "Download pages", "Choose other pages"):
        assert english not in streamed
    page = client.get(Message.objects.filter(role="assistant").get().get_absolute_url()).text
    assert "別のページを選ぶ…" in page and "New conversation" in page  # the page stays English


def test_an_english_questions_cards_stay_english_on_a_japanese_page(bob, fake, no_model):
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(bob)
    _, streamed = answer_html(client, bob, "Where is the bowline explained?")
    assert "Preview page 1" in streamed and "Choose other pages…" in streamed
    page = client.get(Message.objects.filter(role="assistant").get().get_absolute_url()).text
    assert "Choose other pages…" in page and "新しい会話" in page


def entries(po: str) -> list[tuple[str, str, str]]:
    """Return (context, msgid, msgstr) of each entry of a .po file's text (msgstr[0] for
    plurals), the header left out."""
    def field(name, block):
        found = re.search(rf'^{name} ((?:".*"\n?)+)', block, re.M)
        return "".join(ast.literal_eval(line) for line in found.group(1).split("\n") if line) \
            if found else ""

    out = []
    for block in po.split("\n\n"):
        msgid = field("msgid", block)
        if msgid:
            out.append((field("msgctxt", block), msgid, field(r"msgstr(?:\[0\])?", block)))
    return out


@pytest.mark.parametrize(("domain", "least"), [("django", 250), ("djangojs", 20)])
def test_every_message_is_translated_and_compiled(domain, least):
    po = entries((LOCALE / f"{domain}.po").read_text(encoding="utf-8"))
    assert len(po) > least
    assert [msgid for _, msgid, msgstr in po if not msgstr] == []
    with open(LOCALE / f"{domain}.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = [msgid for context, msgid, msgstr in po
             if msgstr not in (compiled.pgettext(context, msgid) if context else
                               compiled.gettext(msgid), compiled.ngettext(msgid, msgid, 1))]
    assert stale == [], "run manage.py compilemessages -l ja"


TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
# Left as they are: the 500 page is static and bilingual; these words read the same in both.
NOT_TRANSLATED = {"500.html"}
SAME_IN_BOTH = re.compile(r"\b(?:API|PDF)\b")
UNSEEN = re.compile(r"{%\s*(blocktranslate|comment)\b.*?{%\s*end\1\s*%}|<(script|style)\b.*?</\2>"
                    r"|{#.*?#}", re.S)
TEMPLATE_CODE = re.compile(r"{%.*?%}|{{.*?}}", re.S)
SHOWN_ATTRIBUTE = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')
TAG = re.compile(r"<[^>]*>", re.S)
WORD = re.compile(r"[A-Za-z]{2,}")


def unmarked_text(template: str) -> list[str]:
    """Return the words a template shows outside {% translate %} and {% blocktranslate %}."""
    template = TEMPLATE_CODE.sub(" ", UNSEEN.sub(" ", template))
    shown = SHOWN_ATTRIBUTE.findall(template) + TAG.sub("\n", template).split("\n")
    return [text.strip() for text in (SAME_IN_BOTH.sub("", item) for item in shown)
            if WORD.search(text)]


def test_unmarked_text_is_found_in_text_and_shown_attributes():
    assert unmarked_text('<p title="Ready">{% translate "Done" %}</p><b>Index</b>') == \
        ["Ready", "Index"]
    assert unmarked_text('{% blocktranslate %}p. {{ n }}{% endblocktranslate %} PDF '
                         '<input value="yes">') == []


@pytest.mark.parametrize("path", sorted(p.relative_to(TEMPLATES).as_posix()
                                        for p in TEMPLATES.rglob("*.html")))
def test_every_template_marks_its_words_for_translation(path):
    if path not in NOT_TRANSLATED:
        assert unmarked_text((TEMPLATES / path).read_text(encoding="utf-8")) == []


# Every page, walked in Japanese: no English left that the interface wrote.
#
# A page is rendered in Japanese and in English. In the Japanese one, each run of ASCII words
# in the visible text (text nodes and the title, alt, placeholder and aria-label a reader meets)
# is untranslated if the English page shows the same run, unless it is
# - the books' own words (titles, headings, page text, file names) or a reader's (questions,
#   names): any text stored on the shelf, which the walk collects from the database;
# - inside code, pre, script or style, or in an element whose lang is not Japanese (an
#   English question's answer, the language switch's "English");
# - a word that reads the same in both languages (ALIKE).
# The walk's books use words no interface text uses, so their exemption hides nothing; and
# test_the_walk_finds_a_string_left_untranslated plants untranslated strings it must find.

ALIKE = {"API", "PDF", "OCR", "pt", "MB", "KB", "GB", "TeX", "LaTeX", "JavaScript"}
ROMAN = re.compile(r"(?i)[ivxlcdm]+")  # a page number, as books print front matter's
ASCII_RUN = re.compile(r"[A-Za-z][A-Za-z'’.\-]*(?:[ \t]+[A-Za-z][A-Za-z'’.\-]*)*")
SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")
UNSEEN_TAGS = {"script", "style", "code", "pre", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Shown(html.parser.HTMLParser):
    """Collects the text a reader sees of a page, with what is exempt left out (and what is
    in another language than language, where one is given)."""

    def __init__(self, language: str | None):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden here and below)
        self.texts: list[str] = []

    @property
    def hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        lang = values.get("lang")
        hidden = self.hidden or tag in UNSEEN_TAGS or bool(
            self.language and lang and not lang.startswith(self.language))
        if not hidden:
            self.texts += [values[name] for name in SHOWN_ATTRIBUTES if values.get(name)]
        if tag not in VOID:
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:  # browsers close what was left open
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data.strip())


def shown_text(page: str, language: str | None = "ja") -> list[str]:
    """Return the texts a reader sees on an HTML page, exempt parts left out (those in
    another language than language too, unless it is None)."""
    parser = _Shown(language)
    parser.feed(page)
    return parser.texts


def untranslated(japanese: str, english: str, data: set[str]) -> list[str]:
    """Return the runs of English words of a Japanese page that its English page shows too."""
    english_text = "\n".join(shown_text(english, None))
    found = []
    for text in shown_text(japanese):
        if any(text in stored for stored in data):
            continue  # the books' or a reader's words
        for run in ASCII_RUN.findall(text):
            words = [w for w in re.findall(r"[A-Za-z]{2,}", run)
                     if w not in ALIKE and not ROMAN.fullmatch(w)]
            if words and run.strip(" .-") in english_text and not any(
                    run.strip(" .-") in stored for stored in data):
                found.append(run.strip(" .-"))
    return sorted(set(found))


def test_the_shown_text_leaves_out_code_other_languages_and_hidden_parts():
    page = ('<p title="Ready">Done <code>toc_page_number</code></p><pre>x = 1</pre>'
            '<div lang="en">An English answer</div><script>var a = "b";</script>'
            '<img alt="Cover"><button lang="en">English</button><p>残り <b>3</b> 分</p>')
    assert shown_text(page) == ["Ready", "Done", "Cover", "残り", "3", "分"]
    assert "An English answer" in shown_text(f'<html lang="en">{page}</html>', None)
    assert untranslated("<p>Stopped: 目次</p><p>PDF の 3 ページ</p><p>A Short Guide</p>",
                        "<p>Stopped: Contents</p><p>PDF page 3</p><p>A Short Guide</p>",
                        {"A Short Guide"}) == ["Stopped"]


WALK_PAGES = [
    "Zephyr Quillon Handbook",
    "1 Mizzen Yards\nThe mizzen quillon braces every yawl astern.",
    "2 Bowline Bights\nA bowline bight makes every zephyr knot hold.",
]


@pytest.fixture
def walked_shelf(alice, shelve, tmp_path, monkeypatch, settings):
    """Return what the walk reads: a shelf with a book read to the end, one being read, one
    waiting its turn and one stopped at a failure; anomalies, a flagged heading the agent
    looked at, a collection; a conversation whose answer asked which of two places."""
    from books.headings import UNRESOLVED_REASON
    from books.models import Collection, Heading, ReviewFlag
    from indexing import notes, runner
    from indexing.models import StageRun
    from retrieval import pipeline
    from retrieval.results import Clarification, Option
    from tests.pdfs import make_japanese_pdf, make_pdf
    from tests.test_chat import FakeRetrieval, outcome, result
    from toc.model import ANOMALY_WORDS, anomaly

    settings.LIBRARIAN_WORKER_THREADS = 1  # one book at a time: the others wait their turn
    done = shelve(make_pdf(tmp_path / "quillon.pdf", WALK_PAGES, title="Zephyr Quillon Handbook"))
    fune = shelve(make_japanese_pdf(tmp_path / "fune.pdf", ["目次", "第1章 帆\n主帆は風を受ける。"]))
    reading, waiting, failed = (
        shelve(make_pdf(tmp_path / f"{name}.pdf", [name.title(), f"{name} yawl"]), process=False)
        for name in ("zorbic", "quaffle", "vexillum"))
    now = timezone.now()
    for book in (reading, waiting, failed):
        book.stage_runs.filter(stage="previews").update(status="done", seconds=1.0)
    reading.stage_runs.filter(stage="ocr").update(
        status="running", done=1, total=2, started_at=now - timedelta(seconds=30),
        claimed_by="walk")
    said = [[notes.note("pdf.unopenable")]]
    failed.stage_runs.filter(stage="ocr").update(status="failed", message=notes.english(said),
                                                 message_notes=said)
    values = {"first": 1, "second": 2, "last": 3, "label": "iv", "first_label": "iv",
              "last_label": "vi", "page": 2, "before": "iii", "before_page": 1, "count": 2,
              "after": "vii", "title": "Mizzen Yards", "predicted": 5, "read": "6",
              "confirmed": "16", "printed": 1, "outline": 2, "taken": 2, "bookmark": 3,
              "level": 2, "expected": 3, "unmapped": 12, "total": 14}
    done.anomalies = [{"kind": a.kind, "pages": a.pages, "detail": a.detail, "code": a.code,
                       "values": a.values}
                      for a in (anomaly(code.removesuffix("_agent").removesuffix("_run")
                                        .removesuffix("_unknown"), [2], code, **{
                                            key: values[key] for key in re.findall(
                                                r"%\((\w+)\)s", words)})
                                for code, words in ANOMALY_WORDS.items())]
    done.save(update_fields=["anomalies"])
    placed = Heading.objects.create(book=done, position=1, level=1, title="2 Bowline Bights",
                                    page=3, status=Heading.Status.EXACT)
    flagged = Heading.objects.create(book=done, position=2, level=1, title="3 Quillon Staves",
                                     status=Heading.Status.UNRESOLVED)
    why = notes.note("agent.no_line", first=2, last=3)
    ReviewFlag.objects.create(heading=flagged, reason=UNRESOLVED_REASON, severity=3,
                              agent_reason=notes.english([[why]]), agent_note=[[why]])
    Collection.objects.create(name="Quillon Yard").books.add(done)
    shown = [result(done, 1), result(fune, 2)]
    asked = Clarification("どちらの箇所ですか？", (Option(shown[0], "『Zephyr』1.1 Bowline", "結び"),
                                              Option(shown[1], "『fune』第1章 帆", "帆")))
    monkeypatch.setattr(pipeline, "iter_results", FakeRetrieval(shown, outcome(
        guide="1.1 [1]", places=(shown[0],), clarify=asked, language="ja")))
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(alice)
    client.post(reverse("chat-ask"), {"question": "ゼファーの結びはどこ？"})  # answered at once
    monkeypatch.setattr(runner, "runnable", runner.runnable)
    return {"done": done, "reading": reading, "waiting": waiting, "failed": failed,
            "flagged": flagged, "placed": placed,
            "conversation": Message.objects.get(role="assistant").conversation}


def stored_words() -> set[str]:
    """Return every string stored on the shelf that people wrote or the books hold."""
    from books.models import Book, Collection, Heading, Page
    from django.contrib.auth.models import User

    found: set[str] = set()

    def add(value):
        if isinstance(value, str) and value.strip():
            found.update({value.strip(), " ".join(value.split()),
                          *(line.strip() for line in value.splitlines())})
        elif isinstance(value, dict):
            for item in value.values():
                add(item)
        elif isinstance(value, list):
            for item in value:
                add(item)

    for rows in (Book.objects.values_list("title", "original_filename", "authors"),
                 Heading.objects.values_list("title"), Page.objects.values_list("text"),
                 Collection.objects.values_list("name"), User.objects.values_list("username"),
                 Message.objects.values_list("text", "results", "guide")):
        for row in rows:
            add(list(row))
    return found


def walk(shelf) -> list[tuple[str, str | None, str]]:
    """Return (name, url, method) of every page a person reads, with the data walked."""
    done, flagged = shelf["done"], shelf["flagged"]
    book = done.pk
    return [
        ("shelf", reverse("shelf"), "get"),
        ("register", reverse("register"), "upload"),  # the refusal, shown on the shelf
        ("book", reverse("book", args=[book]), "get"),
        ("book (being read)", reverse("book", args=[shelf["reading"].pk]), "get"),
        ("book (waiting)", reverse("book", args=[shelf["waiting"].pk]), "get"),
        ("book (failed)", reverse("book", args=[shelf["failed"].pk]), "get"),
        ("book-progress", reverse("book-progress", args=[shelf["reading"].pk]), "get"),
        ("book-edit", reverse("book-edit", args=[book]), "get"),
        ("book-delete", reverse("book-delete", args=[book]), "get"),
        ("book-search", reverse("book-search", args=[book]) + "?q=bowline", "get"),
        ("book-index", reverse("book-index", args=[book]), "get"),
        ("page", reverse("page", args=[book, 2]), "get"),
        ("collections", reverse("collections"), "get"),
        ("search", reverse("search") + "?q=quillon", "get"),
        ("review", reverse("review"), "get"),
        ("review-item", reverse("review-item", args=[flagged.pk]), "get"),
        ("heading", reverse("heading", args=[book, flagged.pk]), "get"),
        ("chat", reverse("chat"), "get"),
        ("conversation", reverse("conversation", args=[shelf["conversation"].pk]), "get"),
        ("clip", reverse("clip", args=[book]), "get"),
        ("clip (refused)", reverse("clip", args=[book]) + "?start=3&end=1", "get"),
        ("login", reverse("login"), "anonymous"),
    ]


# Pages not walked, and why: files, images and streams are no pages; the admin and the API's
# own documentation (Swagger UI) are tools for the people who run the server, in the words
# of Django and swagger-ui; a POST that only redirects shows its outcome on a walked page.
NOT_WALKED = {"book-original", "page-image", "review-toc-line", "chat-stream", "favicon",
              "javascript-catalog", "set_language", "logout", "search-slash", "retry-stage",
              "review-decide", "chat-ask", "chat-delete", "collection-rename",
              "collection-delete"}


UPLOADED = "notes.pdf"  # the name of the file the walk uploads: the reader's, not ours


def render(user, name, url, method, language) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if method != "anonymous":
        client.force_login(user)
    if method == "upload":
        bad = SimpleUploadedFile(UPLOADED, b"not a pdf at all", "application/pdf")
        client.post(url, {"files": [bad]})
        url = reverse("shelf")
    response = client.get(url)
    assert response.status_code in (200, 400), (name, response.status_code)
    return response.content.decode()


def untranslated_pages(user, shelf) -> dict[str, list[str]]:
    """Return, by page, the English runs left on its Japanese rendering."""
    data = stored_words() | {UPLOADED}
    found = {}
    for name, url, method in walk(shelf):
        japanese = render(user, name, url, method, "ja")
        assert re.search(r"[\u3040-\u30ff]", japanese), f"{name} is not in Japanese"
        left = untranslated(japanese, render(user, name, url, method, "en"), data)
        if left:
            found[name] = left
    return found


def page_names(patterns) -> set[str]:
    """Return the names of the url patterns, those of included ones too (not the admin's or
    the API's namespaces: the tools for those who run the server, and JSON)."""
    names = set()
    for pattern in patterns:
        if hasattr(pattern, "url_patterns"):
            if getattr(pattern, "namespace", None) not in ("admin", "api"):
                names |= page_names(pattern.url_patterns)
        elif pattern.name:
            names.add(pattern.name)
    return names


def test_every_page_is_walked_or_said_why_not():
    from django.urls import get_resolver

    walked = {name.split(" ")[0] for name, _, _ in walk(defaultdict(lambda: SimpleNamespace(
        pk=1)))}
    assert page_names(get_resolver().url_patterns) - walked - NOT_WALKED == set()


def test_every_page_in_japanese_has_no_english_left(alice, walked_shelf):
    assert untranslated_pages(alice, walked_shelf) == {}


def test_the_walk_finds_a_string_left_untranslated(alice, walked_shelf, monkeypatch):
    """The walk cannot pass by seeing nothing: strings planted untranslated are found, on the
    pages that show them (a template's, a note's, a stage's title)."""
    planted = {  # page → a string it shows, by the way it is shown
        "book (being read)": "Each step",  # a template's
        "book (failed)": "The stored PDF could not be opened",  # a stage's error note
        "book (waiting)": "Finding the contents",  # a stage's title, in the waiting sentence
        "shelf": "Waiting its turn behind “%(book)s”.",  # why a book waits
        "book": "Pages missing",  # an anomaly's kind
        "review-item": "The agent was not asked: no heading-like line on pages "
                       "%(first)s–%(last)s matches it",  # the agent's note
        "conversation": "in a book deleted from the shelf since",  # planted, not shown: none
    }
    real = translation._trans.gettext  # noqa: SLF001 (the catalogue's one way in)
    monkeypatch.setattr(translation._trans, "gettext", lambda message: message
                        if message in planted.values() else real(message))
    found = untranslated_pages(alice, walked_shelf)
    for page, message in planted.items():
        if page != "conversation":
            first = ASCII_RUN.findall(message)[0].strip(" .-")
            assert first in found.get(page, []), (page, found.get(page))
    assert "conversation" not in found  # nothing else is found
