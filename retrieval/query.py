"""What a question asks for, decided by rules (pure functions).

``plan(question)`` returns the query type and what narrows it: lookup (one
place answers), compare (several parts, each looked up), aggregate (a range:
a chapter or a page span, then what in it matches), which_book (recommend
among books). ``follow_up(question, context)`` turns "only in book B" or
"the next section" into filters over the previous answer.
"""

import re
import unicodedata
from dataclasses import dataclass, field

LOOKUP, COMPARE, AGGREGATE, WHICH_BOOK, NAVIGATE = (
    "lookup", "compare", "aggregate", "which_book", "navigate",
)

_KANJI_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_WHICH_BOOK = re.compile(
    r"(?i)\b(?:which|what)\s+(?:book|manual|volume|title)s?\b|\bread\s+first\b|\brecommend"
    r"|\bbest\s+(?:book|manual)|どの本|どちらの本|どの(?:書籍|資料|マニュアル)|どれを読|何を読|"
    r"おすすめ|お勧め|オススメ|推薦|最初に読"
)
_WHICH_BOOK_WORDS = re.compile(
    r"(?i)\b(?:which|what)\s+(?:book|manual|volume|title)s?\s*(?:should\s+i\s+read\s+(?:first\s+)?"
    r"(?:about|on|for)?|(?:covers?|explains?|discuss(?:es)?|is\s+best\s+for|has)\b)?"
    r"|\bdo\s+you\s+recommend\b|\brecommend(?:ed)?\b|\bread\s+first\b|\b(?:about|on|for)\s*$"
    r"|について|に関して|どの本|どちらの本|どの(?:書籍|資料|マニュアル)|を?読めば(?:いい|よい)|"
    r"どれを読|何を読|がおすすめ|おすすめ|お勧め|オススメ|推薦|最初に読|(?:です|ます)?か[?？]?$|[?？]"
)
_COMPARE = re.compile(
    r"(?i)\bcompare[sd]?\b|\bdifferences?\s+between\b|\bvs\.?\s|\bversus\b|\bcompared\s+(?:to|with)\b"
    r"|違い|比較|比べ|異なる点|差異"
)
_COMPARE_SPLIT = [
    re.compile(r"(?i)\bdifferences?\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)[?.]?$"),
    re.compile(r"(?i)\bcompare\s+(?P<a>.+?)\s+(?:and|with|to)\s+(?P<b>.+?)[?.]?$"),
    re.compile(r"(?i)^(?:how\s+(?:does|do|is|are)\s+)?(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<b>.+?)[?.]?$"),
    re.compile(r"^(?P<a>.+?)と(?P<b>.+?)(?:の|との)?(?:違い|比較|差異|異なる点)"),
    re.compile(r"^(?P<a>.+?)と(?P<b>.+?)を比(?:較|べ)"),
]
_PAGES = [
    re.compile(r"(?i)\b(?:pp?\.?|pages?)\s*(\d+)\s*(?:-|–|—|~|〜|to|through|and)\s*(\d+)"),
    re.compile(r"(?i)\bbetween\s+(?:pp?\.?|pages?)\s*(\d+)\s+and\s+(\d+)"),
    re.compile(r"(?:p\.?\s*)?(\d+)\s*(?:-|–|—|~|〜|～|から)\s*(\d+)\s*(?:ページ|頁|p\b)"),
]
_SECTION_REF = [
    re.compile(r"(?i)\b(chapter|part|section|appendix)\s+([0-9]+(?:\.[0-9]+)*|[IVXLC]+|[A-Z])\b"),
    re.compile(r"第\s*([0-9〇一二三四五六七八九十百]+)\s*(章|部|編|節)"),
]
_AGGREGATE = re.compile(
    r"(?i)\bwhat\s+(?:does|do|is)\b.*\b(?:cover|about|in)\b|\bsummar|\boverview\b|\bcontents?\s+of\b"
    r"|\bwhat(?:'s| is)\s+in\b|\bwhich\s+sections?\b|\blist\b|\bhow\s+many\b"
    r"|まとめ|要約|概要|内容|何が書|どんな|どの節|どのセクション|いくつ"
)
_FILLER = re.compile(
    r"(?i)\b(?:what\s+(?:does|do|is)|which\s+sections?|where|discuss(?:es)?|cover(?:s)?|about|"
    r"between|summari[sz]e|overview\s+of|in|the|of|and|on|pp?\.|pages?)\b"
    r"|について|を扱う|を説明|はどこ|どの節|どのセクション|で|の|に|は|を|が|まとめ|要約|概要|内容|"
    r"何が書(?:いて|かれて)?(?:ある|いる)?|[?？。、,.]"
)


