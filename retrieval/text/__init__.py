"""Text as search reads it: words, terms and sentences (pure functions, no index, no question).

The lowest layer of ``retrieval``: the indexes, the question's reading, ranking and the
answer all cut text the same way, so none of them has to import another to do it.
"""
