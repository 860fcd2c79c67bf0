"""What a question asks for, decided by rules (pure functions).

``plan(question)`` returns the query type and what narrows it:

- lookup: one place answers;
- range: a whole chapter, part or appendix on a topic ("clip the chapter on
  debugging", 「…を説明している章を丸ごと」): the unit is the answer, over its
  full range;
- aggregate: a numbered chapter or a page span ("what does chapter 4 cover",
  「第2章の内容」, "… between pp. 100–200"), then what in it matches;
- compare: several things, each looked up ("the difference between X and Y",
  "where is X defined, and where is it used", 「XとYは、それぞれどこ」);
- which_book: which book to read first.

It also picks out the books a question names explicitly ("in the Octave
manual", 『LaTeX 2ε への道』); ``retrieval.question.naming`` matches them to the shelf.
Follow-ups ("only in the first book", 「その章」) are ``retrieval.question.followups``.
"""

import re
import unicodedata
from dataclasses import dataclass, field

from books.text import CJK
from toc.numbers import numeral_value, roman_value
from retrieval.text.analysis import particle_offsets
from retrieval.question.locator import locator_term

LOOKUP, COMPARE, AGGREGATE, RANGE, WHICH_BOOK, NAVIGATE, LOCATE = (
    "lookup", "compare", "aggregate", "range", "which_book", "navigate", "locate",
)
CHAPTER, PART, APPENDIX = "chapter", "part", "appendix"

