"""Follow-up questions, resolved against the previous answer (pure functions but for navigate).

The previous answer leaves a context (``Answer.context()``): its question, the
books it searched, the books it showed in order (recommended first) and its
places. From it:

- "only in the first book", "the second one", "only in the other book",
  「最初の本だけ」「二冊目では？」「もう一冊の本」: the previous question again, in
  that book;
- "only in memoir", 「新メンテナーガイドだけ」: in the book whose title has those
  words (words that tell it from the other books; never "book" or 本); so also
  "what about in memoir?", "and in the FAQ?", 「memoir では？」, where the words
  name that book and nothing else;
- "this book" / 「この本で…」: a new question, in the previous answer's first book;
- "that chapter", 「その章」: the chapter that holds the previous first place;
  "in that chapter, …" / 「その章で…」 asks a new question within it;
- "the next section" / 「(その)次の節」, "what comes next?", "previous" / 「前の節」:
  the section after or before the previous first place; "more" / 「もっと」: the previous question
  without what was shown.
"""

import re
import unicodedata
from dataclasses import dataclass

from retrieval.text import analysis
from retrieval.question import naming as named_books
from retrieval.question.query import NAVIGATE, RANGE

ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
            "4th": 3, "fifth": 4, "5th": 4, "last": -1, "最初": 0, "一冊目": 0, "1冊目": 0,
            "二冊目": 1, "2冊目": 1, "三冊目": 2, "3冊目": 2, "四冊目": 3, "4冊目": 3, "一番目": 0,
            "1番目": 0, "二番目": 1, "2番目": 1, "三番目": 2, "3番目": 2, "最後": -1}
