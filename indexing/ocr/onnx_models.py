"""PaddleOCR model directories built from the ONNX models the rapidocr wheel ships.

PaddleOCR runs on onnxruntime over a directory holding ``inference.onnx`` and
``inference.yml``. Building such directories from rapidocr's PP-OCRv6 small
models gives the PaddleOCR engine a working model on a machine with no GPU and
no network: used by the tests, and by CPU-only deployments that want the
PaddleOCR code path. The yml mirrors paddlex's own template for PP-OCR models.
"""

import shutil
from pathlib import Path

import yaml

DET_MODEL_NAME = "PP-OCRv6_small_det"
REC_MODEL_NAME = "PP-OCRv6_small_rec"


def rapidocr_models() -> Path:
    import rapidocr

    return Path(rapidocr.__file__).resolve().parent / "models"


def det_config() -> dict:
    return {
        "Global": {"model_name": DET_MODEL_NAME},
        "PreProcess": {"transform_ops": [
            {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
            {"DetLabelEncode": None},
            {"DetResizeForTest": {"resize_long": 960}},
            # rapidocr's normalisation for these weights, and its dilation.
            {"NormalizeImage": {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5],
                                "scale": "1./255.", "order": "hwc"}},
            {"ToCHWImage": None},
            {"KeepKeys": {"keep_keys": ["image", "shape", "polys", "ignore_tags"]}},
        ]},
        "PostProcess": {"name": "DBPostProcess", "thresh": 0.3, "box_thresh": 0.5,
                        "max_candidates": 1000, "unclip_ratio": 1.6, "use_dilation": True},
    }


def rec_config(characters: list[str]) -> dict:
    """Return the recognition yml; paddlex adds the CTC blank and the final space itself."""
    return {
        "Global": {"model_name": REC_MODEL_NAME},
        "PreProcess": {"transform_ops": [
            {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
            {"MultiLabelEncode": {"gtc_encode": "NRTRLabelEncode"}},
            {"RecResizeImg": {"image_shape": [3, 48, 320]}},
            {"KeepKeys": {"keep_keys": ["image", "label_ctc", "label_gtc", "length",
                                        "valid_ratio"]}},
        ]},
        "PostProcess": {"name": "CTCLabelDecode", "character_dict": characters},
    }


def dictionary(model: Path) -> list[str]:
    """Return the recognition model's characters, kept in its ONNX metadata."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    # split("\\n"), not splitlines(): the dictionary holds other line-breaking characters.
    characters = session.get_modelmeta().custom_metadata_map["character"].split("\n")
    if characters and characters[-1] == "":
        characters.pop()
    classes = session.get_outputs()[0].shape[-1]
    if isinstance(classes, int) and classes != len(characters) + 2:
        raise ValueError(f"{len(characters)} characters do not fit {classes} model classes")
    return characters


def build(root: Path) -> tuple[Path, Path]:
    """Write the detection and recognition directories under root; return their paths."""
    source = rapidocr_models()
    det_dir, rec_dir = root / DET_MODEL_NAME, root / REC_MODEL_NAME
    for directory, model in ((det_dir, "PP-OCRv6_det_small.onnx"),
                             (rec_dir, "PP-OCRv6_rec_small.onnx")):
        directory.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / model, directory / "inference.onnx")
    for directory, config in ((det_dir, det_config()),
                              (rec_dir, rec_config(dictionary(source / "PP-OCRv6_rec_small.onnx")))):
        with open(directory / "inference.yml", "w", encoding="utf-8") as handle:
            yaml.safe_dump(config, handle, allow_unicode=True, sort_keys=False)
    return det_dir, rec_dir
