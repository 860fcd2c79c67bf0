"""The language model as a service: chat completions from an OpenAI-compatible server.

``ServedModel`` stands where the in-process ``runtime.Model`` stands: ``llm.ask`` and
``llm.stream`` call its ``create_chat_completion`` and read the same chunks, so every
caller (the verify agent, the query terms, the interview's wording, the short
answer) is unchanged and keeps its bounds: tokens, seconds, the per-book budget,
and code checking every answer. Each answer is streamed (server-sent events), so
the time limit is checked between pieces as in-process, and a server that stops
sending is given up after ``SERVED_IDLE_SECONDS``.

JSON answers are asked for with the schema: ``response_format`` of type
``json_schema`` (OpenAI's form: vLLM, llama.cpp's server, Ollama) or
``json_object`` with a ``schema`` (llama-cpp-python's server, llama.cpp's). With
``LIBRARIAN_LLM_JSON=auto`` the first is tried and, where the server refuses it,
the second, remembered for the process. The callers parse and check the answer
whatever the server did with the schema.

Token counts: the server's own (its ``usage``) where it reports them in the
stream, else an estimate of one token per three bytes of UTF-8, which errs high
for English (about four) and is about right for Japanese.
"""

import logging
import threading
import time

from llm.errors import LlmError, LlmTimeout
from llm.service import Endpoint, MODEL, Service, Unavailable, service, v1

logger = logging.getLogger(__name__)

JSON_SCHEMA, JSON_OBJECT = "json_schema", "json_object"
SAMPLING = {"top_p": 0.95, "top_k": 40, "min_p": 0.05, "repeat_penalty": 1.0}
"""The in-process model's sampling (llama-cpp-python's defaults), sent so that a server
running the same GGUF answers the same: its server's own default repeat_penalty is 1.1,
which changes even a greedy answer. Servers that do not know a field ignore it."""


class ServedModel:
    """A chat model on a server, called as the in-process model is (``runtime.Model``)."""

    def __init__(self, endpoint: Endpoint, json_format: str = "auto"):
        self.endpoint = endpoint
        self.path = endpoint.url  # what the log names, as the in-process model's file
        self.json_format = JSON_SCHEMA if json_format == "auto" else json_format
        self.fallback = json_format == "auto"  # json_schema not yet taken or refused
        self._format_lock = threading.Lock()

    def __repr__(self):
        return f"<ServedModel {self.path}>"

    @property
    def service(self) -> Service:
        """The process's client of the server (shared, with its rest after failures)."""
        return service(MODEL, self.endpoint)

    def create_chat_completion(self, wait: float | None = None, *, messages, stream=True,
                               temperature=0.0, max_tokens=160, response_format=None,
                               deadline: float | None = None):
        """Yield the chunks of the server's streamed answer, in llama-cpp-python's form
        ({"choices": [{"delta": {"content": …}, "finish_reason": …}]}), then one carrying
        the server's usage where it gave one. Raises Unavailable when the server fails
        or stops before the answer is finished, LlmTimeout when no slot is free in wait
        seconds or the deadline (time.monotonic) passes before the answer begins."""
        body = {"model": self.service.model_name(), "messages": messages, "stream": True,
                "temperature": temperature, "max_tokens": max_tokens, "seed": 0,
                "stream_options": {"include_usage": True}, **SAMPLING}
        probe = response_format is not None and self.fallback
        if response_format is not None:
            body["response_format"] = self._format(response_format.get("schema") or {})
        try:
            yield from self._streamed(body, wait, deadline, probe)
        except LlmError as error:
            if not (probe and self._refused_schema(error)):
                raise
            body["response_format"] = self._format(response_format.get("schema") or {})
            yield from self._streamed(body, wait, deadline)
        if probe:
            self.fallback = False  # json_schema taken: asked so from now on

    def _streamed(self, body, wait, deadline, probe=False):
        if deadline is not None and wait is not None:
            wait = max(0.0, min(wait, deadline - time.monotonic()))
        finished, usage = False, None
        with self.service.events("/chat/completions", body, wait=wait, probe=probe) as chunks:
            for chunk in chunks:
                usage = chunk.get("usage") or usage
                choices = chunk.get("choices")
                if not isinstance(choices, list):
                    raise self.service.failed("an answer's piece holds no choices")
                if not choices:  # the closing piece with the usage alone
                    continue
                choice = choices[0] if isinstance(choices[0], dict) else {}
                finished = finished or bool(choice.get("finish_reason"))
                yield {"choices": [{"delta": choice.get("delta") or {},
                                    "finish_reason": choice.get("finish_reason")}]}
        if not finished:
            raise self.service.failed("the answer ended before it was finished")
        self.service.succeeded()
        if usage:
            yield {"choices": [{"delta": {}, "finish_reason": None}], "usage": usage}

    def _format(self, schema: dict) -> dict:
        if self.json_format == JSON_OBJECT:
            return {"type": JSON_OBJECT, "schema": schema}
        return {"type": JSON_SCHEMA, "json_schema": {"name": "answer", "schema": schema}}

    def _refused_schema(self, error) -> bool:
        """Return True if the server refused OpenAI's json_schema form and json_object is
        to be tried instead (LIBRARIAN_LLM_JSON=auto), remembered from now on."""
        if isinstance(error, (Unavailable, LlmTimeout)) or "refused" not in str(error):
            return False
        with self._format_lock:
            if self.json_format != JSON_SCHEMA:
                return True  # another thread switched already
            self.json_format, self.fallback = JSON_OBJECT, False
        logger.info("The model server refused response_format json_schema; json_object "
                    "with a schema is sent from now on")
        return True

    def count_tokens(self, messages: list[dict]) -> int:
        """Return an estimate of the tokens the messages take (see the module)."""
        text = "\n".join(str(message.get("content") or "") for message in messages)
        return estimate(text)


def estimate(text: str) -> int:
    """Return about how many tokens text takes, erring high: a token per three bytes."""
    return -(-len(text.encode("utf-8")) // 3)


def endpoint_of(config) -> Endpoint:
    """Return the chat model's endpoint from an LlmConfig with a url."""
    return Endpoint(v1(config.url), config.name, config.api_key, config.connect_seconds,
                    config.idle_seconds, config.retry_seconds, config.concurrency)
