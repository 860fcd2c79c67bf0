"""Property tests of request heads: any Host, any length of request line or header.

Every Host header gets a page (400 for one not allowed), never a server error;
every request head reaching the server's HTTP channel is either handed on to
the application or answered with a 4xx status, never dropped without a word.
"""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from librarian import server
from tests.fuzz.conftest import record
from tests.fuzz.strategies import text

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

SETTINGS = settings(max_examples=150, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))
hosts = st.one_of(
    st.sampled_from(["evil.example", "127.0.0.1", "localhost:8000", "[::1]", "127.0.0.1:99999",
                     "localhost.", "LOCALHOST", "a" * 300, "127.0.0.1@evil.example",
                     "evil.example#127.0.0.1", "", " ", "xn--nxasmq6b"]),
    text.map(lambda value: value.encode("latin-1", "ignore").decode("latin-1")),
)


@SETTINGS
@given(host=hosts, path=st.sampled_from(["/", "/login/", "/search?q=x", "/api/books", "/x"]))
def test_any_host_gets_a_page_never_a_server_error(bob, host, path):
    client = Client(raise_request_exception=False)
    client.force_login(bob)
    response = client.get(path, HTTP_HOST=host)
    record("reader", "host", response.status_code)
    assert response.status_code < 500


class Handed(server.LimitedRequest):
    def process(self):
        self.channel.handed.append(self.uri)


def channel() -> tuple[server.LimitedChannel, StringTransport]:
    from types import SimpleNamespace

    made = server.LimitedChannel()
    made.requestFactory = Handed
    made.factory = SimpleNamespace(server=SimpleNamespace(protocol_connected=lambda _: None))
    made.callLater = Clock().callLater
    made.handed = []
    transport = StringTransport()
    made.makeConnection(transport)
    return made, transport


@SETTINGS
@given(line=st.integers(1, 40_000), header=st.integers(0, 40_000), headers=st.integers(0, 30),
       piece=st.sampled_from([1 << 20, 4096, 777]))
def test_every_request_head_is_handed_on_or_answered(line, header, headers, piece):
    head = (b"GET /search?q=" + b"%E6" * (line // 3) + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + b"".join(b"X-Filler-%d: %s\r\n" % (n, b"f" * (header // max(headers, 1)))
                       for n in range(headers)) + b"\r\n")
    made, transport = channel()
    for start in range(0, len(head), piece):
        if transport.disconnecting:
            break
        made.dataReceived(head[start:start + piece])
    answer = transport.value()
    record("anonymous", "raw head", int(answer[9:12]) if answer else 200)
    if made.handed:
        assert answer == b""
    else:
        assert answer[:10] == b"HTTP/1.1 4" and transport.disconnecting, (len(head), answer[:60])
