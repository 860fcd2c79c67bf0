"""Assemble and verify the configured language model, and say which one is in use."""

from django.core.management.base import BaseCommand, CommandError

import llm
from llm import embedded
from llm.runtime import DISABLED, EMBEDDED


class Command(BaseCommand):
    help = (
        "Assemble the embedded model into the data directory if needed (once), verify it, "
        "and print which language model the verify stage and chat will use."
    )

    def add_arguments(self, parser):
        parser.add_argument("--load", action="store_true",
                            help="Also load the model through llama-cpp to prove it works.")
        parser.add_argument("--strict", action="store_true",
                            help="Fail when no model can be provided (default: say so, exit 0).")

    def handle(self, load, strict, **options):
        config = llm.LlmConfig.from_settings()
        if config.url:
            return self._served(config, load, strict)
        if config.model.lower() == DISABLED:
            self.stdout.write("Language model: none (LIBRARIAN_LLM_MODEL=none); unplaced "
                              "headings go straight to review and chat shows cards only.")
            return
        try:
            path = llm.model_path(config)
        except llm.ModelUnavailable as error:
            self._without(f"Language model unavailable: {error}.", strict,
                          " Verification and chat work without it.")
            return
        source = (f"embedded Qwen2.5-Coder-1.5B-Instruct Q4_K_M, sha256 {embedded.SHA256[:12]}…"
                  if config.model == EMBEDDED else "LIBRARIAN_LLM_MODEL")
        self.stdout.write(f"Language model: {path} ({source})")
        if load:
            model = llm.load(config)
            if model is None:
                raise CommandError(f"{path} could not be loaded; see the log.")
            self.stdout.write(f"Loaded with {config.threads} thread(s), context {config.context}.")

    def _served(self, config, load, strict):
        """Say which server the model is asked of; with --load, ask it which model it serves."""
        self.stdout.write(f"Language model: served at {config.url} (LIBRARIAN_LLM_URL), "
                          f"model {config.name or 'the first it lists'}; none is loaded here.")
        if not load:
            return
        try:
            name = llm.load(config).service.model_name()
        except llm.LlmError as error:
            self._without(f"The model server did not answer: {error}.", strict,
                          " Verification and chat work without it meanwhile.")
            return
        self.stdout.write(f"The server answers and serves {name}.")

    def _without(self, message: str, strict: bool, meanwhile: str) -> None:
        """Fail with message where the model is required (strict), else say it and go on."""
        if strict:
            raise CommandError(message)
        self.stderr.write(message + meanwhile)
