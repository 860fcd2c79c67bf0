"""Index terms a local model suggests for a question, searched beside its own words.

Readers ask in their words; manuals index in theirs: "pause at a line" is
``dbstop`` under Breakpoints, "stop apt from upgrading one package" is a package
on hold, "a job that runs every day" is ``cron``. No dictionary or encoder that
installs offline bridges these; a code-trained model often knows them. Asked
for the terms a manual's index would use, it answers with a few words that the
ranking counts as further words of the question (``analysed.SUGGESTED``), never in
place of the question's own.

When (``LIBRARIAN_QUERY_TERMS``): BEFORE the ranking where the model runs on a
GPU, in tens of milliseconds; AFTER the cards on a CPU, where the embedded model
takes two to four seconds a question on one thread, twenty times what the cards
take: the cards come at once from the question's own words, then the ranking
is run again with the terms, and a place that then comes first and was not
card [1] is offered below the guide (``retrieval.refine``). Measured on the
natural questions of the dev books with the embedded model, the terms put the
right section first in 32 lookups of 40 instead of 31, and in the first five in
37 instead of 33 (README, "Terms the model suggests"). A model that fails, is
absent, busy or late suggests nothing.
"""

import logging
import re
from functools import lru_cache

from librarian.config import setting

logger = logging.getLogger(__name__)

MAX_TERMS = 8
MAX_TERM_CHARS = 40
MAX_TOKENS = 40
PROMPT = ("List the terms a manual's index would use for the question: the exact command, "
          "function, option, file or technical name. Comma-separated, no sentences.")
# Two examples on topics far from any shelf, one per language, set the form of the answer.
EXAMPLES = [
    ("How do I make text bigger in LaTeX?", "font size, \\large, \\fontsize"),
    ("Pythonで例外を捕まえるには？", "例外処理, try, except, exception handling"),
]
_SEPARATORS = re.compile(r"[,，、;；\n]+")
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


BEFORE, AFTER, OFF = "before", "after", "off"


def when() -> str:
    """Return BEFORE (the ranking waits for the terms), AFTER (the cards do not; the terms
    may offer a better place after them) or OFF, from LIBRARIAN_QUERY_TERMS."""
    import llm

    choice = setting("QUERY_TERMS")
    if choice == "off" or not llm.configured():
        return OFF
    if choice == "auto":  # a served model is a GPU team's: fast enough to wait for
        return BEFORE if llm.on_server() or llm.on_gpu() else AFTER
    return BEFORE if choice == "on" else AFTER


def enabled() -> bool:
    """Return True if questions are given the model's terms, before or after the cards."""
    return when() != OFF


def warm() -> bool:
    """Load the model now if questions are to be given its terms (the first question should
    not wait for it); return True if it is loaded."""
    import llm

    return enabled() and llm.load() is not None


def terms(question: str) -> list[str]:
    """Return the terms the model suggests for question ([] when it is off, absent, busy,
    failing or late; a later asking tries again)."""
    import llm

    if not enabled() or not question.strip() or llm.load() is None:
        return []
    try:
        return list(_suggested(question.strip(), setting("QUERY_TERMS_SECONDS")))
    except (llm.LlmTimeout, llm.Unavailable) as late:  # late, busy, or its server failed
        logger.info("The model suggested no terms: %s", late)
    except llm.LlmError:
        logger.warning("The model could not suggest terms for %r", question, exc_info=True)
    return []


@lru_cache(maxsize=512)  # a question asked again, or by the bench twice, costs one call
def _suggested(question: str, seconds: float) -> tuple[str, ...]:
    """Return the model's terms for question; raise llm.LlmError where it gives none (not
    kept: an error is not an answer)."""
    import llm

    model = llm.load()
    if model is None:
        raise llm.LlmError("no language model")
    messages = [{"role": "system", "content": PROMPT}]
    for asked, answered in EXAMPLES:
        messages += [{"role": "user", "content": asked},
                     {"role": "assistant", "content": answered}]
    messages.append({"role": "user", "content": question})
    reply = llm.ask(model, messages, None, max_tokens=MAX_TOKENS, timeout=seconds, wait=seconds)
    found = parse(reply.text, cut=reply.cut)
    logger.info("Terms suggested in %.2f s: %s", reply.seconds, ", ".join(found))
    return found


def parse(text: str, cut: bool = False) -> tuple[str, ...]:
    """Return the distinct terms of the model's list, in its order (at most MAX_TERMS);
    cut: the list was cut at MAX_TOKENS, so its last term may be a piece of one."""
    pieces = _SEPARATORS.split(text)
    found = []
    for piece in pieces[:-1] if cut else pieces:
        term = _LIST_MARK.sub("", piece).strip().strip("\"'`“”「」『』").strip()
        if term and len(term) <= MAX_TERM_CHARS and term.lower() not in map(str.lower, found):
            found.append(term)
    return tuple(found[:MAX_TERMS])
