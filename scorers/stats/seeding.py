"""Random generators that depend only on (seed, label)."""

from __future__ import annotations

import hashlib

import numpy as np


def rng_for(seed: int, label: str = "") -> np.random.Generator:
    """A generator for one named estimate.

    Deriving the stream from the label (not from a shared generator advanced in
    call order) keeps each interval reproducible on its own: adding a bucket,
    a model or a format does not move the interval of another.
    """
    digest = hashlib.blake2b(label.encode("utf-8"), digest_size=8).digest()
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, int.from_bytes(digest, "little")])
