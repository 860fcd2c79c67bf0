"""Sign-in throttling: after the configured failures an account is locked out from that
address, on the login page and through HTTP Basic, and the answer says so."""

import base64

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def three_failures(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LIBRARIAN_LOGIN_LOCKOUT_MINUTES = 15


def log_in(client, password):
    return client.post("/login/", {"username": "bob", "password": password})


def basic(password):
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(f"bob:{password}".encode()).decode()}


def test_the_login_form_locks_out_after_the_failures_and_says_so(bob):
    client = Client()
    assert [log_in(client, "guess").status_code for _ in range(2)] == [200, 200]
    locked = log_in(client, "guess")
    assert locked.status_code == 429
    assert "Too many failed sign-ins for this account from here. Try again in 15 minutes" in (
        locked.content.decode())
    assert locked["Retry-After"] == "900"
    # Even the right password is refused while locked: a guess costs nothing, proves nothing.
    assert log_in(client, "bob-password").status_code == 429
    assert "_auth_user_id" not in client.session


def test_http_basic_counts_and_locks_out_the_same_way(bob):
    client = Client()
    assert [client.get("/api/books", **basic("guess")).status_code for _ in range(2)] == [401, 401]
    locked = client.get("/api/books", **basic("guess"))
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert client.get("/api/books", **basic("bob-password")).status_code == 429
    assert log_in(Client(), "bob-password").status_code == 429  # one count for both doors


def test_a_success_before_the_limit_starts_the_count_again(bob):
    client = Client()
    for _ in range(2):
        log_in(client, "guess")
    assert log_in(client, "bob-password").status_code == 302
    assert [log_in(Client(), "guess").status_code for _ in range(2)] == [200, 200]


def test_another_account_is_not_locked_out(bob, alice):
    client = Client()
    for _ in range(3):
        log_in(client, "guess")
    response = client.post("/login/", {"username": "alice", "password": "alice-password"})
    assert response.status_code == 302


def test_a_forged_forwarded_address_does_not_escape_the_count(bob):
    client = Client()
    statuses = [client.post("/login/", {"username": "bob", "password": "guess"},
                            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(4)]
    assert statuses[-1] == 429
