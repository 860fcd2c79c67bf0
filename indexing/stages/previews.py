"""Stage previews: a thumbnail of every page, made once, so shelf and book pages open at once.

The cover (page 1) comes first. A page that cannot be drawn gets no
thumbnail here (it is rendered, or shown as a placeholder, when asked for)
and never holds the book back: the stage fails only if the file cannot be
opened at all.
"""

import logging

import pymupdf

from books.rendering import PREVIEW, PREVIEWS, Bounds, image_path, render_previews
from indexing.contract import Stage, StageError
from indexing.notes import note

logger = logging.getLogger(__name__)


class PreviewsStage(Stage):
    name = "previews"
    title = "Making page previews"
    ahead = True

    def run(self, ctx, book, progress) -> list:
        folder = ctx.data_dir / "cache" / PREVIEWS / book.sha256
        total = book.page_count
        missing = [n for n in range(1, total + 1) if not image_path(folder, n, PREVIEW).exists()]
        progress(total - len(missing), total)
        bounds = Bounds(ctx.max_render_pixels, ctx.max_image_pixels)
        try:
            document = pymupdf.open(book.path)
        except (OSError, RuntimeError, ValueError) as error:
            raise StageError(note("pdf.unopenable"), detail=repr(error)) from error
        failed = []
        with document:
            for done, number in enumerate(missing, start=total - len(missing) + 1):
                try:
                    next(render_previews(document, folder, [number], bounds))
                except Exception:  # one bad page must not cost the others their previews
                    logger.warning("No preview of page %s of book %s", number, book.pk,
                                   exc_info=True)
                    failed.append(number)
                progress(done, total)
        made = len(missing) - len(failed)
        return [[note("previews.made", shown=total - len(failed), total=total, made=made),
                 *([note("previews.failed", pages=failed[:5])] if failed else [])]]
