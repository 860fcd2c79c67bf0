"""The language model, shared by every caller: in this process (llama-cpp-python over a GGUF
file) or a server's (an OpenAI-compatible endpoint, ``llm.served``).

Usage::

    import llm

    model = llm.load()            # None when no model is configured or available
    if model is not None:
        # the whole answer, here in JSON matching a schema (None: plain text):
        reply = llm.ask(model, messages, schema, max_tokens=160, timeout=60)
        answer = llm.parse_json(reply.text)
        # or piece by piece as it is written, for a reader watching:
        for piece in llm.stream(model, messages, max_tokens=300, timeout=60, temperature=0.2):
            ...

Both go through one call (``runtime._chunks``) with its time limit, its
errors and its clean-up; ``retrieval.answer.synthesis`` streams its short answers through
``stream`` too.

``load()`` reads the ``LIBRARIAN_LLM_*`` settings, loads the model once per
process and returns the same object on every later call (or None, logging once
why). Calls are serialised by a lock: a streaming call holds it until its
iterator is exhausted or closed, so close a stream you abandon. The default
model is the embedded Qwen2.5-Coder-1.5B-Instruct (see ``llm.embedded``). With
``LIBRARIAN_LLM_URL`` set, ``load()`` returns a ``ServedModel`` instead, called the
same way; its server's failures raise ``Unavailable`` (an ``LlmError``) and put it
to rest for a while (``llm.service``).
``ask`` and ``stream`` raise ``LlmTimeout`` / ``LlmError``; ``Budget`` counts a book's calls,
tokens, time and consecutive failures against the configured limits.
Text taken from books is untrusted data: callers delimit it and never let it
act as instructions.
"""

from llm.embedded import ModelUnavailable
from llm.limits import Budget
from llm.runtime import (
    LlmConfig,
    LlmError,
    LlmTimeout,
    Model,
    Reply,
    ask,
    configured,
    fast,
    load,
    model_path,
    on_gpu,
    on_server,
    parse_json,
    stream,
    wanted,
)
from llm.service import Unavailable, resting

__all__ = [
    "Budget", "LlmConfig", "LlmError", "LlmTimeout", "Model", "ModelUnavailable", "Reply",
    "Unavailable", "ask", "configured", "fast", "load", "model_path", "on_gpu", "on_server",
    "parse_json", "resting", "stream", "wanted",
]
