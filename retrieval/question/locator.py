"""Where a term is mentioned: the question read, and the pages a book's own index gives.

"Where is multiplot mentioned?", "which pages discuss breakpoints?",
「…はどこに出てくる？」「…が載っているページ」 ask for a term's places, not for the
place that explains it: the book's index (``books.bookindex``) answers with its
pages, each shown under the section it falls in (``gather.locate``).
"""

import re

from retrieval.index import entries

_MENTIONED = (r"(?:mentioned|discussed|referred\s+to|cited|named|treated|indexed|covered|used)")
_LOCATE = [
    re.compile(r"(?i)^(?:where|on\s+(?:which|what)\s+pages?)\s+(?:is|are)\s+(?P<t>.+?)\s+"
               + _MENTIONED + r"(?:\s+(?:in|at)\s+.+?)?\s*[?.]?$"),
    re.compile(r"(?i)^(?:which|what)\s+pages?\s+(?:mention|discuss|cover|refer\s+to|use|name)"
               r"s?\s+(?P<t>.+?)\s*[?.]?$"),
    re.compile(r"(?i)^where\s+(?:does|do)\s+(?P<t>.+?)\s+(?:appear|come\s+up|occur)"
               r"(?:\s+in\s+.+?)?\s*[?.]?$"),
    re.compile(r"^(?P<t>.+?)(?:は|が)(?:どこに|どのページに|何ページに)"
               r"(?:出て(?:くる|き(?:ます|ている))|載って(?:いる|います)|登場(?:する|します))"
               r"(?:の|ん)?(?:ですか|でしょうか)?か?[?？。]?$"),
    re.compile(r"^(?P<t>.+?)(?:が|の)(?:載って(?:いる|る)|出て(?:くる|いる))ページ(?:は|を教えて"
               r"(?:ください)?)?(?:どこ)?(?:ですか)?[?？。]?$"),
]
"""A term's places asked for ("where is multiplot mentioned?", "which pages discuss
breakpoints?", 「…はどこに出てくる？」「…が載っているページ」): the book's own index answers.
"Where is X explained?" and 「…はどこに書いてありますか」 ask for the place that answers."""


def locator_term(text: str) -> str | None:
    """Return the term whose places text asks for, or None where it asks something else."""
    for pattern in _LOCATE:
        match = pattern.match(text)
        if match:
            return match["t"].strip(" 「」『』\"'“”`")
    return None


NO_ENTRY = {"en": "No book's index lists this term; these are the places its words are found.",
            "ja": "どの本の索引にもこの語はありません。語が見つかる箇所を挙げます。"}
NOT_FOUND = {"en": "No book's index lists this term, and no page holds its words; these are the "
                   "places nearest it in meaning.",
             "ja": "どの本の索引にもこの語はなく、この語を含むページもありません。意味の近い箇所を挙げます。"}
_GENERIC_HEAD = re.compile(r"(?i)^(?:the|a|an)\s+(?:(?:keyword|command|function|term|word|option|"
                           r"macro|package|variable|class|environment)\s+)?")


def term_variants(term: str) -> list[str]:
    """Return the forms of term to look up in an index: as asked, without "the keyword",
    without a plural s."""
    bare = _GENERIC_HEAD.sub("", term).strip()
    forms = [term, bare, bare[:-1] if len(bare) > 3 and bare.endswith("s") else bare]
    return list(dict.fromkeys(form for form in forms if form))


def section_at(shelf, book_id, page, term: str = "") -> int | None:
    """Return the section whose own text is on page: of two that share it (where one ends and
    the next begins), the one whose text there holds term's words, else the one that starts
    last (``index.entries.on_page``, as the index's places are stored)."""
    index = shelf.index(book_id)
    keys = index.by_page.get(page, [])
    if not keys:
        return None
    return entries.on_page([index.full(key) for key in keys], page, term)
