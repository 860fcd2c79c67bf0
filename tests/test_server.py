"""librarian.server inside daphne's HTTP channel: bodies held while the sender is checked,
request heads too long for it answered with a status.

The channel is the server's own (Twisted's, with its answer to over-long
lines), on an in-memory transport; the credential check is a Deferred the test
answers when it likes, so a body can stream in, in small pieces, for as long as
the check takes.
"""

from types import SimpleNamespace
from urllib.parse import quote

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.web.http import HTTPChannel

from librarian import server
from librarian.preauth import PREAUTH_LIMIT
from tests.multipart import form_data

SIGNED_IN = b"Authorization: Basic YWxpY2U6YWxpY2UtcGFzc3dvcmQ=\r\n"


class Recorded(server.LimitedRequest):
    """A LimitedRequest that records what daphne would hand the application."""

    def process(self):
        self.channel.handed.append((self.content.read(), self.args))


@pytest.fixture
def checks(monkeypatch, settings):
    """Return the credential checks asked for, as Deferreds nobody has answered yet."""
    settings.LIBRARIAN_MAX_UPLOAD_MB = 3
    pending = []
    monkeypatch.setattr(server, "deferToThread", lambda *call: pending.append(Deferred())
                        or pending[-1])
    return pending


def connect() -> tuple[HTTPChannel, StringTransport]:
    channel = server.LimitedChannel()
    channel.requestFactory = Recorded
    channel.factory = SimpleNamespace(server=SimpleNamespace(protocol_connected=lambda _: None))
    channel.callLater = Clock().callLater  # the idle timeout never fires
    channel.handed = []
    transport = StringTransport()
    channel.makeConnection(transport)
    return channel, transport


def pieces(data: bytes, size: int = 4096) -> list[bytes]:
    return [data[start:start + size] for start in range(0, len(data), size)]


def head(length: int, content_type: str = "application/pdf", extra: bytes = SIGNED_IN) -> bytes:
    return (b"POST /api/books HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra
            + f"Content-Type: {content_type}\r\nContent-Length: {length}\r\n\r\n".encode())


def numbered_body(size: int) -> bytes:
    """Return size bytes in which every 8-byte block says where it is: a moved block shows."""
    return b"".join(b"%08d" % block for block in range(size // 8))


def test_a_body_arriving_during_a_slow_check_reaches_django_whole_and_in_order(checks):
    channel, transport = connect()
    body = numbered_body(2 * PREAUTH_LIMIT)
    parts = pieces(body)
    for data in [head(len(body)), *parts[:300]]:  # 1.2 MB arrives while the check runs
        channel.dataReceived(data)
    assert len(checks) == 1 and transport.producerState == "paused"
    assert channel.handed == []
    checks[0].callback(True)
    assert transport.producerState == "producing"
    for data in parts[300:]:
        channel.dataReceived(data)
    assert [handed for handed, _ in channel.handed] == [body]


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_complete_before_the_check_answers_is_handed_on_once(checks, chunked):
    channel, _ = connect()
    body = numbered_body(PREAUTH_LIMIT + 80_000)
    if chunked:
        start = head(0).replace(b"Content-Length: 0", b"Transfer-Encoding: chunked")
        sent = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in pieces(body, 1000))
        sent += b"0\r\n\r\n"
    else:
        start, sent = head(len(body)), body
    for data in [start, *pieces(sent, 777)]:
        channel.dataReceived(data)
    assert channel.handed == []
    checks[0].callback(True)
    assert [handed for handed, _ in channel.handed] == [body]


def test_a_long_body_from_credentials_that_fail_is_refused_and_never_handed_on(checks):
    channel, transport = connect()
    for data in [head(2 * PREAUTH_LIMIT), b"x" * 65536]:
        channel.dataReceived(data)
    checks[0].callback(False)
    assert transport.value().startswith(b"HTTP/1.1 401 Unauthorized\r\n")
    assert transport.disconnecting and channel.handed == []


def test_a_form_body_is_handed_on_unparsed(checks):
    """Twisted would parse a multipart body into request.args, holding it in memory again."""
    channel, _ = connect()
    content_type, body = form_data("big.pdf", numbered_body(PREAUTH_LIMIT + 8))
    for data in [head(len(body), content_type), *pieces(body)]:
        channel.dataReceived(data)
    checks[0].callback(True)
    assert channel.handed == [(body, {})]


def test_a_body_is_invited_with_100_continue_only_once_it_may_be_sent(checks):
    expect = b"Expect: 100-continue\r\n"
    stranger, refused = connect()
    stranger.dataReceived(head(5_000_000_000, extra=expect))
    assert refused.value().startswith(b"HTTP/1.1 401 ") and b" 100 " not in refused.value()
    librarian, invited = connect()
    librarian.dataReceived(head(2 * PREAUTH_LIMIT, extra=SIGNED_IN + expect))
    assert invited.value() == b""  # not while the check runs
    checks[0].callback(True)
    assert invited.value() == b"HTTP/1.1 100 Continue\r\n\r\n"
    small, at_once = connect()
    small.dataReceived(head(1000, extra=expect))
    assert at_once.value() == b"HTTP/1.1 100 Continue\r\n\r\n" and len(checks) == 1


def long_search(characters: int) -> bytes:
    """Return a GET of the search page for that many Japanese characters (9 bytes each)."""
    return f"GET /search?q={quote('検' * characters)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


@pytest.mark.parametrize("pieces_of", [None, 1000])
def test_a_request_line_too_long_is_answered_414_not_dropped(pieces_of):
    channel, transport = connect()
    request = long_search(2000)  # an 18 KB request line
    for data in pieces(request, pieces_of) if pieces_of else [request]:
        if not transport.disconnecting:
            channel.dataReceived(data)
    answer = transport.value()
    assert answer.startswith(b"HTTP/1.1 414 Request-URI Too Long\r\n"), answer[:100]
    assert answer.endswith(b"The address is longer than 16 KB. Search with fewer words.")
    assert transport.disconnecting and channel.handed == []


def test_a_header_too_long_is_answered_431():
    channel, transport = connect()
    channel.dataReceived(b"GET / HTTP/1.1\r\nCookie: " + b"a" * 20_000 + b"\r\n\r\n")
    assert transport.value().startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert transport.disconnecting and channel.handed == []


def test_a_long_search_within_the_limit_reaches_the_app_with_its_headers():
    channel, transport = connect()
    request = long_search(1700).replace(b"\r\n\r\n", b"\r\nCookie: " + b"c" * 4000 + b"\r\n\r\n")
    channel.dataReceived(request)  # a 15 KB line and 4 KB of headers: 19 KB of head in all
    assert transport.value() == b"" and len(channel.handed) == 1


@pytest.mark.parametrize("line,status", [
    (b"GET /search?q=%E6%A4%9C HTTP/1.1", 414), (b"POST /api/books", 414),
    (b"Cookie: a=b", 431), (b"X-Anything: GET /x", 431), (b"get /x", 431)])
def test_the_status_says_which_line_was_too_long(line, status):
    assert server.head_line_refusal(line)[0] == status


def test_the_server_builds_its_connections_on_the_channel_that_answers_414():
    from daphne.http_protocol import HTTPFactory
    from twisted.internet.address import IPv4Address

    daphne = server.LimitedServer.__new__(server.LimitedServer)
    daphne.http_factory = HTTPFactory(daphne)  # as daphne's Server.run sets it
    protocol = daphne.http_factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 5000))
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.dataReceived(long_search(2000))
    assert transport.value().startswith(b"HTTP/1.1 414 ")
    assert protocol.requestFactory is server.LimitedRequest
