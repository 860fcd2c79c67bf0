"""Models served over HTTP by a server the deployment runs, and the rest after a failure.

A GPU team runs its models behind an OpenAI-compatible server (llama.cpp's
``llama-server``, ``python -m llama_cpp.server``, vLLM, Ollama, TEI); every
process of the librarian (the web server and each worker) asks the same one
instead of loading its own copy. ``Service`` is one such endpoint: one HTTP
client (httpx2, its connections kept), a bound on the calls this process makes
at once, a time limit on connecting and on each wait for the next bytes of an
answer, and a circuit breaker. A call that fails for the server's sake (it is
down, too slow, overloaded with 429 or 503, or answers what is not the API's
form) raises ``Unavailable`` and puts the service to rest: until the rest is
over every call fails at once, without waiting on the network, and the rest
doubles with each failure in a row (``SERVED_RETRY_SECONDS`` at first, at most
``MAX_REST``; a server's own Retry-After is taken when longer). The first call
after the rest tries again; one that succeeds ends it.

A service is kept per process for its kind and endpoint (``service``), so every
thread sees the same rest; ``resting()`` tells which services are resting now,
for an answer to say once that it was made without them.
"""

import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx2

from librarian.config import env_secret, setting
from llm.errors import LlmError, LlmTimeout

logger = logging.getLogger(__name__)

MODEL, ENCODER, RERANKER = "model", "encoder", "reranker"
MAX_REST = 300.0
"""The longest rest, in seconds, after failures in a row: a server back from a long outage
is found within five minutes."""
OVERLOADED = {429, 503}


class Unavailable(LlmError):
    """The server gave no usable answer (down, slow, overloaded, or not speaking the API):
    the librarian goes on without it and asks again after a rest."""

    def __init__(self, message: str, retry_in: float = 0.0):
        super().__init__(message)
        self.retry_in = retry_in


@dataclass(frozen=True)
class Endpoint:
    """Where one served model is, and how long to wait for it; built once from settings."""

    url: str
    name: str = ""
    """The model asked for; "": the first the server lists (``/models``)."""
    api_key: str = field(default="", repr=False)
    connect_seconds: float = 5.0
    idle_seconds: float = 30.0
    """The most seconds between two pieces of an answer (and to its first)."""
    retry_seconds: float = 10.0
    concurrency: int = 4

    @classmethod
    def from_settings(cls, url: str, name: str = "", concurrency: int = 4) -> "Endpoint":
        return cls(url.rstrip("/"), name, api_key(), setting("SERVED_CONNECT_SECONDS"),
                   setting("SERVED_IDLE_SECONDS"), setting("SERVED_RETRY_SECONDS"), concurrency)


def api_key() -> str:
    """Return the key sent to the model servers: the file LIBRARIAN_SERVED_API_KEY_FILE
    names (its first line), else LIBRARIAN_SERVED_API_KEY, else ""."""
    path = setting("SERVED_API_KEY_FILE")
    if path:
        try:
            lines = Path(path).expanduser().read_text().strip().splitlines()
        except OSError as error:
            raise LlmError(f"LIBRARIAN_SERVED_API_KEY_FILE cannot be read ({error.strerror})")
        return lines[0].strip() if lines else ""
    return env_secret("SERVED_API_KEY").strip()


def v1(url: str) -> str:
    """Return an OpenAI-style base URL: as given when it has a path, else with /v1."""
    scheme, _, rest = url.rstrip("/").partition("://")
    return url.rstrip("/") if "/" in rest else f"{scheme}://{rest}/v1"