_ORDINAL_EN = re.compile(
    r"(?i)^(?:and\s+|but\s+|ok\s+|so\s+)?(?:(?:show\s+me\s+)?(?:only|just)\s+)?(?:(?:what|how)\s+about\s+|in\s+)?"
    r"(?:the\s+)?(?P<n>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|other)"
    r"\s+(?:book|one|title|manual)(?:\s+only)?[?.!]?$"
)
_ORDINAL_JA = re.compile(
    r"^(?:では|じゃあ)?、?(?P<n>最初|一冊目|1冊目|二冊目|2冊目|三冊目|3冊目|四冊目|4冊目|一番目|1番目|"
    r"二番目|2番目|三番目|3番目|最後|もう一冊|他|ほか|別)(?:の本|の方)?(?:だけ|のみ)?(?:で|に|では|の中で|は)?"
    r"(?:どう|どこ)?(?:ですか|でしょうか)?.{0,4}[?？。]?$"
)
_ONLY_IN = [
    re.compile(r"(?i)^(?:and\s+|but\s+)?(?:only|just)\s+(?:in|from)\s+(?:the\s+)?(?:book\s+)?(?P<b>.+?)[?.!]?$"),
    re.compile(r"(?i)^(?:and\s+|but\s+)?(?:what\s+about\s+|how\s+about\s+)?in\s+(?:the\s+)?book\s+(?P<b>.+?)[?.!]?$"),
    re.compile(r"^(?P<b>.+?)(?:だけ|のみ)(?:で|に|では|の中で)?(?:は|お願い|教えて)?.{0,6}[?？。]?$"),
]
_ALSO_IN = [
    re.compile(r"(?i)^(?:and\s+|but\s+|ok\s+|so\s+)?(?:what|how)\s+about\s+(?:in\s+)?(?:the\s+)?"
               r"(?P<b>[^,?.!]+?)[?.!]?$"),
    re.compile(r"(?i)^(?:and\s+|but\s+)?in\s+(?:the\s+)?(?P<b>[^,?.!]+?)[?.!]?$"),
    re.compile(r"^(?:では|じゃあ|それでは)?、?(?P<b>[^、。]+?)(?:では|だと|の方は|の方では)(?:どう|どこ)?"
               r"(?:ですか|でしょうか|なって(?:いる|る)|書いて(?:ある|あります))?(?:か)?[?？。]?$"),
]
"""A book alone, asked of the last question: "what about in memoir?", "and in the FAQ?",
「memoir では？」. Only where every word names that book: "what about footnotes in
memoir?" is a new question."""
_THIS_BOOK = re.compile(r"(?i)^(?:in\s+)?this\s+book,?\s*|^(?:この本|この書籍|このマニュアル)(?:で|では|の中で|に)、?")
_THAT_CHAPTER = re.compile(
    r"(?i)^(?:(?:clip|show|give\s+me|download|open|read)\s+)?(?:the\s+)?(?:whole\s+)?"
    r"(?:that|this|the\s+same)\s+chapter[?.!]?$|^(?:その|この)章(?:を|は)?(?:丸ごと|全部|まるごと)?"
    r"(?:切り抜いて|ください|見せて|全体)?.{0,4}[?？。]?$"
)
_IN_THAT_CHAPTER = re.compile(r"(?i)^in\s+(?:that|this|the\s+same)\s+chapter,?\s*|^(?:その|この)章(?:で|では|の中で)、?")
_NEXT = re.compile(
    r"(?i)^(?:and\s+|then\s+|ok\s+|so\s+)?(?:(?:show\s+me|go\s+to|open|read)\s+)?(?:the\s+)?"
    r"next(?:\s+(?:section|one|part|chapter))?(?:,?\s+please)?[?.!]?$"
    r"|^what(?:'s|’s|\s+is|\s+comes)\s+(?:next|after\s+(?:that|it|this))[?.!]?$"
    r"|^(?:では|じゃあ|それでは)?、?(?:その|この)?次(?:の(?:節|章|セクション|項))?(?:は|を)?.{0,4}[?？。]?$"
)
_PREVIOUS = re.compile(
    r"(?i)^(?:and\s+|then\s+|ok\s+|so\s+)?(?:(?:show\s+me|go\s+to|open|read)\s+)?(?:the\s+)?"
    r"previous(?:\s+(?:section|one|part|chapter))?(?:,?\s+please)?[?.!]?$"
    r"|^what(?:'s|’s|\s+is|\s+comes)\s+before\s+(?:that|it|this)[?.!]?$"
    r"|^(?:では|じゃあ|それでは)?、?(?:その|この)?前(?:の(?:節|章|セクション|項))?(?:は|を)?.{0,4}[?？。]?$"
)
_NONE_OF_THESE = re.compile(
    r"(?i)^(?:none(?:\s+of\s+(?:these|them|those))?|neither(?:\s+(?:of\s+them|one))?|"
    r"something\s+else|(?:it'?s\s+)?not\s+(?:any\s+of\s+)?(?:these|them|those))[.!]?$"
    r"|^(?:どれ|どちら|いずれ)(?:も|でも)(?:ない|ありません|違う|違います)(?:です)?.{0,3}[。]?$")
_OPTION_NUMBER = re.compile(
    r"(?i)^(?:(?:the\s+)?(?:number|no\.?|option|place)?\s*#?(?P<d>[1-9])"
    r"|(?:the\s+)?(?P<w>first|1st|second|2nd|third|3rd|last)(?:\s+(?:one|place|option))?)"
    r"(?:\s+(?:one|please))?[.!]?$"
    r"|^(?P<j>[1-9一二三])(?:番目?|つ目)?(?:の(?:方|ほう|箇所))?(?:で|です|を|が)?"
    r"(?:お願いします|お願い)?[。]?$|^(?P<e>最初|最後)の(?:方|ほう|箇所)(?:で|です)?[。]?$")
_KANJI_DIGITS = {"一": "1", "二": "2", "三": "3"}
_MORE = re.compile(r"(?i)^(?:show\s+me\s+)?more(?:\s+results)?[?.!]?$|^(?:もっと|他に|ほかに)(?:は|ある)?.{0,6}[?？。]?$")


