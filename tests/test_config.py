import pytest
from django.core.exceptions import ImproperlyConfigured

from librarian import config


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), ("YES", True), ("off", False), ("0", False), ("", True)],
)
def test_it_reads_booleans(monkeypatch, value, expected):
    monkeypatch.setenv("LIBRARIAN_FLAG", value)
    assert config.env_bool("FLAG", True) is expected


def test_it_rejects_a_misspelt_boolean(monkeypatch):
    monkeypatch.setenv("LIBRARIAN_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="LIBRARIAN_FLAG='ture' is not valid"):
        config.env_bool("FLAG", False)


@pytest.mark.parametrize("value", ["abc", "0", "101", "1.5"])
def test_it_rejects_integers_out_of_range_or_malformed(monkeypatch, value):
    monkeypatch.setenv("LIBRARIAN_COUNT", value)
    with pytest.raises(ImproperlyConfigured, match="whole number from 1 to 100"):
        config.env_int("COUNT", 5, minimum=1, maximum=100)


def test_it_uses_the_default_when_unset(monkeypatch):
    monkeypatch.delenv("LIBRARIAN_COUNT", raising=False)
    assert config.env_int("COUNT", 5, minimum=1, maximum=100) == 5


def test_it_rejects_an_unknown_choice(monkeypatch):
    monkeypatch.setenv("LIBRARIAN_WORKER", "threads")
    with pytest.raises(ImproperlyConfigured, match="one of embedded, external"):
        config.env_choice("WORKER", "embedded", ("embedded", "external"))


def test_it_splits_lists(monkeypatch):
    monkeypatch.setenv("LIBRARIAN_HOSTS", " a.example , b.example,")
    assert config.env_list("HOSTS", []) == ["a.example", "b.example"]


def test_it_generates_a_secret_key_once(monkeypatch, tmp_path):
    monkeypatch.delenv("LIBRARIAN_SECRET_KEY", raising=False)
    first = config.secret_key(tmp_path)
    assert len(first) >= 50
    assert config.secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_it_rejects_a_short_secret_key(monkeypatch, tmp_path):
    monkeypatch.setenv("LIBRARIAN_SECRET_KEY", "short")
    with pytest.raises(ImproperlyConfigured, match="at least 32 characters"):
        config.secret_key(tmp_path)
