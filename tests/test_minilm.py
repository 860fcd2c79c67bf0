"""The int8 English encoder reads as the float all-MiniLM-L6-v2 did, from the pinned file only.

``data/minilm_reference.npz`` holds 92 passages of the Octave manual (every fifth
the embed stage cuts from its pages 41-104: ``scripts/bench_embeddings.py``), three
questions, and their vectors as the numpy float encoder (``retrieval/index/minilm.py``
before onnxruntime ran it, commit fab304e) made them.
"""

from pathlib import Path

import numpy as np
import pytest

from retrieval.index import minilm

REFERENCE = Path(__file__).parent / "data" / "minilm_reference.npz"
NEAR = 0.01
"""Two passages whose reference cosines to a question are this close may swap places."""


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    return minilm.load(tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="module")
def reference():
    with np.load(REFERENCE) as stored:
        return {name: stored[name] for name in stored.files}


def test_the_installed_model_file_is_the_pinned_one():
    assert minilm.sha256(minilm.source_model()) == minilm.SOURCE_SHA256


def test_a_model_file_with_another_hash_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(minilm, "SOURCE_SHA256", "0" * 64)
    with pytest.raises(minilm.ModelUnavailable, match="not the pinned"):
        minilm.ensure(tmp_path / "models")
    assert not (tmp_path / "models").exists()


def test_it_makes_the_int8_model_once(tmp_path, encoder):
    made = minilm.ensure(tmp_path / "models")
    stamp = made.stat().st_mtime_ns
    assert minilm.ensure(tmp_path / "models") == made and made.stat().st_mtime_ns == stamp
    assert "minilm-int8-" in made.name and not list(made.parent.glob("tmp*"))


def test_its_vectors_are_the_float_models(encoder, reference):
    passages = [str(text) for text in reference["passages"]]
    cosines = (encoder.encode(passages) * reference["passage_vectors"].astype(np.float32)).sum(1)
    assert len(cosines) == 92
    assert cosines.min() >= 0.99 and cosines.mean() >= 0.995
    questions = [str(text) for text in reference["questions"]]
    cosines = (encoder.encode(questions) * reference["question_vectors"].astype(np.float32)).sum(1)
    assert cosines.min() >= 0.99


@pytest.mark.parametrize("question", [0, 1, 2])
def test_a_question_finds_the_same_five_passages(encoder, reference, question):
    passages = [str(text) for text in reference["passages"]]
    asked = reference["question_vectors"][question].astype(np.float32)
    before = reference["passage_vectors"].astype(np.float32) @ asked
    after = encoder.encode(passages) @ encoder.encode([str(reference["questions"][question])])[0]
    top = list(np.argsort(-before)[:6])
    # Places more than NEAR apart keep their order; so the five are the same five unless
    # the fifth and sixth were a coin toss.
    for better in top:
        for worse in top:
            if before[better] > before[worse] + NEAR:
                assert after[better] > after[worse], (better, worse)
    if before[top[4]] > before[top[5]] + NEAR:
        assert set(np.argsort(-after)[:5]) == set(top[:5])


def test_no_text_is_no_rows(encoder):
    assert encoder.encode([]).shape == (0, 384)


@pytest.mark.parametrize("before, chunking", [("minilm", 9), ("minilm-int8", 12)])
def test_vectors_of_an_earlier_encoder_are_made_again(db, before, chunking):
    """The numpy encoder's ("minilm") and the int8 copy of recipe 1's ("minilm-int8")."""
    import json

    from retrieval.index import embeddings
    from retrieval.index import files, reader, writer
    from tests.test_retrieval import SAILING, SAILING_HEADINGS, make_book

    book = make_book("Sailing Handbook", SAILING, SAILING_HEADINGS)
    path = files.book_dir(book.pk) / "sections.json"
    payload = json.loads(path.read_text())
    assert payload["models"][embeddings.ENGLISH] == "minilm-int8-2"
    models = {**payload["models"], embeddings.ENGLISH: before}
    old = {**payload, "chunking": chunking, "models": models}
    path.write_text(json.dumps(old))
    reader.invalidate(book.pk)

    assert writer.outdated() == [book.pk]
    assert embeddings.ENGLISH not in reader.get(book).rows  # never compared with new questions
    summary = writer.build(book)
    english = len(reader.get(book).rows[embeddings.ENGLISH][1])
    assert english and summary.made == english


def test_the_system_check_names_a_model_file_that_is_not_the_pinned_one(monkeypatch, settings):
    from retrieval.checks import embedding_models

    settings.LIBRARIAN_ENGLISH_EMBEDDINGS = "minilm"
    assert embedding_models(None) == []
    monkeypatch.setattr(minilm, "SOURCE_SHA256", "0" * 64)
    assert [message.id for message in embedding_models(None)] == ["retrieval.E002"]
