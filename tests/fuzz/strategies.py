"""Hypothesis strategies for what people and scripts send that code rarely expects."""

import string

from hypothesis import strategies as st

# Characters that have broken text handling somewhere: NUL and other controls,
# lone surrogates, combining marks, full-width, superscript and other
# non-ASCII digits, right-to-left and zero-width marks, the quote characters of
# FTS5 and SQL, a BOM, and scripts the books are in.
TRICKY = [
    "\x00", "\x01", "\x1f", "\x7f", "\ud800", "\udfff", "\u0301", "\u0308", "\u20dd",
    "０", "１２", "²", "³", "¹", "٣", "۴", "߀", "Ⅻ", "\u200e", "\u200f", "\u202e", "\u2066",
    "\u200b", "\ufeff", "\ufffd", '"', "'", "*", "^", "-", ":", "(", ")", "%", "_", "\\",
    "NEAR", "AND", "OR", "NOT", "第", "章", "頁", "ページ", "次の節", "もっと", "だけ",
    "\n", "\t", " ", "𝟘", "🂡", "ｐ.", "pages", "chapter", "next", "more", "only in",
]
ASCII = string.ascii_letters + string.digits + string.punctuation + " "
tricky_text = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(alphabet=ASCII, max_size=8),
              st.text(max_size=6), st.characters(codec=None)),
    max_size=12,
).map("".join)
long_text = st.one_of(
    st.integers(2_000, 12_000).map(lambda n: "a" * n),
    st.integers(100, 3_000).map(lambda n: "第" * n),
    st.integers(1, 500).map(lambda n: "pages 1 to " + "9" * n),
)
text = st.one_of(tricky_text, tricky_text, long_text)
integers = st.one_of(
    st.integers(-5, 50),
    st.sampled_from([0, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]),
    st.integers(),
)
number_text = st.one_of(
    integers.map(str),
    st.sampled_from(["²", "١٢", "１２", "1e3", "0x10", "+1", " 7 ", "7.0", "", "NaN", "∞",
                     "9" * 40, "-0", "0" * 30 + "1"]),
    tricky_text,
)
scalars = st.one_of(st.none(), st.booleans(), integers, st.floats(allow_nan=False), text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=12), inner, max_size=4)),
    max_leaves=12,
)


def travels_in_a_url(value: str) -> str:
    """Return value without lone surrogates, which no URL or form body can carry (JSON can)."""
    return value.encode("utf-8", "ignore").decode("utf-8") if isinstance(value, str) else value


def nastier(value, data, *, in_url: bool):
    """Return value, or (half the time) a hostile value of the same kind drawn from data."""
    if not data.draw(st.booleans(), label="replace"):
        return value
    if isinstance(value, bool) or value is None:
        new = data.draw(scalars)
    elif isinstance(value, int):
        new = data.draw(integers)
    elif isinstance(value, list):
        new = data.draw(st.lists(st.one_of(integers, text), max_size=5))
    elif isinstance(value, dict):
        new = {k: nastier(v, data, in_url=in_url) for k, v in value.items()}
    else:
        new = data.draw(text)
    if in_url:
        return [travels_in_a_url(v) for v in new] if isinstance(new, list) else travels_in_a_url(new)
    return new


def make_nastier(case, data) -> None:
    """Replace some of case's query parameters, path ids and JSON body values with hostile ones."""
    for name, value in list((case.query or {}).items()):
        case.query[name] = nastier(value, data, in_url=True)
    for name, value in list((case.path_parameters or {}).items()):
        if isinstance(value, int) and not isinstance(value, bool):
            case.path_parameters[name] = abs(data.draw(integers)) if data.draw(st.booleans()) else value
    if isinstance(case.body, dict) and "json" in (case.media_type or ""):
        case.body = nastier(case.body, data, in_url=False)
