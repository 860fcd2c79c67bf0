"""The shelf's vector index: books go in and out in bulk, each keeping only its own rows."""

from pathlib import Path

import numpy as np

from retrieval.index import vectors
from retrieval.index.vectors import ROW_BITS, ShelfVectors, _all_ids


def rows_of(index):
    ids = _all_ids(index)
    return dict(zip(*np.unique(ids >> ROW_BITS, return_counts=True)))


def shelf(tmp_path, rows):
    return ShelfVectors(tmp_path, "test", lambda book: rows.get(book))


def test_replacing_several_books_at_once_keeps_only_their_new_rows(tmp_path):
    rng = np.random.default_rng(0)
    rows = {book: rng.standard_normal((n, 8)).astype(np.float32) for book, n in ((1, 3), (2, 4), (3, 5))}
    index = shelf(tmp_path, rows)
    index.replace_many(rows)
    index.replace_many({1: rows[1][:1], 2: rows[2][:2]})
    assert rows_of(index._read()[0]) == {1: 1, 2: 2, 3: 5}
    book, row, cosine = index.search(rows[3][4], 1)[0]
    assert (book, row) == (3, 4) and cosine > 0


def test_a_shelf_past_the_exact_limit_is_compressed_and_books_still_leave_it(tmp_path, monkeypatch):
    monkeypatch.setattr(vectors, "EXACT_LIMIT", 500)
    rng = np.random.default_rng(1)
    rows = {book: rng.standard_normal((100, 64)).astype(np.float32) for book in range(1, 9)}
    index = shelf(tmp_path, rows)
    index.replace_many({book: rows[book] for book in range(1, 5)})
    assert index._read()[1].get("kind", "flat") == "flat"
    index.replace_many({book: rows[book] for book in range(3, 9)})  # 3 and 4 again, 5-8 new
    compressed, meta = index._read()
    assert meta["kind"] == "ivfpq"
    assert rows_of(compressed) == {book: 100 for book in range(1, 9)}
    index.remove(2)
    assert 2 not in rows_of(index._read()[0])


def test_a_search_reads_the_index_mapped_and_finds_what_a_whole_read_finds(tmp_path, monkeypatch):
    monkeypatch.setattr(vectors, "EXACT_LIMIT", 500)
    rng = np.random.default_rng(2)
    rows = {book: rng.standard_normal((100, 64)).astype(np.float32) for book in range(1, 9)}
    index = shelf(tmp_path, rows)
    for books in (range(1, 3), range(3, 9)):  # exact, then compressed
        index.replace_many({book: rows[book] for book in books})
        whole = index._read()[0]
        query = rows[books[0]][7]
        scores, ids = whole.search(query.reshape(1, -1), 20)
        mask = (1 << ROW_BITS) - 1
        assert index.search(query, 20) == [(int(i) >> ROW_BITS, int(i) & mask, float(s))
                                          for s, i in zip(scores[0], ids[0]) if i >= 0]


def test_a_shelf_written_with_an_inverted_id_map_is_written_anew_without_it(tmp_path, monkeypatch):
    import faiss

    monkeypatch.setattr(vectors, "EXACT_LIMIT", 500)
    rng = np.random.default_rng(3)
    rows = {book: rng.standard_normal((100, 64)).astype(np.float32) for book in range(1, 9)}
    for books in (range(1, 3), range(1, 9)):  # exact, then compressed
        folder = tmp_path / str(len(books))
        index = shelf(folder, rows)
        index.replace_many({book: rows[book] for book in books})
        plain = index._read()[0]
        assert type(plain) is faiss.IndexIDMap
        inner = faiss.clone_index(plain.index)  # the same trained index, its ids kept as before
        inner.reset()
        old = faiss.IndexIDMap2(inner)
        for book in books:
            old.add_with_ids(rows[book], vectors._ids(book, 100))
        faiss.write_index(old, str(index.path))
        expected = [(int(i) >> ROW_BITS, int(i) & ((1 << ROW_BITS) - 1), float(s))
                    for s, i in zip(*(a[0] for a in old.search(rows[2][5:6], 20)))]

        found = shelf(folder, rows).search(rows[2][5], 20)  # a new process reads it
        assert found == expected
        assert type(index._read()[0]) is faiss.IndexIDMap
        assert rows_of(index._read()[0]) == {book: 100 for book in books}


def test_a_books_rows_are_read_as_written_and_not_kept_mapped(tmp_path):
    written = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    vectors.write_book(tmp_path, "english", written, [0, 0, 1, 2])
    rows, keys = vectors.read_book(tmp_path, "english")
    assert rows.shape == (4, 3) and len(rows) == 4 and keys.tolist() == [0, 0, 1, 2]
    assert np.array_equal(rows[[1, 3]], written[[1, 3]].astype(np.float16))
    assert np.array_equal(np.asarray(rows, dtype=np.float32), written.astype(np.float16))
    mapped = Path("/proc/self/maps").read_text()
    assert str(tmp_path / "english.npy") not in mapped  # read, then let go


def test_rows_whose_file_was_written_anew_with_other_rows_give_no_cosine(tmp_path):
    vectors.write_book(tmp_path, "english", np.ones((4, 3)), [0, 1, 2, 3])
    rows, _ = vectors.read_book(tmp_path, "english")
    vectors.write_book(tmp_path, "english", np.ones((6, 3)), [0, 1, 2, 3, 4, 5])
    assert not np.asarray(rows).any() and rows[[0]].shape == (1, 3)
    (tmp_path / "english.npy").unlink()
    assert not np.asarray(rows).any()
