"""The local model's wording of the librarian's one short question (optional).

Code decides whether to ask and which places to offer (``interview``); its
question is the same sentence every time ("A few places answer this about
equally well. Which one do you mean?"), and the options' headings and words tell
the places apart. Where the model runs on a GPU it may word the question itself,
naming what tells the places apart ("Do you mean stopping at a breakpoint in the
debugger, or pausing for input?"), in tens of milliseconds. On two CPU cores it
would make the reader wait seconds for one sentence, so ``auto`` (the default of
``LIBRARIAN_CLARIFY_MODEL``) asks it only on a GPU.

The model's sentence is shown only where it passes every check (``acceptable``):
one question of one line, in the reader's language, with no number that the
question or the options do not hold (a page or section it made up), naming at
least two of the places by a word of their own headings. Otherwise, and where
the model is off, busy, failing or late, the fixed sentence stands.
"""

import logging
import re
from functools import lru_cache

from books.text import CJK, HIRAGANA
from librarian.config import setting
from retrieval.text import analysis

logger = logging.getLogger(__name__)

MAX_TOKENS = 80
MAX_CHARS = {"en": 200, "ja": 120}
LANGUAGE = {"en": "English", "ja": "Japanese"}
PROMPT = ("A reader asked a question, and several places in their books could answer it. "
          "Write one short question in {language} that asks which place they mean, naming "
          "each place in a few words by what its heading says. Do not answer the question and "
          "do not repeat it. Reply with the one question only, in the form: {form}")
FORM = {"en": "Do you mean …, or …?", "ja": "…のことですか、それとも…のことですか？"}
# Two examples on topics far from any shelf, one per language, set the form of the reply.
EXAMPLES = [
    ("en", "How do I keep bread fresh?",
     ["3 Storage › 3.2 Freezing bread, p. 41 — freezer", "5 Baking › 5.4 The crust, p. 77"],
     "Do you mean keeping bread in the freezer, or keeping its crust crisp?"),
    ("ja", "植物に水をやる頻度は？",
     ["2 水やり › 2.1 季節ごとの水やり（12ページ）", "4 鉢植え › 4.3 排水（40ページ）— 鉢"],
     "季節ごとの水やりの回数のことですか、それとも鉢の排水のことですか？"),
]
_NUMBER = re.compile(r"\d+")
_QUESTION_END = re.compile(r"[?？]$")
_HIRAGANA = re.compile(f"[{HIRAGANA}]")
_JAPANESE = re.compile(f"[{CJK}]+")


def enabled() -> bool:
    """Return True if the model words the librarian's question (LIBRARIAN_CLARIFY_MODEL)."""
    import llm

    return llm.wanted("CLARIFY_MODEL")


def phrase(asked: str, labels: tuple[str, ...], language: str) -> str | None:
    """Return the model's question asking which of the places (labels: each option's label
    and words, as the reader sees them) the question asked means, or None: the model is off,
    absent, busy, failing or late, or its sentence fails a check (``acceptable``)."""
    import llm

    if not enabled() or llm.load() is None:
        return None
    try:
        worded = _worded(asked, labels, language, setting("CLARIFY_SECONDS"))
    except (llm.LlmTimeout, llm.Unavailable) as late:
        logger.info("The model did not word the question: %s", late)
        return None
    except llm.LlmError:
        logger.warning("The model could not word the question for %r", asked, exc_info=True)
        return None
    if not acceptable(worded, asked, labels, language):
        logger.info("The model's question was not used: %r", worded)
        return None
    return worded


def acceptable(worded: str, asked: str, labels, language: str) -> bool:
    """Return True if worded may stand as the librarian's question: one line that ends as a
    question, no longer than MAX_CHARS, in the reader's language (Japanese holds kana between
    its words; English no Japanese but the headings it names), and without a number the
    question and the options do not hold."""
    if not worded or "\n" in worded or len(worded) > MAX_CHARS[language]:
        return False
    given = " ".join([asked, *labels])
    if language == "ja":
        in_language = bool(_HIRAGANA.search(worded))
    else:
        in_language = all(run in given for run in _JAPANESE.findall(worded))
    if not _QUESTION_END.search(worded) or not in_language:
        return False
    if not set(_NUMBER.findall(worded)) <= set(_NUMBER.findall(given)):
        return False
    return _named(worded, asked, labels) >= min(2, len(labels))


def _named(worded: str, asked: str, labels) -> int:
    """Return how many of the places (labels: each "label — words") worded names by a word of
    its headings that no other place's holds and the question asked does not. The embedded
    CPU model, asked to word the question, often said the reader's question again in other
    words ("How can I reuse a slide from the appendix without duplicating its code?"), which
    names a place only by the reader's own words."""
    said = set(analysis.terms(analysis.fold(worded))) - set(analysis.terms(analysis.fold(asked)))
    headings = [set(analysis.terms(analysis.fold(label.split(" — ")[0]))) for label in labels]
    return sum(bool(said & (own - set().union(*(h for h in headings if h is not own))))
               for own in headings)


@lru_cache(maxsize=256)  # the same question about the same places costs one call
def _worded(asked: str, labels: tuple[str, ...], language: str, seconds: float) -> str:
    """Return the model's sentence (stripped); raise llm.LlmError where it gives none."""
    import llm

    model = llm.load()
    if model is None:
        raise llm.LlmError("no language model")
    messages = [{"role": "system",
                 "content": PROMPT.format(language=LANGUAGE[language], form=FORM[language])}]
    for _, question, places, reply in [e for e in EXAMPLES if e[0] == language]:
        messages += [{"role": "user", "content": _request(question, places)},
                     {"role": "assistant", "content": reply}]
    messages.append({"role": "user", "content": _request(asked, labels)})
    reply = llm.ask(model, messages, None, max_tokens=MAX_TOKENS, timeout=seconds, wait=seconds)
    if reply.cut:
        raise llm.LlmError("the question ran past its length")
    logger.info("The model worded the question in %.2f s", reply.seconds)
    return reply.text.strip().strip("\"“”「」").strip()


def _request(question: str, labels) -> str:
    places = "\n".join(f"{n}. {label}" for n, label in enumerate(labels, 1))
    return f"Question: {question}\nPlaces:\n{places}"
