"""Recover a book's printed table of contents and place every heading on its physical page.

Plain data in, plain data out: `recover(pages)` takes the pages as PageRecords
({number, width, height, lines: [{text, box, conf, dir}], gutter}; the shelf
builds them with ``Page.objects.records()``) and returns a TocResult.
"""

from toc.model import Anomaly, Entry, PageRecord, TocResult
from toc.recover import recover

__all__ = ["Anomaly", "Entry", "PageRecord", "TocResult", "recover"]
