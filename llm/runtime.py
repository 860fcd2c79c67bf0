"""Loading the local model once per process, and one bounded call to it."""

import atexit
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from librarian.config import setting
from llm import embedded
from llm.errors import LlmError, LlmTimeout

logger = logging.getLogger(__name__)

EMBEDDED, DISABLED = "embedded", "none"


@dataclass(frozen=True)
class LlmConfig:
    """What loading and calling the model needs, built once from settings."""

    model: str = EMBEDDED  # "embedded", "none", or the path of a GGUF file
    data_dir: Path = Path("data")
    threads: int = 1
    gpu_layers: int | None = None  # None: all layers when llama.cpp can offload, else 0
    context: int = 4096
    max_calls: int = 200  # per book
    max_tokens: int = 400_000  # per book, prompt and answer together
    book_seconds: float = 900.0  # per book
    call_seconds: float = 120.0  # per call
    call_tokens: int = 160  # longest answer of one call
    max_failures: int = 3  # consecutive failed calls before the circuit breaker opens
    url: str = ""  # a model server's base URL (llm.served); "": the model in this process
    name: str = ""  # the model the server is asked for ("": the first it lists)
    json_format: str = "auto"
    concurrency: int = 4  # calls this process makes to the server at once
    api_key: str = field(default="", repr=False)
    connect_seconds: float = 5.0
    idle_seconds: float = 30.0
    retry_seconds: float = 10.0

    @classmethod
    def from_settings(cls) -> "LlmConfig":
        served = {}
        if setting("LLM_URL"):
            from llm.service import api_key

            served = {"url": setting("LLM_URL"), "name": setting("LLM_NAME"),
                      "json_format": setting("LLM_JSON"),
                      "concurrency": setting("LLM_CONCURRENCY"), "api_key": api_key(),
                      "connect_seconds": setting("SERVED_CONNECT_SECONDS"),
                      "idle_seconds": setting("SERVED_IDLE_SECONDS"),
                      "retry_seconds": setting("SERVED_RETRY_SECONDS")}
        return cls(
            model=setting("LLM_MODEL"),
            data_dir=Path(setting("DATA_DIR")),
            threads=setting("LLM_THREADS"),
            gpu_layers=setting("LLM_GPU_LAYERS"),
            context=setting("LLM_CONTEXT"),
            max_calls=setting("LLM_MAX_CALLS"),
            max_tokens=setting("LLM_MAX_TOKENS"),
            book_seconds=setting("LLM_BOOK_SECONDS"),
            call_seconds=setting("LLM_CALL_SECONDS"),
            max_failures=setting("LLM_MAX_FAILURES"),
            **served,
        )

    @property
    def models_dir(self) -> Path:
        return self.data_dir / "models"


@dataclass(frozen=True)
class Reply:
    text: str
    prompt_tokens: int
    answer_tokens: int
    seconds: float
    cut: bool = False
    """The answer stopped at max_tokens, so its end may be a piece of a word."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.answer_tokens


class Model:
    """A loaded llama_cpp.Llama shared by the threads of a process, one call at a time."""

    def __init__(self, llama, path: Path):
        self.llama = llama
        self.path = path
        self.lock = threading.Lock()

    def create_chat_completion(self, wait: float | None = None, **kwargs):
        """Call Llama.create_chat_completion under the model's lock.

        With stream=True the lock is held until the returned iterator is
        exhausted or closed: close it when giving up early. wait: the most
        seconds to wait for another caller to finish (raises LlmTimeout), for
        a reader who should not wait behind a book's verification.
        """
        if kwargs.get("stream"):
            return self._stream(kwargs, wait)
        with self._held(wait):
            return self.llama.create_chat_completion(**kwargs)

    def _stream(self, kwargs, wait):
        with self._held(wait):
            chunks = self.llama.create_chat_completion(**kwargs)
            try:
                yield from chunks
            finally:
                close = getattr(chunks, "close", None)
                if close:
                    close()

    @contextmanager
    def _held(self, wait):
        if not self.lock.acquire(timeout=-1 if wait is None else wait):
            raise LlmTimeout(f"the model was busy for {wait:.1f} s")
        try:
            yield
        finally:
            self.lock.release()

    def count_tokens(self, messages: list[dict]) -> int:
        """Return about how many tokens the messages take (contents only, no template)."""
        text = "\n".join(message["content"] for message in messages)
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))


_cache: dict[tuple, Model | None] = {}
_cache_lock = threading.Lock()


@atexit.register
def _close_loaded() -> None:
    """Free the loaded models while the interpreter still runs: llama_cpp's own finaliser,
    left to the interpreter's last moments, finds its C functions already gone."""
    for model in _cache.values():
        if isinstance(model, Model) and model.lock.acquire(timeout=1):  # not under a call
            model.llama.close()


