import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import translation

from librarian.auth import LIBRARIANS_GROUP
from tests.pdfs import make_japanese_pdf, make_pdf

# The int8 OCR models take about a minute to make: the tests (and the app processes
# they start) share one copy per machine instead of making them in every data dir.
OCR_MODEL_DIR = os.environ.get(
    "LIBRARIAN_TEST_OCR_MODEL_DIR", str(Path.home() / ".cache" / "librarian" / "ocr-models")
)

ENGLISH_PAGES = [
    "A Short Guide to Boats\nContents\n1 Sails ........ 2\n2 Knots ........ 3",
    "1 Sails\nThe mainsail catches the wind and drives the boat forward.",
    "2 Knots\nThe bowline makes a fixed loop at the end of a rope.",
]
JAPANESE_PAGES = [
    "目次\n第1章 帆 ........ 2\n第2章 結び ........ 3",
    "第1章 帆\n主帆は風を受けて船を前に進める。",
    "第2章 結び\nもやい結びは、ロープの端に固定された輪を作る。",
]


@pytest.fixture(autouse=True)
def default_language(settings):
    """Start every test in the default language: a request a test made in Japanese leaves
    Japanese active in its thread (LocaleMiddleware activates it), and what a later test has
    the app say would come out in Japanese, in whatever order the tests run."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    """Give every test its own data directory (and a fast password hasher)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    path = tmp_path / "data"
    path.mkdir()
    settings.LIBRARIAN_DATA_DIR = path
    settings.LIBRARIAN_OCR_MODEL_DIR = OCR_MODEL_DIR
    # No test assembles the 1 GB embedded model; tests of the model set one explicitly.
    settings.LIBRARIAN_LLM_MODEL = "none"
    return path


@pytest.fixture
def english_pdf(tmp_path):
    return make_pdf(tmp_path / "boats.pdf", ENGLISH_PAGES, title="A Short Guide to Boats")


@pytest.fixture
def japanese_pdf(tmp_path):
    return make_japanese_pdf(tmp_path / "fune.pdf", JAPANESE_PAGES)


@pytest.fixture
def alice(db):
    """Alice is a librarian: she registers books and reviews headings."""
    user = User.objects.create_user("alice", password="alice-password")
    user.groups.add(Group.objects.get(name=LIBRARIANS_GROUP))
    return user


@pytest.fixture
def bob(db):
    """Bob is a reader: he searches and downloads, nothing more."""
    return User.objects.create_user("bob", password="bob-password")


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def shelve(db):
    """Return a function that registers a PDF and runs its pipeline to the end."""
    from books.registration import read_chunks, register
    from indexing.runner import run_pending

    def shelve(path, *, process=True, **kwargs):
        with open(path, "rb") as handle:
            book = register(read_chunks(handle), path.name, **kwargs).book
        if process:
            run_pending("test-worker", book_id=book.pk)
        return book

    return shelve


@pytest.fixture
def boats(shelve, english_pdf):
    """The English test book (3 pages, "A Short Guide to Boats"), processed."""
    return shelve(english_pdf)


@pytest.fixture
def fune(shelve, japanese_pdf):
    """The Japanese test book, processed."""
    return shelve(japanese_pdf)
