"""Pages copied out of a book's PDF, and nothing in them that can run.

``copy_pages`` has MuPDF copy a page range into a new document: it reads only
those pages and what they use, so a one-page clip of a 1,300-page book takes
a fraction of a second (pypdf walks the whole page tree first, seconds on a
long book). The source's document-level parts (its scripts, forms, attached
files, outline) are never copied; its links are re-made from scratch, web
links and links to pages inside the clip only.

``inert_writer`` then has ``strip_active_content`` walk every object of the
new document, nested and indirect alike, and removes whatever could run, launch, submit, import or
carry a file, wherever it hides: JavaScript in any action (``/A``, ``/AA``,
each ``/Next`` of a chain), ``/OpenAction``, launch/submit/import/rich-media
actions, embedded and attached files, forms with their XFA and scripts, and
annotations that play or attach things. What survives is page content,
markup annotations, plain web links (http, https, mailto) and internal links.
"""

import io
import re

import pymupdf
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

pymupdf.TOOLS.mupdf_display_errors(False)

SAFE_URI = re.compile(r"(?i)(?:https?|mailto):[^\x00-\x20\x7f]*")
SAFE_ACTIONS = {"/GoTo", "/URI"}
ACTIONS = SAFE_ACTIONS | {
    "/GoToR", "/GoToE", "/GoToDp", "/Launch", "/Thread", "/Sound", "/Movie", "/Hide", "/Named",
    "/SubmitForm", "/ResetForm", "/ImportData", "/JavaScript", "/SetOCGState", "/Rendition",
    "/Trans", "/GoTo3DView", "/RichMediaExecute", "/ECMAScript",
}
# Keys whose values only ever run, attach or submit something: removed wherever they are.
ACTIVE_KEYS = {
    "/AA", "/OpenAction", "/JS", "/JavaScript", "/Next", "/AcroForm", "/XFA", "/EmbeddedFiles",
    "/EF", "/RF", "/AF", "/RichMediaContent", "/RichMediaSettings", "/PA", "/URLS", "/Collection",
}
# Annotations that only mark the page up; every other kind (widgets, file
# attachments, sound, movie, screen, rich media, 3D) goes.
MARKUP_ANNOTATIONS = {
    "/Link", "/Text", "/FreeText", "/Line", "/Square", "/Circle", "/Polygon", "/PolyLine",
    "/Highlight", "/Underline", "/Squiggly", "/StrikeOut", "/Stamp", "/Caret", "/Ink", "/Popup",
    "/Watermark", "/Redact",
}
FILE_TYPES = {"/EmbeddedFile", "/Filespec", "/EmbeddedFiles"}


def safe_uri(uri) -> bool:
    """Return True for a web or mail address (no javascript:, file:, data: or the like)."""
    return isinstance(uri, str) and SAFE_URI.fullmatch(uri.strip()) is not None


def copy_pages(path, start: int, end: int) -> bytes:
    """Return a PDF of physical pages start..end (1-based) of the PDF at path, links re-made."""
    with pymupdf.open(path) as source, pymupdf.open() as clip:
        clip.insert_pdf(source, from_page=start - 1, to_page=end - 1, links=False, annots=True,
                        widgets=False)
        for offset in range(end - start + 1):
            _copy_links(source, start - 1 + offset, clip[offset], start - 1, end - 1)
        return clip.tobytes(garbage=1, deflate=True)


def _copy_links(source, number: int, clip_page, first: int, last: int) -> None:
    """Re-make the web links of source page number, and its links to pages first..last.

    MuPDF resolves a named destination in C (PyMuPDF's get_links reads the
    book's whole name tree in Python first: most of a second on a long book).
    """
    page = source[number]
    link = page.first_link
    while link:
        uri, rect = link.uri or "", link.rect
        if link.is_external and safe_uri(uri):
            clip_page.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": uri.strip()})
        elif uri.startswith("#"):
            target, x, y = source.resolve_link(uri)
            if first <= target <= last:
                clip_page.insert_link({"kind": pymupdf.LINK_GOTO, "from": rect,
                                       "page": target - first, "to": pymupdf.Point(x, y)})
        link = link.next


def inert_writer(data: bytes) -> PdfWriter:
    """Return a writer holding the PDF in data without its active content."""
    reader = PdfReader(io.BytesIO(data))
    strip_active_content(reader.root_object)
    # Cloning copies what the catalog still reaches: whatever was cut off is not written.
    return PdfWriter(clone_from=reader)


def strip_active_content(root: DictionaryObject) -> int:
    """Remove everything active below root (a document's catalog); return how many things went.

    Every object reachable from root is visited once (a loop or a shared
    object costs nothing more), with an explicit stack, so no chain is too
    long or too deep. The objects are changed in place.
    """
    removed = 0
    seen: set[int] = set()
    stack: list = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, IndirectObject):
            if item.idnum in seen:
                continue
            seen.add(item.idnum)
            item = item.get_object()
        if isinstance(item, DictionaryObject):
            removed += _clean_dictionary(item, stack)
        elif isinstance(item, ArrayObject):
            removed += _clean_array(item, stack)
    return removed


def _clean_dictionary(item: DictionaryObject, stack: list) -> int:
    removed = 0
    for key in list(item.keys()):
        value = item.raw_get(key)
        if key in ACTIVE_KEYS or is_active(value.get_object()):
            del item[key]
            removed += 1
        else:
            stack.append(value)
    return removed


def _clean_array(item: ArrayObject, stack: list) -> int:
    kept = [value for value in item if not is_active(value.get_object())]
    removed = len(item) - len(kept)
    if removed:
        item[:] = kept
    stack.extend(kept)
    return removed


def is_active(item) -> bool:
    """Return True for an object that must not be in a clip at all (its reference goes too)."""
    if not isinstance(item, DictionaryObject):
        return False
    kind = item.get("/S")
    if kind in ACTIONS:
        return kind not in SAFE_ACTIONS or (kind == "/URI" and not safe_uri(item.get("/URI")))
    if "/JS" in item or item.get("/Type") in FILE_TYPES:
        return True
    annotation = item.get("/Type") == "/Annot" or ("/Rect" in item and "/Subtype" in item)
    return annotation and item.get("/Subtype") not in MARKUP_ANNOTATIONS
