"""Make the int8 OCR models once (about a minute), and say which OCR models are in use."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from indexing.contract import StageContext
from indexing.ocr import quantize
from librarian.config import setting


class Command(BaseCommand):
    help = (
        "Quantize rapidocr's PP-OCRv6 small models to int8 into the OCR model directory if "
        "needed (once per machine and version), and print which OCR models the ocr stage uses."
    )

    def handle(self, **options):
        config = StageContext.from_settings().ocr
        if config.engine != "rapidocr":
            self.stdout.write(f"OCR engine: {config.engine} (nothing to prepare).")
            return
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