@dataclass
class Plan:
    type: str
    topic: str
    parts: list[str] = field(default_factory=list)
    pages: tuple[int, int] | None = None
    section: tuple[str, str] | None = None
    """(kind, number) as written: ("chapter", "4"), ("章", "4")."""
    unsure: bool = False
    """The rules saw a comparison but could not tell its parts (the LLM may)."""


def plan(question: str) -> Plan:
    """Return the query type of question and what narrows it, by rules alone."""
    text = unicodedata.normalize("NFKC", question).strip()
    pages = _page_range(text)
    section = _section_ref(text)
    if _WHICH_BOOK.search(text):
        return Plan(WHICH_BOOK, _strip(_WHICH_BOOK_WORDS, text) or text, pages=pages, section=section)
    if _COMPARE.search(text):
        parts = decompose(text)
        if len(parts) > 1:
            return Plan(COMPARE, text, parts=parts, pages=pages, section=section)
        if _short(text):
            return Plan(LOOKUP, text, unsure=True)
    if (pages or section) and (_AGGREGATE.search(text) or _short(text)):
        # A range merely mentioned in a long sentence ("described later in
        # Chapter 15") does not make the question about that range.
        return Plan(AGGREGATE, _topic_in_range(text), pages=pages, section=section)
    parts = _questions(text)
    if len(parts) > 1:
        return Plan(COMPARE, text, parts=parts)
    return Plan(LOOKUP, text)


