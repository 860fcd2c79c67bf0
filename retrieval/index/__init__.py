"""The shelf's question indexes, in three parts that depend one way.

- ``writer``: building and removing a book's index (the indexing pipeline's API);
- ``reader``: reading indexes, with their cache, or cutting one on the fly;
- ``served``: the served process's indexes, loaded ahead;

over ``files`` (the layout on disk), ``cut`` (sections from the database) and
``book`` (one book's index in memory).
"""
