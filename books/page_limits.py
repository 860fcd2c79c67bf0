"""How much a page may cost to render, checked before MuPDF draws it.

Limits keep a hostile page from exhausting the machine; the previews, the page
viewer and the OCR stage all render through them. A rendered image has at
most max_pixels (``bounded_scale``): MuPDF decodes a large image subsampled, band by band, so
memory follows the output size, not the image's. Time follows the image's
size, though (a 60000 × 60000 image of zeros is 3.6 GB to inflate from a 3.5 MB
stream), so a page whose images declare more than max_image_pixels is not
rendered at all. The same goes for drawing instructions: a 1 MB file can hold
a content stream that inflates to gigabytes, and MuPDF would spend a minute a
page reading it, so ``check_page`` inflates each content stream only up to
MAX_CONTENT_BYTES to see whether it ends there.
"""

import re
import zlib

import pymupdf

MAX_CONTENT_BYTES = 128 * 1024 * 1024  # tens of MB is already a heavy vector drawing
FILTER_NAME = re.compile(r"/(\w+)")


class PageTooLarge(Exception):
    """The page is too large to read safely (its images or its drawing); the message says why."""


def check_page(page: pymupdf.Page, max_image_pixels: int) -> None:
    """Raise PageTooLarge if rendering page would decode more than the limits allow."""
    check_drawing(page)
    check_images(page, max_image_pixels)


def check_drawing(page: pymupdf.Page) -> None:
    """Raise PageTooLarge if the page's drawing instructions inflate past MAX_CONTENT_BYTES."""
    document = page.parent
    streams = page.get_contents() + [xobject[0] for xobject in page.get_xobjects()]
    for xref in streams:
        if inflated_size(document, xref, MAX_CONTENT_BYTES) > MAX_CONTENT_BYTES:
            raise PageTooLarge(
                f"The page's drawing instructions are too large to read (over "
                f"{MAX_CONTENT_BYTES // (1024 * 1024)} MB once decompressed)."
            )


def inflated_size(document, xref: int, cap: int) -> int:
    """Return the size of stream xref once inflated, counting no further than just past cap.

    Only a stream whose first filter is Flate is inflated (here, in steps of
    1 MB); any other is measured as stored.
    """
    filters = FILTER_NAME.findall(document.xref_get_key(xref, "Filter")[1])
    raw = document.xref_stream_raw(xref) or b""
    if not filters or filters[0] not in ("FlateDecode", "Fl"):
        return len(raw)
    inflater, size, data = zlib.decompressobj(), 0, raw
    try:
        while data and size <= cap:
            size += len(inflater.decompress(data, 1 << 20))
            data = inflater.unconsumed_tail
    except zlib.error:
        pass  # damaged data: MuPDF reads what it can, no more than was inflated here
    return size


def image_pixels(page: pymupdf.Page) -> int:
    """Return the pixels of the images the page draws, inline ones included, as they declare.

    Nothing is decoded to count them.
    """
    return sum(image["width"] * image["height"] for image in page.get_image_info())


def check_images(page: pymupdf.Page, max_image_pixels: int) -> None:
    """Raise PageTooLarge if the page's images are too large to decode."""
    pixels = image_pixels(page)
    if pixels > max_image_pixels:
        raise PageTooLarge(
            f"The page's images are too large to read ({pixels:,} pixels; "
            f"the limit is {max_image_pixels:,})."
        )


def bounded_scale(rect: pymupdf.Rect, scale: float, max_pixels: int) -> float:
    """Return scale, reduced where needed so that rect rendered at it has at most max_pixels."""
    area = rect.width * rect.height * scale * scale
    if area > max_pixels:
        scale *= (max_pixels / area) ** 0.5 * 0.99  # pixel sizes round up
    return scale
