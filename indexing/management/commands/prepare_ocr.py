"""Make the int8 OCR models once (about a minute), copy out the Latin recogniser, and say which
OCR models are in use."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from indexing.contract import StageContext
from indexing.ocr import latin, quantize
from librarian.config import setting


class Command(BaseCommand):
    help = (
        "Quantize rapidocr's PP-OCRv6 small models to int8 into the OCR model directory if "
        "needed (once per machine and version), copy the Latin recogniser (PP-OCRv6 tiny) out "
        "of the faster-paddle wheel, and print which OCR models the ocr stage uses."
    )

    def handle(self, **options):
        config = StageContext.from_settings().ocr
        if config.engine != "rapidocr":
            self.stdout.write(f"OCR engine: {config.engine} (nothing to prepare).")
            return
        if config.latin:
            self._latin(config)
        if config.precision != "int8":
            self.stdout.write("OCR models: rapidocr's float models as shipped "
                              "(LIBRARIAN_OCR_PRECISION=fp32).")
            return
        self.stdout.write("OCR models: making sure the int8 models exist "
                          "(the first time takes about a minute)…")
        try:
            paths = quantize.ensure(Path(config.model_dir))
        except quantize.QuantizeUnavailable as error:
            raise CommandError(f"The int8 OCR models cannot be made: {error}.") from error
        self.stdout.write(f"OCR models: {paths['det'].parent} (int8, "
                          f"recipe {quantize.RECIPE}; data dir {setting('DATA_DIR')})")

    def _latin(self, config):
        try:
            model, _ = latin.ensure(Path(config.model_dir))
        except latin.LatinUnavailable as error:
            raise CommandError(f"The Latin OCR model cannot be had: {error} "
                               "(or set LIBRARIAN_OCR_LATIN=off).") from error
        self.stdout.write(f"OCR models: Latin pages read by {model.parent} (PP-OCRv6 tiny)")