@dataclass
class FollowUp:
    question: str
    book_ids: list[int] | None = None
    navigate: int = 0
    """+1 next section, -1 previous, 0 none."""
    exclude_previous: bool = False
    chapter: bool = False
    """Answer with the chapter that holds the previous first place."""
    within: tuple[int, int] | None = None
    """(book id, chapter key): look only inside that chapter."""
    choice: dict | None = None
    """The place the reader chose among those the previous answer asked about."""

    @property
    def kind(self) -> str | None:
        """Return the kind of answer the follow-up asks for where it is not its question's:
        the next or previous section (a step), that chapter (a range); else None."""
        if self.navigate:
            return NAVIGATE
        return RANGE if self.chapter else None

    @property
    def narrows(self) -> bool:
        """Return True if the follow-up narrows the previous answer (no question to ask)."""
        return bool(self.book_ids is not None or self.navigate or self.exclude_previous
                    or self.chapter or self.within or self.choice)


def follow_up(question: str, context: dict | None, books: dict[int, str]) -> FollowUp:
    """Return question resolved against the previous answer's context.

    context: what ``Answer.context()`` returned; books: id → title of the
    books the user may see. A question that is no follow-up comes back as is.
    """
    text = unicodedata.normalize("NFKC", question).strip()
    if not context or not context.get("question"):
        return FollowUp(_THIS_BOOK.sub("", text) or question)
    previous = context["question"]
    options = [o for o in context.get("options") or [] if isinstance(o, dict)]
    if options:
        reply = _reply(text, options)
        if reply is not None:
            return FollowUp(previous, choice=reply)
        if _NONE_OF_THESE.match(text):
            return FollowUp(previous, book_ids=context.get("book_ids"), exclude_previous=True)
    if _NEXT.match(text):
        return FollowUp(previous, navigate=1)
    if _PREVIOUS.match(text):
        return FollowUp(previous, navigate=-1)
    if _MORE.match(text):
        return FollowUp(previous, book_ids=context.get("book_ids"), exclude_previous=True)
    # 「その章で添字は？」 asks within the chapter; 「その章では？」 asks for it.
    rest = _IN_THAT_CHAPTER.sub("", text).strip(" ?？。.!")
    within = bool(_IN_THAT_CHAPTER.match(text)) and len(rest) > 1
    if _THAT_CHAPTER.match(text) and not within:
        return FollowUp(previous, chapter=True)
    ordinal = _ordinal(text, context, books)
    if ordinal:
        return FollowUp(previous, book_ids=ordinal)
    for pattern in _ONLY_IN:
        match = pattern.match(text)
        if match:
            chosen = match_books(match["b"], books)
            if chosen:
                return FollowUp(previous, book_ids=chosen)
    for pattern in _ALSO_IN:
        match = pattern.match(text)
        if match:
            chosen = match_books(match["b"], books)
            if chosen and _only_names(match["b"], [books[pk] for pk in chosen]):
                return FollowUp(previous, book_ids=chosen)
    shown = _shown_books(context)
    if _THIS_BOOK.match(text) and shown:
        return FollowUp(_THIS_BOOK.sub("", text), book_ids=shown[:1])
    if _IN_THAT_CHAPTER.match(text) and context.get("sections"):
        first = context["sections"][0]
        return FollowUp(_IN_THAT_CHAPTER.sub("", text), book_ids=[first["book_id"]],
                        within=(first["book_id"], first.get("heading_id")))
    return FollowUp(question)


def _reply(text: str, options: list[dict]) -> dict | None:
    """Return the option a reply to the librarian's question chooses: by its number ("2",
    "the second one", 「2番目」), its label, or the words that tell it from the others
    ("the debugger one", 「Octave の方」); None where the reply chooses none."""
    match = _OPTION_NUMBER.match(text)
    if match:
        word = (match["w"] or match["e"] or "").casefold()
        digit = match["d"] or _KANJI_DIGITS.get(match["j"] or "", match["j"])
        position = int(digit) - 1 if digit else ORDINALS.get(word)
        return options[position] if position is not None and -1 <= position < len(
            options) else None
    labels = [o for o in options if o.get("label") == text]
    if labels:
        return labels[0]
    words = set(analysis.terms(_ONE.sub("", text))) - named_books.GENERIC
    if not words or len(text) > 60:
        return None
    shared = [_shared(words, analysis.terms(f"{o.get('label', '')} {o.get('book_title', '')}"))
              for o in options]
    best = max(shared)
    return options[shared.index(best)] if best and shared.count(best) == 1 else None


