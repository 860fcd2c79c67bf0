"""The system checks name a missing model and what to do, before any book is read."""

from indexing.checks import language_model, ocr_models, served_models
from retrieval.checks import embedding_models


def ids(found):
    return [message.id for message in found]


def test_the_default_setup_passes(settings):
    settings.LIBRARIAN_LLM_MODEL = "embedded"
    assert ocr_models(None) + language_model(None) + embedding_models(None) == []


def test_paddleocr_needs_both_local_model_folders(settings, tmp_path):
    settings.LIBRARIAN_OCR_ENGINE = "paddleocr"
    settings.LIBRARIAN_PADDLE_DET_MODEL_DIR = str(tmp_path)
    settings.LIBRARIAN_PADDLE_REC_MODEL_DIR = str(tmp_path / "absent")
    found = [message for message in ocr_models(None) if message.id == "indexing.E002"]
    assert len(found) == 1 and "LIBRARIAN_PADDLE_REC_MODEL_DIR" in found[0].msg
    assert "PP-OCRv5_server_rec" in found[0].hint


def test_a_missing_gguf_is_a_warning_the_app_runs_without(settings, tmp_path):
    settings.LIBRARIAN_LLM_MODEL = str(tmp_path / "missing.gguf")
    assert "indexing.W004" in ids(language_model(None))
    (tmp_path / "missing.gguf").write_bytes(b"GGUF")
    assert "indexing.W004" not in ids(language_model(None))
    settings.LIBRARIAN_LLM_MODEL = "none"
    assert language_model(None) == []


def test_an_embedding_factory_from_a_package_not_installed_is_an_error(settings):
    settings.LIBRARIAN_EMBEDDINGS = "no_such_package.models:make"
    settings.LIBRARIAN_ENGLISH_EMBEDDINGS = "none"
    [error] = embedding_models(None)
    assert error.id == "retrieval.E001" and "no_such_package.models" in error.msg


def test_a_served_model_needs_no_gguf_but_its_key_file_must_be_readable(settings, tmp_path):
    settings.LIBRARIAN_LLM_MODEL = str(tmp_path / "missing.gguf")
    settings.LIBRARIAN_LLM_URL = "http://gpu-box:8080/v1"
    assert language_model(None) == [] and served_models(None) == []
    settings.LIBRARIAN_SERVED_API_KEY_FILE = str(tmp_path / "absent")
    assert ids(served_models(None)) == ["indexing.E003"]
    (tmp_path / "absent").write_text("sk-local\n")
    assert served_models(None) == []
