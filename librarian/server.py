"""daphne, with request bodies refused as they arrive: too long, or from someone not signed in.

daphne (through Twisted) receives a whole request body into a temporary file
before the application sees the request, so no view and no ASGI middleware can
refuse an oversized upload in time. ``LimitedRequest`` answers as soon as the
headers declare too long a body, or as soon as a body sent without a length
passes the limit. A body over ``PREAUTH_LIMIT`` is only read from someone
signed in: without credentials it is refused from the headers (401 for the
API, 403 for pages); with them, reading stops while a worker thread checks
them (the database, a password hash: never in the reactor), then goes on
under the upload limit or is refused. The body goes to Django as it came:
Twisted's own parse of form bodies into ``request.args``, which daphne never
reads, would hold a whole upload in memory several times over, in the reactor.

A line of the request head longer than Twisted takes (a search of 2,000
Japanese characters is an 18 KB request line) is answered 414 (the request
line) or 431 (a header) by ``LimitedChannel``, where Twisted would drop the
connection without a word.
"""

import logging
import re
from http import HTTPStatus

from daphne.http_protocol import WebRequest
from daphne.server import Server
from django.db import connections
from twisted.internet.threads import deferToThread
from twisted.web.http import HTTPChannel, _GenericHTTPChannelProtocol

from librarian.preauth import PREAUTH_LIMIT, has_credentials, signed_in
from librarian.security import body_limit, refusal

logger = logging.getLogger(__name__)
LINE_LIMIT = HTTPChannel.MAX_LENGTH  # 16 KB: Twisted's, for the request line and each header
REQUEST_LINE = re.compile(rb"[A-Z]+ (\S*)")


def _check(headers, client: str, path: str) -> bool:
    try:
        return signed_in(headers, client, path)
    finally:
        connections.close_all()  # a pool thread keeps no connection open


class LimitedRequest(WebRequest):
    limit = 0
    received = 0
    refused = False
    known = True  # whether the sender is known to be signed in (or needs not be)
    checking = False
    declared = None
    path_seen = ""
    held: list = []
    finished_early = None
    continue_later = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, parsePOSTFormSubmission=False, **kwargs)

    def gotLength(self, length):
        self.held, self.declared, self.path_seen = [], length, self._path()
        if length is not None and length <= PREAUTH_LIMIT:
            self.limit = body_limit(self._path())  # small: anyone may send it, Django checks
        elif not has_credentials(self._headers()):
            self.known, self.limit = False, PREAUTH_LIMIT
        else:
            self.limit = PREAUTH_LIMIT  # until the check says otherwise
            self._start_check()
        if length is not None and length > self.limit and not self.checking:
            self.refuse()
        else:
            super().gotLength(length)
        self._hold_back_continue()

    def _hold_back_continue(self) -> None:
        """Keep Twisted's "100 Continue" from inviting a body refused, or not yet allowed.

        Twisted sends it right after the headers; after a refusal it would
        follow the final answer. A body allowed once the check is done is
        invited then.
        """
        expect = self.requestHeaders.getRawHeaders(b"Expect") or [b""]
        if expect[0].lower() == b"100-continue" and (self.refused or self.checking):
            self.requestHeaders.removeHeader(b"Expect")
            self.continue_later = getattr(self.channel, "_version", b"") == b"HTTP/1.1"

    def _path(self) -> str:
        # Twisted keeps the request line's path on the channel until the body is in.
        return getattr(self.channel, "_path", b"/books/register").split(b"?")[0].decode("latin-1")

    def _headers(self) -> list[tuple[bytes, bytes]]:
        return [(name, value) for name, values in self.requestHeaders.getAllRawHeaders()
                for value in values]

    def _start_check(self) -> None:
        self.checking = True
        self.channel.transport.pauseProducing()
        client = getattr(self.channel.transport.getPeer(), "host", "")
        checked = deferToThread(_check, self._headers(), client, self._path())
        checked.addCallbacks(self._checked, lambda failure: self._checked(False))

    def _checked(self, known: bool) -> None:
        self.checking, self.known = False, known
        if known:
            self.limit = body_limit(self.path_seen)  # the channel forgets it once the body is in
        if self.declared is not None and self.declared > self.limit:
            return self.refuse()
        if self.continue_later and not self.finished_early:
            self.channel.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        self.channel.transport.resumeProducing()
        held, self.held = self.held, []
        for data in held:
            self.handleContentChunk(data)
        if self.finished_early and not self.refused:
            super().requestReceived(*self.finished_early)

    def handleContentChunk(self, data):
        if self.refused:
            return
        if self.checking:
            self.held.append(data)  # what came in before reading stopped
            return
        self.received += len(data)
        if self.received > self.limit:
            self.refuse()
        else:
            super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if self.checking:
            self.finished_early = (command, path, version)
        elif not self.refused:
            super().requestReceived(command, path, version)

    def refuse(self):
        self.refused = True
        status, headers, body = refusal(self.path_seen or self._path(), self.limit, self.known)
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode()]
        head += [name + b": " + value for name, value in headers]
        self.channel.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.channel.transport.resumeProducing()
        self.channel.transport.loseConnection()


def head_line_refusal(line: bytes) -> tuple[int, bytes]:
    """Return the status and plain-text body that answer a request-head line over LINE_LIMIT.

    line is what Twisted holds of the request head when it gives up, starting
    with the line that is too long: a request line ("GET /search?q=…") gets
    414, a header 431.
    """
    if REQUEST_LINE.match(line):
        return 414, (f"The address is longer than {LINE_LIMIT // 1024} KB. "
                     "Search with fewer words.").encode()
    return 431, f"A request header is longer than {LINE_LIMIT // 1024} KB.".encode()


def _head(status: int, body: bytes) -> bytes:
    return (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


class LimitedChannel(HTTPChannel):
    """Twisted's HTTP channel, answering an over-long line of the request head with a status."""

    # The request line alone may take LINE_LIMIT; the headers that follow it get as much.
    totalHeadersSize = 2 * LINE_LIMIT

    def lineLengthExceeded(self, line):
        status, body = head_line_refusal(line)
        client = getattr(self.transport.getPeer(), "host", "")
        logger.warning("Refused a request-head line of over %s bytes from %s: %s",
                       LINE_LIMIT, client, status)
        self.transport.write(_head(status, body))
        self.loseConnection()


class LimitedServer(Server):
    """daphne's Server whose HTTP connections are LimitedChannels making LimitedRequests."""

    @property
    def http_factory(self):
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory):
        build = factory.buildProtocol
        # Twisted's own factory of connections, with the channel above in place of its own.
        factory.protocol = lambda: _GenericHTTPChannelProtocol(LimitedChannel())

        def build_limited(address):
            protocol = build(address)
            protocol.requestFactory = LimitedRequest
            return protocol

        factory.buildProtocol = build_limited
        self._http_factory = factory
