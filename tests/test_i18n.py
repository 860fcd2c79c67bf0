"""The interface in Japanese and English: the reader's language; each answer in its question's."""

import ast
import gettext
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

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
