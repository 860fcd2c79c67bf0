"""Recover a book's printed table of contents and place every heading on its physical page.

Plain data in, plain data out: `recover(pages)` takes the pipeline's page dicts
({number, width, height, lines: [{text, box, conf, dir}]}) and returns a TocResult.
"""

from indexing.toc.model import Anomaly, Entry, TocResult
from indexing.toc.recover import recover

__all__ = ["Anomaly", "Entry", "TocResult", "recover"]