def _shared(words: set[str], terms) -> int:
    """Return how many of words the terms hold, a word also where both begin alike for five
    letters or more ("debugger" for "Debugging")."""
    terms = set(terms)
    return sum(1 for w in words if w in terms or (
        len(w) >= 5 and any(len(t) >= 5 and t[:5] == w[:5] for t in terms)))


_ONE = re.compile(r"(?i)\b(?:the|one|please)\b|の(?:方|ほう)(?:で|です)?|[?？。.!]")


def _only_names(name: str, titles: list[str]) -> bool:
    """Return True if every word of name is a word of one of titles (or a word such as
    "book", "manual", 本 that names no book): name asks for nothing but the book."""
    named = set().union(*(analysis.terms(title) for title in titles))
    return set(analysis.terms(name)) <= named | named_books.GENERIC


def _shown_books(context) -> list[int]:
    books = context.get("books") or []
    sections = [s.get("book_id") for s in context.get("sections") or [] if isinstance(s, dict)]
    return list(dict.fromkeys([b for b in [*books, *sections] if isinstance(b, int)]))


def _ordinal(text, context, books) -> list[int] | None:
    """Return the book an ordinal names among the books the previous answer showed."""
    match = _ORDINAL_EN.match(text) or _ORDINAL_JA.match(text)
    if not match:
        return None
    shown = [b for b in _shown_books(context) if b in books]
    word = match["n"].casefold()
    if word in ("other", "もう一冊", "他", "ほか", "別"):
        return shown[1:2] or None
    position = ORDINALS.get(word)
    if position is None or not shown or position >= len(shown):
        return None
    return [shown[position]]


def match_books(name: str, books: dict[int, str]) -> list[int]:
    """Return the ids of the books whose title best matches name: the whole title, a part of
    it, or its distinctive words (a word of every title, or "book", names none)."""
    name = unicodedata.normalize("NFKC", name).casefold().strip(" 「」『』\"'")
    if not name:
        return []
    exact = [pk for pk, title in books.items() if title.casefold() == name]
    if exact:
        return exact
    if not set(analysis.terms(name)) - named_books.GENERIC:
        return []  # "the book", 本: no title is named by such words
    contains = [pk for pk, title in books.items() if len(name) >= 3 and name in title.casefold()]
    if contains:
        return contains
    names = {pk: named_books.name_terms(title) for pk, title in books.items()}
    found = named_books.named(name, [], names)
    best = max(found.values(), default=0)
    return [pk for pk, weight in found.items() if best and weight == best]


def navigate(shelf, context, step) -> list[tuple[int, int]]:
    """Return the section after (step 1) or before (step -1) the previous answer's first."""
    sections = (context or {}).get("sections") or []
    if not sections or sections[0].get("book_id") not in shelf.books:
        return []
    first = sections[0]
    index = shelf.index(first["book_id"])
    order = sorted(index.chunks, key=lambda c: (c.span[0], c.key))
    current = [i for i, c in enumerate(order) if same(c, first)]
    if current and 0 <= current[0] + step < len(order):
        return [(index.book_id, order[current[0] + step].key)]
    return []


def same(chunk, section) -> bool:
    if section.get("heading_id"):
        return chunk.heading_id == section["heading_id"]
    return chunk.page_start == section.get("page_start")


def previous(shelf, context) -> set:
    """Return the (book id, key) pairs the previous answer showed."""
    pairs = set()
    for section in (context or {}).get("sections", []):
        if section.get("book_id") not in shelf.books:
            continue
        index = shelf.index(section["book_id"])
        pairs.update((index.book_id, c.key) for c in index.chunks if same(c, section))
    return pairs