def model_path(config: LlmConfig) -> Path | None:
    """Return the GGUF file the configuration names (assembling the embedded one), or None.

    Raises embedded.ModelUnavailable when the file cannot be provided.
    """
    if config.model.lower() == DISABLED:
        return None
    if config.model == EMBEDDED:
        return embedded.ensure(config.models_dir)
    path = Path(config.model).expanduser()
    if not path.is_file():
        raise embedded.ModelUnavailable(f"LIBRARIAN_LLM_MODEL names {path}, which is not a file")
    return path


def load(config: LlmConfig | None = None) -> Model | None:
    """Return the process's model for this configuration, or None (logged once, with why):
    the server's (``llm.served.ServedModel``) where the configuration names one, whether or
    not it answers now, else the one loaded in this process."""
    config = config or LlmConfig.from_settings()
    if config.url:
        key = ("served", config.url, config.name, config.json_format, config.concurrency,
               config.api_key, config.connect_seconds, config.idle_seconds, config.retry_seconds)
    else:
        key = (config.model, str(config.data_dir), config.threads, config.gpu_layers,
               config.context)
    with _cache_lock:
        if key not in _cache:
            _cache[key] = _load(config)
        return _cache[key]


def _load(config: LlmConfig) -> Model | None:
    if config.url:
        from llm.served import ServedModel, endpoint_of

        logger.info("The language model is served at %s", config.url)
        return ServedModel(endpoint_of(config), config.json_format)
    try:
        path = model_path(config)
    except embedded.ModelUnavailable as error:
        logger.warning("No language model: %s. Verification and answers go without it.", error)
        return None
    if path is None:
        logger.info("No language model: LIBRARIAN_LLM_MODEL=none disables it.")
        return None
    # Spinning OpenMP threads would steal the cores OCR and the web server need.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import llama_cpp

    layers = config.gpu_layers
    if layers is None:
        layers = -1 if llama_cpp.llama_supports_gpu_offload() else 0
    started = time.monotonic()
    try:
        llama = llama_cpp.Llama(
            model_path=str(path), n_ctx=config.context, n_threads=config.threads,
            n_threads_batch=config.threads, n_gpu_layers=layers, seed=0, verbose=False,
        )
    except (ValueError, RuntimeError) as error:
        logger.error("No language model: %s could not be loaded (%s).", path, error)
        return None
    logger.info("Loaded the language model %s in %.1f s (%s threads, %s GPU layers)",
                path.name, time.monotonic() - started, config.threads, layers)
    return Model(llama, path)


def on_gpu() -> bool:
    """Return True if the model runs on a GPU: llama.cpp can offload and
    LIBRARIAN_LLM_GPU_LAYERS does not keep every layer on the CPU."""
    try:
        import llama_cpp
    except ImportError:
        return False
    return bool(llama_cpp.llama_supports_gpu_offload()) and setting("LLM_GPU_LAYERS") != 0


def on_server() -> bool:
    """Return True if the language model is a server's (LIBRARIAN_LLM_URL)."""
    return bool(setting("LLM_URL"))


def configured() -> bool:
    """Return True if some language model is configured: a server's, or one in this process
    (LIBRARIAN_LLM_MODEL other than none)."""
    return on_server() or setting("LLM_MODEL").lower() != DISABLED