_WHICH_OF_THE_BOOKS = r"\bwhich\s+(?:one\s+)?of\s+(?:the|these|those|my|your)\s+(?:books|manuals)\b"
_BOOK_IS_ASKED_FOR = (
    r"(?:本|書籍|資料|マニュアル)(?:(?:は|って)(?:どれ|どちら)(?:です|でしょう)?か?|は(?=[?？]?$)"
    r"|はありますか|を教えて(?:ください|下さい)?)"
)
"""「…本はどれ？」「…本は？」「…本はありますか」「…本を教えて」: the book itself is asked for."""
_WHICH_BOOK = re.compile(
    r"(?i)\b(?:which|what)\s+(?:book|manual|volume|title)s?\b|\bread\s+first\b|\brecommend"
    rf"|{_WHICH_OF_THE_BOOKS}"
    r"|\bbest\s+(?:book|manual)|どの本|どちらの本|どの(?:書籍|資料|マニュアル)|どれを読|何を読|"
    rf"{_BOOK_IS_ASKED_FOR}|おすすめ|お勧め|オススメ|推薦|最初に読"
)
"""Which book to read: "which book covers X", "which of the books explains X", 「Xについて
どの本を読めば」「Xが詳しい本はどれ？」「Xが載っている本は？」「Xの本を教えて」."""
_WHICH_BOOK_WORDS = re.compile(
    r"(?i)\b(?:which|what)\s+(?:book|manual|volume|title)s?\s*(?:should\s+i\s+read\s+(?:first\s+)?"
    r"(?:to|about|on|for)?|(?:covers?|explains?|discuss(?:es)?|is\s+best\s+for|has)\b)?"
    r"|\bdo\s+you\s+recommend\b|\brecommend(?:ed)?\b|\bread\s+first\b|\b(?:about|on|for)\s*$"
    r"|について、?|に関して、?|どの本|どちらの本|どの(?:書籍|資料|マニュアル)|を?読めば(?:いい|よい)|"
    rf"{_WHICH_OF_THE_BOOKS}\s*(?:covers?|explains?|discuss(?:es)?|has)?\b"
    r"|(?:[がのに])?(?:詳しい|(?:詳しく)?(?:書かれて|書いて|載って|説明されて|扱われて|解説されて)?"
    rf"(?:いる|ある)?){_BOOK_IS_ASKED_FOR}|"
    r"どれを読|何を読|がおすすめ|おすすめ|お勧め|オススメ|推薦|最初に読むべき本は?|最初に読む(?:べき)?|"
    r"(?:です|ます)?か[?？]?$|[?？]"
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
# "where is X defined, and where is it used"; "X, and which Y"
_AND_WHERE = re.compile(r"(?i),?\s+and\s+(?=(?:where|which|how|what)\b)")
# 「XとYは、それぞれどこ」: two things asked for at once
_EACH_JA = re.compile(r"それぞれ|両方")
_EACH_EN = re.compile(r"(?i)\beach\b|\bboth\b")
_PAGES = [
    re.compile(r"(?i)\b(?:pp?\.?|pages?)\s*(\d+)\s*(?:-|–|—|~|〜|to|through|and)\s*(\d+)"),
    re.compile(r"(?i)\bbetween\s+(?:pp?\.?|pages?)\s*(\d+)\s+and\s+(\d+)"),
    re.compile(r"(?:p\.?\s*)?(\d+)\s*(?:-|–|—|~|〜|～|から)\s*(\d+)\s*(?:ページ|頁|p\b)"),
]
JA_NUMERAL = r"[0-9〇一二三四五六七八九十百]+|[IVXLC]+|[Ⅰ-Ⅻ]+"
"""The number of a Japanese unit: digits, kanji or roman (第2部, 第二部, 第II部, 第Ⅱ部)."""
JA_UNIT = re.compile(rf"第\s*({JA_NUMERAL})\s*(章|部|編|節)")
_SECTION_REF = [
    re.compile(r"(?i)\b(chapter|part|section|appendix)\s+([0-9]+(?:\.[0-9]+)*|[IVXLC]+|[A-Z])\b"),
    JA_UNIT,
]
_AGGREGATE = re.compile(
    r"(?i)\bwhat\s+(?:does|do|is)\b.*\b(?:cover|about|in)\b|\bsummar|\boverview\b|\bcontents?\s+of\b"
    r"|\bwhat(?:'s| is)\s+in\b|\bwhich\s+sections?\b|\blist\b|\bhow\s+many\b"
    r"|まとめ|要約|概要|内容|何が書|どんな|どの節|どのセクション|いくつ"
)
# A whole unit on a topic: "clip the entire chapter on X", "the appendix about X",
# 「…の章を丸ごと」「…を説明している章は何ページから」
_UNIT_EN = re.compile(
    r"(?i)\b(?:whole|entire|complete|full|all\s+of\s+the)\s+(?:[\w'’-]+\s+){0,4}?(chapter|part|appendix)\b"
    r"|\b(?:clip|extract|export|download)\b.{0,60}?\b(chapter|part|appendix)\b"
    r"|\b(?:which|what)\s+(chapter|part|appendix)\b"
    r"|\b(chapter|part|appendix)\s+(?:on|about|that\s+(?:covers|explains|describes)|covering)\b"
)
_UNIT_JA = re.compile(
    r"(章|部|編|付録)(?:を|は|の)?、?(?:丸ごと|まるごと|全部|全体|すべて|全て|まとめて|何ページから)"
    r"|(?:して|てい|する)る?(章|部|編|付録)"
    r"|(章|部|編|付録)(?:を|だけ(?:を)?)、?(?:PDF\s*で)?(?:切り抜|切り出|抜き出|書き出|ダウンロード)"
)
_UNITS = {"chapter": CHAPTER, "part": PART, "appendix": APPENDIX, "章": CHAPTER, "部": PART,
          "編": PART, "付録": APPENDIX}
_FILLER = re.compile(
    r"(?i)\b(?:what\s+(?:does|do|is)|which\s+sections?|where|discuss(?:es)?|cover(?:s)?|about|"
    r"between|summari[sz]e|overview\s+of|in|the|of|and|on|pp?\.|pages?)\b"
    r"|について|を扱う|を説明|はどこ|どの節|どのセクション|で|の|に|は|を|が|まとめ|要約|概要|内容|"
    r"何が書(?:いて|かれて)?(?:ある|いる)?|[?？。、,.]"
)
# An explicit reference to a book: "in the Octave manual", "the beamer guide", 『…』
_BOOK_REF_EN = re.compile(
    r"(?i)\bthe\s+((?:[\w.+/-]+\s+)?[\w.+/-]+)\s+"
    r"(?:manual|guide|book|faq|reference|handbook|documentation|user\s+guide)s?\b"
)
_NOT_A_NAME = re.compile(
    r"(?i)^(?:whole|entire|complete|full|first|second|other|same|printed|this|that|which|"
    r"chapter|part|section|appendix|page|of|a|an)$"
)
# A reader who is starting out: the book that teaches from the beginning serves them first.
_BEGINNER = re.compile(
    r"(?i)\b(?:basics?|beginners?|from\s+scratch|getting\s+started|first\s+steps?|introduct\w*|"
    r"tutorial|for\s+the\s+first\s+time|new\s+to|learn(?:ing)?)\b|初めて|はじめて|入門|初心者|"
    r"基本|基礎|一から|チュートリアル"
)
_BOOK_REF_QUOTED = re.compile(r"[『「\"“]([^』」\"”]{2,80})[』」\"”]")
# A name the question works in: "in beamer", "with Octave", 「memoir で」. It refers to a book
# only where it is one of a book's naming words (``retrieval.question.naming``): "in a figure" is not.
_MENTION_EN = re.compile(r"(?i)\b(?:in|with|using|inside|under)\s+(?:the\s+)?([A-Za-z][\w.+-]*)")
_MENTION_JA = re.compile(r"([A-Za-z][\w.+-]*)\s*(?:で|を使って|において|の中で)")
_REF_PHRASE = re.compile(
    r"(?i)(?:\b(?:in|with|using|from|inside|under)\s+)?" + _BOOK_REF_EN.pattern[4:])


@dataclass
class Plan:
    type: str
    topic: str
    parts: list[str] = field(default_factory=list)
    pages: tuple[int, int] | None = None
    section: tuple[str, str] | None = None
    """(kind, number) as written: ("chapter", "4"), ("章", "4")."""
    unit: str | None = None
    """For a range: the unit asked for (chapter, part, appendix)."""
    refs: list[str] = field(default_factory=list)
    """Books the question names, as written ("Octave", "LaTeX 2ε への道")."""
    mentions: list[str] = field(default_factory=list)
    """Names the question works in ("in beamer", 「Octave で」): explicit references where
    they name a book."""
    each: bool = False
    """The question asks for one place in each book it names ("each", それぞれ)."""
    beginner: bool = False
    """The reader is starting out ("the basics", "from scratch", 初めて, 入門)."""
    unsure: bool = False
    """The rules saw a comparison but could not tell its parts (the LLM may)."""
    scene: str = ""
    """What the question says before it asks for its parts (「…を知りたい。」): each part is
    looked up in it ("verbatim 環境の基本" is about printing program source as typed)."""


def plan(question: str) -> Plan:
    """Return the query type of question and what narrows it, by rules alone."""
    text = unicodedata.normalize("NFKC", question).strip()
    found = _plan(text)
    found.refs = book_refs(text)
    found.mentions = mentions(text)
    found.each = bool(_EACH_EN.search(text) or _EACH_JA.search(text))
    found.beginner = bool(_BEGINNER.search(text))
    return found


def _plan(text: str) -> Plan:
    term = locator_term(text)
    if term:
        return Plan(LOCATE, term)
    pages = _page_range(text)
    section = _section_ref(text)
    if _WHICH_BOOK.search(text):
        return Plan(WHICH_BOOK, _strip(_WHICH_BOOK_WORDS, text) or text, pages=pages, section=section)
    unit = _unit(text)
    if unit and not section:
        return Plan(RANGE, text, pages=pages, unit=unit)
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
    parts = several(text)
    if len(parts) > 1:
        return Plan(COMPARE, text, parts=parts, pages=pages, scene=_scene(text))
    return Plan(LOOKUP, text, pages=pages)


def _unit(text: str) -> str | None:
    for pattern in (_UNIT_EN, _UNIT_JA):
        match = pattern.search(text)
        if match:
            word = next(group for group in match.groups() if group)
            return _UNITS[word.casefold()]
    return None


def _short(text: str) -> bool:
    cjk = len(re.findall(f"[{CJK}]", text))
    return len(text.split()) <= 10 and cjk <= 30


def decompose(text: str) -> list[str]:
    """Return the things a comparison question compares (empty when rules cannot tell)."""
    for pattern in _COMPARE_SPLIT:
        match = pattern.search(text)
        if match:
            return [match["a"].strip(" 「」『』\"'"), match["b"].strip(" 「」『』\"'")]
    return []


def several(text: str) -> list[str]:
    """Return the separate things a question asks for at once, or [text].

    "X? And Y?"; "where is X defined, and where is it used?"; 「XとYは、それぞれどこ」
    (the things joined by と before それぞれ). The sentence that sets the scene
    before a Japanese question ("…したい。") is no part: it is the plan's scene.
    """
    parts = _questions(text)
    if len(parts) > 1:
        return parts
    english = [part.strip(" ,") for part in _AND_WHERE.split(text) if part.strip(" ,")]
    if len(english) > 1 and all(len(part) > 8 for part in english):
        return english
    if _EACH_JA.search(text):
        asked = [s for s in re.split(r"(?<=[。．])", text) if s.strip()][-1]
        head = _EACH_JA.split(asked)[0]
        cuts = particle_offsets(head, "と")
        pieces = [head[a:b].strip(" 、,はを") for a, b in zip([0] + [c + 1 for c in cuts],
                                                            cuts + [len(head)])]
        pieces = [p for p in pieces if len(p) >= 2]
        if len(pieces) > 1:
            return pieces
    return [text]


def _scene(text: str) -> str:
    """Return the sentences before a Japanese question that asks for each of several
    things (「…を知りたい。AとBは、それぞれどこ？」), or ""."""
    if not _EACH_JA.search(text):
        return ""
    sentences = [s for s in re.split(r"(?<=[。．])", text) if s.strip()]
    return "".join(sentences[:-1]).strip()


def _questions(text: str) -> list[str]:
    """Return the separate questions of a multi-part question ("X? And Y?")."""
    parts = [part.strip() for part in re.split(r"(?<=[?？])\s*", text) if part.strip()]
    parts = [re.sub(r"(?i)^(?:and|also|then)\s+|^(?:また|それと|あと)、?", "", p) for p in parts]
    return parts if len(parts) > 1 and all(len(p) > 3 for p in parts) else [text]


def book_refs(text: str) -> list[str]:
    """Return the names of books the question refers to explicitly, as written."""
    refs = [match.group(1).strip() for match in _BOOK_REF_QUOTED.finditer(text)]
    for match in _BOOK_REF_EN.finditer(text):
        words = [w for w in match.group(1).split() if not _NOT_A_NAME.match(w)]
        if words:
            refs.append(" ".join(words))
    return list(dict.fromkeys(refs))


def mentions(text: str) -> list[str]:
    """Return the names the question says it works in or with, as written."""
    found = [m.group(1) for pattern in (_MENTION_EN, _MENTION_JA) for m in pattern.finditer(text)]
    return list(dict.fromkeys(name.rstrip(".") for name in found))


def without_refs(text: str, refs) -> str:
    """Return text without the phrases that name the books in refs ("in beamer", 「memoir で」,
    "the Octave manual"): what is left says what is asked."""
    refs = set(refs)

    def drop(match):
        return " " if match.group(1).rstrip(".") in refs else match.group(0)

    for pattern in (_REF_PHRASE, _MENTION_EN, _MENTION_JA):
        text = pattern.sub(drop, text)
    text = re.sub(r"\s+([?？.,、。!])", r"\1", re.sub(r"\s+", " ", text))
    return text.strip(" ,、") or text


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
    value = unit_number(match[1]) if match else None
    return (match[2], str(value)) if value is not None else None


def unit_number(text: str) -> int | None:
    """Return the value of the number in 「第…部」: digits, kanji or roman (第II部, 第Ⅱ部)."""
    text = unicodedata.normalize("NFKC", text)
    value = numeral_value(text)
    return value if value is not None else roman_value(text)


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