class Service:
    """One served model's endpoint, shared by the threads of a process (see the module)."""

    def __init__(self, kind: str, endpoint: Endpoint, clock=time.monotonic):
        self.kind, self.endpoint, self.clock = kind, endpoint, clock
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        self.client = httpx2.Client(
            headers=headers, follow_redirects=False,
            timeout=httpx2.Timeout(endpoint.idle_seconds, connect=endpoint.connect_seconds),
            limits=httpx2.Limits(max_connections=endpoint.concurrency + 2))
        self.slots = threading.BoundedSemaphore(endpoint.concurrency)
        self.lock = threading.Lock()
        self.failures, self.until, self.why = 0, 0.0, ""
        self.last_failure = float("-inf")
        self._name = endpoint.name

    def __repr__(self):
        return f"<Service {self.kind} {self.endpoint.url}>"

    # -- the rest after failures --------------------------------------------------------

    def resting(self) -> float:
        """Return the seconds left of the rest after a failure (0: the server may be asked)."""
        with self.lock:
            return max(0.0, self.until - self.clock())

    def check(self) -> None:
        """Raise Unavailable while the service rests, saying why and for how long."""
        left = self.resting()
        if left:
            raise Unavailable(f"the {self.kind} server is not asked for {left:.0f} s more "
                              f"after it failed ({self.why})", left)

    def failed(self, why: str, retry_after: float | None = None) -> Unavailable:
        """Return the error for a failure, the service put to rest (longer each time)."""
        with self.lock:
            self.failures += 1
            rest = min(MAX_REST, self.endpoint.retry_seconds * 2 ** (self.failures - 1))
            rest = max(rest, min(retry_after or 0.0, MAX_REST))
            self.until, self.why = self.clock() + rest, why
            self.last_failure = self.clock()
        logger.warning("The %s server at %s failed (%s): not asked for %.0f s",
                       self.kind, self.endpoint.url, why, rest)
        return Unavailable(f"the {self.kind} server failed: {why}", rest)

    def succeeded(self) -> None:
        with self.lock:
            if self.failures:
                logger.info("The %s server at %s answers again", self.kind, self.endpoint.url)
            self.failures, self.until, self.why = 0, 0.0, ""

    # -- calls ----------------------------------------------------------------------------

    @contextmanager
    def slot(self, wait: float | None):
        """Hold one of the concurrent calls this process may make (raise LlmTimeout when
        none is free within wait seconds: the server is busy with this process's calls)."""
        if not self.slots.acquire(timeout=wait if wait is not None else self.endpoint.idle_seconds):
            raise LlmTimeout(f"all {self.endpoint.concurrency} calls to the {self.kind} server "
                             "were busy")
        try:
            yield
        finally:
            self.slots.release()

    def model_name(self) -> str:
        """Return the model to ask for: as set, else the first the server lists."""
        if not self._name:
            listed = self.get("/models")
            try:
                self._name = str(listed["data"][0]["id"])
            except (KeyError, IndexError, TypeError):
                raise self.failed("its /models lists no model") from None
        return self._name

    def get(self, path: str) -> dict:
        self.check()
        return self._answer(lambda: self.client.get(self.endpoint.url + path), path)

    def post(self, path: str, body: dict, *, wait: float | None = None,
             timeout: float | None = None) -> dict | list:
        """Return the JSON the server answers to body at path (the endpoint's URL + path).

        Raises Unavailable for the server's failures, LlmError for a request it refuses
        (400, 404, 422: the request or the setting is wrong, not the server)."""
        self.check()
        seconds = min(timeout or self.endpoint.idle_seconds, self.endpoint.idle_seconds)
        limit = httpx2.Timeout(seconds, connect=min(seconds, self.endpoint.connect_seconds))
        with self.slot(wait):
            return self._answer(lambda: self.client.post(self.endpoint.url + path, json=body,
                                                         timeout=limit), path)

    def _answer(self, send, path: str):
        try:
            response = send()
        except httpx2.TimeoutException as error:
            raise self.failed(f"no answer in time ({type(error).__name__})") from None
        except httpx2.HTTPError as error:
            raise self.failed(f"{type(error).__name__}: {error}") from None
        self.refused(response, path)
        try:
            value = response.json()
        except ValueError:
            raise self.failed(f"{path} answered what is not JSON") from None
        self.succeeded()
        return value

    def refused(self, response, path: str, probe: bool = False) -> None:
        """Raise for an answer that is not a success: Unavailable where the server is at
        fault (5xx, 429), LlmError where the request is (other 4xx; any but 429 and 503
        for a probe, a request the server may not know the form of)."""
        if response.status_code < 300:
            return
        faulty = response.status_code >= 500 and not probe
        if response.status_code in OVERLOADED or faulty:
            raise self.failed(f"{path} answered {response.status_code}",
                              _retry_after(response.headers.get("retry-after")))
        detail = _short(response)
        raise LlmError(f"the {self.kind} server refused the request to {path} "
                       f"({response.status_code}: {detail})")

    @contextmanager
    def events(self, path: str, body: dict, *, wait: float | None = None,
               probe: bool = False) -> Iterator:
        """Yield an iterator of the JSON data of the server-sent events answering body.

        The connection is closed when the block ends, however it ends; the time limit
        between two events is the endpoint's idle_seconds. probe: the request is in a form
        the server may refuse, even with a 500 (llama-cpp-python's server answers a form it
        does not know so): a refusal is an LlmError, not the server's failure."""
        self.check()
        with self.slot(wait):
            try:
                with self.client.stream("POST", self.endpoint.url + path, json=body) as response:
                    if response.status_code >= 300:
                        response.read()
                        self.refused(response, path, probe)
                    yield self._data(httpx2.EventSource(response), path)
            except httpx2.TimeoutException as error:
                raise self.failed(f"no answer in time ({type(error).__name__})") from None
            except httpx2.HTTPError as error:
                raise self.failed(f"{type(error).__name__}: {error}") from None

    def _data(self, source, path: str) -> Iterator[dict]:
        for event in source:
            if event.data.strip() == "[DONE]":
                return
            try:
                value = json.loads(event.data)
            except ValueError:
                raise self.failed(f"{path} sent an event that is not JSON") from None
            if not isinstance(value, dict):
                raise self.failed(f"{path} sent an event that is not a JSON object")
            if "error" in value:
                raise self.failed(f"{path} sent an error: {str(value['error'])[:200]}")
            yield value


def _retry_after(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None  # an HTTP date: the doubling rest stands


def _short(response) -> str:
    try:
        return response.text[:200].strip()
    except Exception:  # undecodable: the code says enough
        return ""


_services: dict[tuple, Service] = {}
_services_lock = threading.Lock()


def service(kind: str, endpoint: Endpoint) -> Service:
    """Return this process's Service for kind at endpoint (one per process, shared)."""
    key = (kind, endpoint)
    with _services_lock:
        if key not in _services:
            _services[key] = Service(kind, endpoint)
        return _services[key]


def resting(since: float | None = None, kinds=(MODEL, ENCODER, RERANKER)) -> list[str]:
    """Return the kinds of this process's services that rest after a failure now, or failed
    at or after since (a time.monotonic() time: while an answer was made)."""
    with _services_lock:
        known = list(_services.values())
    return sorted({s.kind for s in known if s.kind in kinds and (
        s.resting() or (since is not None and s.last_failure >= since))})


def forget() -> None:
    """Drop this process's services (tests, and a change of settings)."""
    with _services_lock:
        for known in _services.values():
            known.client.close()
        _services.clear()
