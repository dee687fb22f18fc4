"""What the SVoT datasets are made of, as data: splits, sequence lengths, Table 5, seeds.

Everything here is a constant of the paper (SVoT, §4, A.5–A.6, Table 5) or a
pure function of the export's arguments, so the rest of :mod:`svot.dataset`
never hard-codes a number.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

import numpy as np

from svot.domains import SPECS, get_spec
from svot.errors import ConfigError

SPLIT_NAMES = ("train", "val", "test_id", "test_ood")


@dataclass(frozen=True)
class SplitDef:
    """One split: ``maps`` maps × ``sequences`` action sequences, from the ID or OOD generator."""

    name: str
    maps: int
    sequences: int
    distribution: str  # "id" or "ood": generator parameters and sequence lengths

    @property
    def instances(self) -> int:
        return self.maps * self.sequences


# A.6: train 100 maps × 5 sequences; val 30 × 2; ID and OOD tests 60 × 2 each.
SPLITS: dict[str, SplitDef] = {
    "train": SplitDef("train", 100, 5, "id"),
    "val": SplitDef("val", 30, 2, "id"),
    "test_id": SplitDef("test_id", 60, 2, "id"),
    "test_ood": SplitDef("test_ood", 60, 2, "ood"),
}

# Table 5, "Action" rows: sequence length ranges (inclusive), ID → OOD, per grid size.
LENGTHS: dict[int, dict[str, tuple[int, int]]] = {
    4: {"id": (3, 7), "ood": (8, 10)},
    5: {"id": (4, 8), "ood": (9, 11)},
    6: {"id": (5, 10), "ood": (11, 13)},
    7: {"id": (6, 11), "ood": (12, 14)},
}

# Table 5: training / validation / ID test / OOD test sizes, counted as predictions
# (one state and one visualization prediction per action step, one goal
# prediction per instance) from 500 / 60 / 120 / 120 instances. Each domain
# states its rows (DomainSpec.table5_predictions); this is the built-in domains' table.
TABLE5_PREDICTIONS: dict[tuple[str, int], dict[str, int]] = {
    (name, size): dict(row) for name, spec in SPECS.items() for size, row in spec.table5_predictions.items()
}

TABLE5_SIZES: dict[str, tuple[int, ...]] = {}
for _domain, _size in TABLE5_PREDICTIONS:
    TABLE5_SIZES.setdefault(_domain, ())
    TABLE5_SIZES[_domain] += (_size,)
TABLE5_DOMAINS = tuple(TABLE5_SIZES)

# How random sequences are drawn (see svot.dataset.instance.random_sequence).
P_APPLICABLE = 0.75  # per step: an applicable action with this probability, else any action


# How much longer, on average, a random sequence's drawn length must be than the kept one,
# per (domain, size, distribution), for domains whose sequences stop early
# (DomainSpec.early_stop_allowance); the other domains never stop early: 0.
EARLY_STOP_ALLOWANCE: dict[tuple[str, int, str], float] = {
    (name, size, dist): value for name, spec in SPECS.items() for (size, dist), value in spec.early_stop_allowance.items()
}


def early_stop_allowance(domain: str, size: int, distribution: str) -> float:
    """The drawn-length allowance for sequences that stop early (0.0 where none stop early)."""
    return float(get_spec(domain).early_stop_allowance.get((int(size), distribution), 0.0))


def check_split(name: str) -> str:
    if name not in SPLITS:
        raise ConfigError(f"unknown split {name!r}; choose from {', '.join(SPLIT_NAMES)}")
    return name


def lengths_for(size: int, distribution: str) -> tuple[int, int]:
    """Table 5's action-sequence length range; sizes outside Table 5 borrow the nearest row."""
    if distribution not in ("id", "ood"):
        raise ConfigError(f"unknown distribution {distribution!r}; choose 'id' or 'ood'")
    nearest = min(LENGTHS, key=lambda s: (abs(s - size), -s))
    return LENGTHS[nearest][distribution]


