"""Small real PDFs made on the fly for tests."""

from pathlib import Path

import pymupdf


def make_pdf(path: Path, pages: list[str], *, title: str = "", fontname: str = "helv",
             outline: list | None = None) -> Path:
    """Write a PDF whose pages hold the given texts (one string per page, lines split on \\n),
    with outline ([level, title, page], as PyMuPDF's set_toc takes it) as its bookmarks."""
    document = pymupdf.open()
    for text in pages:
        page = document.new_page(width=420, height=595)
        y = 60
        for line in text.split("\n"):
            if line:
                page.insert_text((50, y), line, fontsize=11, fontname=fontname)
            y += 16
    if title:
        document.set_metadata({"title": title})
    if outline:
        document.set_toc(outline)
    document.save(path)
    document.close()
    return path


def make_book_pdf(path: Path, pages: list[list], *, folios: list | None = None,
                  fontname: str = "helv", title: str = "") -> Path:
    """Write a PDF of typeset pages: each a list of lines, a line a text (11 pt) or (text,
    size), centred; folios[i], where not None, printed in page i's running head at its outer
    corner (left on even pages, right on odd), as books print them."""
    document = pymupdf.open()
    for index, lines in enumerate(pages):
        page = document.new_page(width=420, height=595)
        y = 70.0
        for item in lines:
            text, size = (item, 11.0) if isinstance(item, str) else item
            if text:
                width = pymupdf.get_text_length(text, fontname=fontname, fontsize=size) \
                    if fontname == "helv" else size * len(text)
                page.insert_text(((420 - width) / 2, y + size), text, fontsize=size,
                                 fontname=fontname)
            y += size * 1.6
        folio = folios[index] if folios else None
        if folio is not None:
            x = 50 if (index + 1) % 2 == 0 else 350
            page.insert_text((x, 40), str(folio), fontsize=10, fontname=fontname)
    if title:
        document.set_metadata({"title": title})
    document.save(path)
    document.close()
    return path


def make_japanese_pdf(path: Path, pages: list[str], **kwargs) -> Path:
    return make_pdf(path, pages, fontname="japan", **kwargs)


def make_scan_pdf(path: Path, count: int = 2) -> Path:
    """Write an image-only PDF (no text layer), like a scanner makes."""
    document = pymupdf.open()
    for _ in range(count):
        page = document.new_page(width=420, height=595)
        pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 100, 140), False)
        pixmap.clear_with(200)
        page.insert_image(page.rect, pixmap=pixmap)
    document.save(path)
    document.close()
    return path


def make_encrypted_pdf(path: Path, user_pw: str = "user", text: str = "secret") -> Path:
    """Write an encrypted PDF; with an empty user_pw anyone may open it (only editing is locked)."""
    document = pymupdf.open()
    document.new_page().insert_text((50, 60), text)
    document.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_pw, owner_pw="owner")
    document.close()
    return path


def make_empty_pdf(path: Path) -> Path:
    """Write a syntactically valid PDF with zero pages (PyMuPDF refuses to save one)."""
    from pypdf import PdfWriter

    with open(path, "wb") as handle:
        PdfWriter().write(handle)
    return path


def scan_of(source: Path, target: Path, dpi: int = 150) -> Path:
    """Write an image-only copy of source, each page rendered at dpi (a clean scan)."""
    with pymupdf.open(source) as original:
        scanned = pymupdf.open()
        for page in original:
            pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            new = scanned.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pixmap)
        scanned.save(target)
        scanned.close()
    return target


def make_vertical_pdf(path: Path, columns: list[str], fontsize: float = 14) -> Path:
    """Write one page of vertical Japanese (縦書き): columns right to left, characters upright."""
    from bench.vertical import typeset

    with typeset(columns, fontsize) as document:
        document.save(path)
    return path