def _short(text: str) -> bool:
    cjk = len(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", text))
    return len(text.split()) <= 10 and cjk <= 30


def decompose(text: str) -> list[str]:
    """Return the things a comparison question compares (empty when rules cannot tell)."""
    for pattern in _COMPARE_SPLIT:
        match = pattern.search(text)
        if match:
            return [match["a"].strip(" 「」『』\"'"), match["b"].strip(" 「」『』\"'")]
    return []


def _questions(text: str) -> list[str]:
    """Return the separate questions of a multi-part question ("X? And Y?")."""
    parts = [part.strip() for part in re.split(r"(?<=[?？])\s*", text) if part.strip()]
    parts = [re.sub(r"(?i)^(?:and|also|then)\s+|^(?:また|それと|あと)、?", "", p) for p in parts]
    return parts if len(parts) > 1 and all(len(p) > 3 for p in parts) else [text]


def _page_range(text: str) -> tuple[int, int] | None:
    for pattern in _PAGES:
        match = pattern.search(text)
        if match:
            first, last = int(match[1]), int(match[2])
            return (min(first, last), max(first, last))
    return None


def _section_ref(text: str) -> tuple[str, str] | None:
    match = _SECTION_REF[0].search(text)
    if match:
        return match[1].lower(), match[2]
    match = _SECTION_REF[1].search(text)
    if match:
        return match[2], str(kanji_number(match[1]))
    return None


def kanji_number(text: str) -> int:
    """Return the value of a number written in digits or kanji (十二 → 12, 百五 → 105)."""
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char in _KANJI_DIGITS:
            digit = _KANJI_DIGITS[char]
        elif char in "十百":
            total += (digit or 1) * (10 if char == "十" else 100)
            digit = 0
    return total + digit


def _topic_in_range(text: str) -> str:
    """Return what a range question asks about, without the range and the asking words."""
    for pattern in _PAGES + _SECTION_REF:
        text = pattern.sub(" ", text)
    return _strip(_FILLER, text)


def _strip(pattern, text: str) -> str:
    words = pattern.sub(" ", text)
    return re.sub(r"\s+", " ", words).strip(" ?？.,、。")


def is_aggregate_listing(topic: str) -> bool:
    """Return True when a range question names no topic: list what the range holds."""
    return len(topic) < 3


_ONLY_IN = [
    re.compile(r"(?i)^(?:and\s+|but\s+)?(?:only|just)\s+(?:in|from)\s+(?:the\s+)?(?:book\s+)?(?P<b>.+?)[?.!]?$"),
    re.compile(r"(?i)^(?:and\s+|but\s+)?(?:what\s+about\s+|how\s+about\s+)?in\s+(?:the\s+)?book\s+(?P<b>.+?)[?.!]?$"),
    re.compile(r"^(?P<b>.+?)(?:だけ|のみ)(?:で|に|では|の中で)?(?:は|お願い|教えて)?.{0,6}[?？。]?$"),
]
_NEXT = re.compile(r"(?i)^(?:and\s+|then\s+)?(?:the\s+)?next(?:\s+(?:section|one|part|chapter))?[?.!]?$|^次(?:の(?:節|章|セクション|項))?(?:は|を)?.{0,4}[?？。]?$")
_PREVIOUS = re.compile(r"(?i)^(?:and\s+)?(?:the\s+)?previous(?:\s+(?:section|one|part|chapter))?[?.!]?$|^前(?:の(?:節|章|セクション|項))?(?:は|を)?.{0,4}[?？。]?$")
_MORE = re.compile(r"(?i)^(?:show\s+me\s+)?more(?:\s+results)?[?.!]?$|^(?:もっと|他に|ほかに)(?:は|ある)?.{0,6}[?？。]?$")


@dataclass
class FollowUp:
    question: str
    book_ids: list[int] | None = None
    navigate: int = 0
    """+1 next section, -1 previous, 0 none."""
    exclude_previous: bool = False


def follow_up(question: str, context: dict | None, books: dict[int, str]) -> FollowUp:
    """Return question resolved against the previous answer's context.

    context: what ``Answer.context()`` returned ({"question", "book_ids",
    "sections": [{"book_id", "heading_id", ...}]}); books: id → title of the
    books the user may see. A question that is no follow-up comes back as is.
    """
    text = unicodedata.normalize("NFKC", question).strip()
    if not context or not context.get("question"):
        return FollowUp(question)
    previous = context["question"]
    if _NEXT.match(text):
        return FollowUp(previous, navigate=1)
    if _PREVIOUS.match(text):
        return FollowUp(previous, navigate=-1)
    if _MORE.match(text):
        return FollowUp(previous, book_ids=context.get("book_ids"), exclude_previous=True)
    for pattern in _ONLY_IN:
        match = pattern.match(text)
        if match:
            chosen = match_books(match["b"], books)
            if chosen:
                return FollowUp(previous, book_ids=chosen)
    return FollowUp(question)


def match_books(name: str, books: dict[int, str]) -> list[int]:
    """Return the ids of the books whose title best matches name (words or substring)."""
    name = unicodedata.normalize("NFKC", name).casefold().strip(" 「」『』\"'")
    if not name:
        return []
    exact = [pk for pk, title in books.items() if title.casefold() == name]
    if exact:
        return exact
    contains = [pk for pk, title in books.items() if name in title.casefold()]
    if contains:
        return contains
    wanted = set(re.findall(r"\w+", name))
    scored = {pk: len(wanted & set(re.findall(r"\w+", title.casefold()))) for pk, title in books.items()}
    best = max(scored.values(), default=0)
    return [pk for pk, score in scored.items() if best and score == best]