def fast() -> bool:
    """Return True if the model answers fast enough for a reader to wait on it: it runs on a
    GPU here, or a server runs it (a GPU team's, as a deployment names one for)."""
    return on_server() or on_gpu()


def wanted(choice: str) -> bool:
    """Return True if a use of the model set by choice (a setting's name, whose value is
    "auto", "on" or "off") is switched on: "auto" only where the model is fast (``fast``: on
    a GPU, or served), and never where no model is configured."""
    chosen = setting(choice)
    if chosen == "off" or not configured():
        return False
    return chosen == "on" or fast()


def ask(model, messages: list[dict], schema: dict | None, *, max_tokens: int,
        timeout: float, wait: float | None = None) -> Reply:
    """Return the model's answer to messages, constrained to JSON matching schema (None:
    plain text).

    Raises LlmTimeout when the answer is not complete within timeout seconds
    (checked between tokens: prompt evaluation itself cannot be interrupted,
    which the context size bounds) or another caller holds the model longer than
    wait seconds (None: as long as it takes), and LlmError when the model fails.
    """
    started = time.monotonic()
    parts, finish, usage = [], None, None
    for delta, finish_reason, used in _chunks(model, messages, schema, max_tokens=max_tokens,
                                              temperature=0.0, deadline=started + timeout,
                                              timeout=timeout, wait=wait):
        finish, usage = finish_reason or finish, used or usage
        if delta:
            parts.append(delta)
    prompt_tokens = (usage or {}).get("prompt_tokens") or model.count_tokens(messages)
    answer_tokens = (usage or {}).get("completion_tokens") or len(parts)
    return Reply("".join(parts), prompt_tokens, answer_tokens, time.monotonic() - started,
                 cut=finish == "length")


def stream(model, messages: list[dict], schema: dict | None = None, *, max_tokens: int,
           timeout: float, temperature: float = 0.0, wait: float | None = None) -> Iterator[str]:
    """Yield the model's answer to messages piece by piece as it writes them (JSON matching
    schema, None: plain text).

    Raises, as ``ask`` does, LlmTimeout once the answer runs past timeout seconds
    (after the piece that ran past it) or another caller holds the model longer
    than wait seconds, and LlmError when the model fails. The model is free
    again once the answer ends, fails, or the caller closes the iterator.
    """
    deadline = time.monotonic() + timeout
    for delta, _, _ in _chunks(model, messages, schema, max_tokens=max_tokens,
                               temperature=temperature, deadline=deadline, timeout=timeout,
                               wait=wait):
        if delta:
            yield delta


def _chunks(model, messages, schema, *, max_tokens, temperature, deadline, timeout,
            wait) -> Iterator[tuple[str, str | None, dict | None]]:
    """Yield (text, finish reason, usage) for each chunk of the model's streamed answer (usage:
    the tokens a server says it used, None in most chunks): the one call every caller goes
    through, with its time limit, its errors and its clean-up."""
    options = {} if wait is None else {"wait": wait}
    if getattr(model, "service", None) is not None:  # served: it bounds its wait for a slot
        options["deadline"] = deadline
    if schema is not None:
        options["response_format"] = {"type": "json_object", "schema": schema}
    try:
        chunks = model.create_chat_completion(messages=messages, stream=True,
                                              temperature=temperature, max_tokens=max_tokens,
                                              **options)
        try:
            for chunk in chunks:
                choice = chunk["choices"][0]
                yield (choice.get("delta", {}).get("content") or "", choice.get("finish_reason"),
                       chunk.get("usage"))
                if time.monotonic() > deadline:
                    raise LlmTimeout(f"no complete answer within {timeout:.0f} s")
        finally:
            close = getattr(chunks, "close", None)
            if close:
                close()
    except LlmError:
        raise
    except (ValueError, RuntimeError, KeyError, IndexError) as error:
        raise LlmError(f"the model failed: {error}") from error


def parse_json(text: str) -> dict:
    """Return the JSON object text holds; raise LlmError when it holds none."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise LlmError(f"the answer is not JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise LlmError("the answer is not a JSON object")
    return value
