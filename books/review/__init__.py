"""The review queue: headings the pipeline could not place, decided by a librarian.

``decisions`` records and applies a decision (through ``books.headings``, the
one writer of headings); ``items`` finds what a reviewer is shown (the
contents line, candidate pages); ``views`` and ``api`` are the pages and JSON.
"""
