"""daphne, with request bodies over the limit refused as they arrive.

daphne (through Twisted) receives a whole request body into a temporary file
before the application sees the request, so no view and no ASGI middleware can
refuse an oversized upload in time. ``LimitedRequest`` answers 413 and closes
the connection as soon as the headers declare too long a body, or as soon as
a body sent without a length passes the limit.
"""

from daphne.http_protocol import WebRequest
from daphne.server import Server

from librarian.security import body_limit, refusal


class LimitedRequest(WebRequest):
    limit = 0
    received = 0
    refused = False

    def gotLength(self, length):
        # Twisted keeps the request line's path on the channel until the body is in.
        path = getattr(self.channel, "_path", b"/books/register").split(b"?")[0]
        self.limit = body_limit(path.decode("latin-1"))
        if length is not None and length > self.limit:
            self.refuse()
        else:
            super().gotLength(length)

    def handleContentChunk(self, data):
        if self.refused:
            return
        self.received += len(data)
        if self.received > self.limit:
            self.refuse()
        else:
            super().handleContentChunk(data)

    def refuse(self):
        self.refused = True
        path = getattr(self.channel, "_path", b"/").decode("latin-1")
        status, headers, body = refusal(path, self.limit)
        head = [f"HTTP/1.1 {status} Content Too Large".encode()]
        head += [name + b": " + value for name, value in headers]
        self.channel.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.channel.transport.loseConnection()


class LimitedServer(Server):
    """daphne's Server whose HTTP connections make LimitedRequests."""

    @property
    def http_factory(self):
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory):
        build = factory.buildProtocol

        def build_limited(address):
            protocol = build(address)
            protocol.requestFactory = LimitedRequest
            return protocol

        factory.buildProtocol = build_limited
        self._http_factory = factory
