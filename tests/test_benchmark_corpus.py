"""The realistic benchmark corpus keeps the shape it promises (benchmarks/corpus.py)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import corpus  # noqa: E402

from scorers.io.loading import load_annotations, load_predictions  # noqa: E402
from scorers.io.pairing import pair  # noqa: E402


def test_realistic_corpus_shape(tmp_path: Path) -> None:
    n = 1000
    a_path, p_path = corpus.generate(tmp_path, n, "realistic")
    annotations = orjson.loads(a_path.read_bytes())
    predictions = orjson.loads(p_path.read_bytes())
    # An even mix of the five ROME evaluators.
    assert Counter(a["evaluator"] for a in annotations) == dict.fromkeys(
        corpus.ROME_EVALUATORS, n // 5
    )
    # ~430-byte annotations and ~1.3 KB predictions as written (indented JSON).
    assert 380 < a_path.stat().st_size / n < 500
    assert 1150 < p_path.stat().st_size / n < 1450
    reasons = [p["reason"] for p in predictions if "reason" in p]
    assert len(reasons) == n * 3 // 4  # absent on a quarter
    assert all(r.startswith("<think>") and r.endswith("</think>") for r in reasons)
    assert 450 < sum(map(len, reasons)) / len(reasons) < 620
    assert 400 < sum(len(p["answer"]) for p in predictions) / n < 540
    assert all("Finalize your output with" in p["question"] for p in predictions)
    assert all(
        set(p["usage"]) == {"prompt_tokens", "completion_tokens", "total_tokens"}
        for p in predictions
    )
    # Deterministic, and every item pairs and loads.
    assert corpus.realistic(50) == corpus.realistic(50)
    loaded, _ = load_annotations(str(a_path))
    records, _ = load_predictions(str(p_path))
    assert len(pair(loaded, records, "strict").pairs) == n