def maps_for(split: str, maps_per_split: dict[str, int] | None = None) -> int:
    if maps_per_split and split in maps_per_split:
        return int(maps_per_split[split])
    return SPLITS[split].maps


def split_entropy(seed: int, domain: str, size: int, split: str) -> int:
    """128 bits of entropy for one (seed, domain, size, split), from sha256 (never ``hash()``)."""
    text = f"svot.dataset/v1/{int(seed)}/{domain}/{int(size)}/{split}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


# spawn-key namespaces under a split's SeedSequence
KEY_MAP = 0  # (KEY_MAP, map_index, attempt): the map generator
KEY_SEQ = 1  # (KEY_SEQ, map_index): action sequences and choice sets of that map
KEY_LETTERS = 2  # (KEY_LETTERS,): the balanced correct-letter permutation of the split
KEY_LENGTHS = 3  # (KEY_LENGTHS,): the balanced sequence-length permutation of the split


def rng_for(seed: int, domain: str, size: int, split: str, *key: int) -> np.random.Generator:
    """A Generator for one purpose in one split: ``SeedSequence(entropy, spawn_key=key)``."""
    ss = np.random.SeedSequence(split_entropy(seed, domain, size, split), spawn_key=tuple(int(k) for k in key))
    return np.random.default_rng(ss)


def correct_letters(seed: int, domain: str, size: int, split: str, n: int) -> list[int]:
    """Correct-choice indices 0..3 for the split's ``n`` instances: each letter ⌊n/4⌋ or ⌈n/4⌉ times,
    in an order shuffled by the split's seed (instance ``i`` gets entry ``i``)."""
    letters = np.array([i % 4 for i in range(n)], dtype=np.int64)
    rng_for(seed, domain, size, split, KEY_LETTERS).shuffle(letters)
    return [int(x) for x in letters]


def implied_mean_length(domain: str, size: int, split: str) -> float | None:
    """The mean action-sequence length Table 5's prediction count implies for one split.

    Table 5 counts ``instances + 2 * steps`` predictions (A.6), so the mean length
    is ``(predictions - instances) / (2 * instances)``: e.g. a 5x5 train split counting 7146,
    ``(7146 - 500) / 1000 = 6.646``. None for a (domain, size) Table 5 does not list.
    """
    row = get_spec(domain).table5_predictions.get(int(size))
    if row is None or split not in row:
        return None
    n = SPLITS[split].instances
    return (row[split] - n) / (2 * n)


def length_probs(lo: int, hi: int, mean: float | None) -> np.ndarray:
    """Probabilities of the lengths ``lo..hi``: the maximum-entropy law with the given mean.

    The paper gives only the range (Table 5) and, through its counts, the mean;
    the distribution on ``lo..hi`` with the most entropy under that mean is the
    truncated geometric ``p(L) ∝ exp(θ L)`` (uniform when θ = 0, i.e. when the
    mean is the range's midpoint; ``mean=None`` gives the uniform law). θ is
    found by bisection; a mean outside ``(lo, hi)`` is clipped just inside.
    """
    return _length_probs(int(lo), int(hi), None if mean is None else float(mean)).copy()


@functools.lru_cache(maxsize=1024)
def _length_probs(lo: int, hi: int, mean: float | None) -> np.ndarray:
    # every map of a split asks for the same law; 200 bisection steps each time cost more than the map
    lengths = np.arange(lo, hi + 1, dtype=np.float64)
    if mean is None or hi == lo:
        return np.full(len(lengths), 1.0 / len(lengths))
    target = min(max(float(mean), lo + 0.01), hi - 0.01)

    def probs(theta: float) -> np.ndarray:
        w = np.exp(theta * (lengths - lengths.mean()))
        return w / w.sum()

    a, b = -20.0, 20.0
    for _ in range(200):
        mid = (a + b) / 2
        if float(probs(mid) @ lengths) < target:
            a = mid
        else:
            b = mid
    return probs((a + b) / 2)


def predictions(instances: int, steps: int) -> int:
    """Table 5's unit: one state and one visualization prediction per step, one goal prediction per instance."""
    return instances + 2 * steps
