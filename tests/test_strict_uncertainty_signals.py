"""benchmarks/strict_uncertainty_signals.py: features of an answer, the counts per signal and
the leave-one-batch-out choice, on rows made up here (never a blind item's text)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    path = ROOT / "benchmarks" / "strict_uncertainty_signals.py"
    spec = importlib.util.spec_from_file_location("strict_uncertainty_signals", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


S = _script()


def _row(batch: str, score: float, label: float, length: int, **extra: Any) -> dict[str, Any]:
    row = {
        "batch": batch,
        "score": score,
        "label": label,
        "doubt": False,
        "reference": 1.0,
        "length": length,
        "marker": False,
        "correction": False,
        "exclusion": False,
        "candidates": 1,
        "not_last": False,
        "other_name": False,
        "marked_answers": 0,
        "free_text": True,
        "cut_off": False,
        "script_differs": False,
        "near_spelling": False,
        "partial_key": False,
        "source": f"writer of {batch}",
        "why": None,
    }
    row.update(extra)
    return row


def test_only_dev_items_are_loaded() -> None:
    for path in S.batches():
        assert {c["split"] for c in S.dev_items(path)} == {"dev"}


def test_features_of_a_long_answer_the_reference_credits() -> None:
    answer = (
        "Both a kettle and a toaster sit on the counter. Steam rises from the first, which "
        "points at A for boiling water. Then again the toaster is warmer to the touch, and "
        "many kitchens use it first thing in the morning, so B could be what was meant, though "
        "I lean towards it only slightly after weighing everything described in the scene."
    )
    case = {"evaluator": "key_items_matching", "kwargs": {"key_items": [["kettle"]]}}
    got = S.features({**case, "answer": answer})
    assert got["length"] == len(answer) and not got["marker"]
    assert got["reference"] == 1.0  # the reference finds the key anywhere
    assert got["free_text"] and not got["other_name"]
    choice = S.features(
        {"evaluator": "choices_matching", "kwargs": {"label": "A"}, "answer": answer}
    )
    assert not choice["free_text"] and choice["candidates"] >= 1  # "B" in the last sentence


def test_counts_split_misses_from_right_verdicts() -> None:
    rows = [_row("bx", 0, 1, 400), _row("bx", 0, 0, 400), _row("bx", 1, 1, 50)]
    caught, wrong, marked, right = S.counts(rows, lambda r: r["length"] > 250)
    assert (caught, wrong, marked, right) == (1, 1, 1, 2)
    assert S.figures(rows, lambda r: r["length"] > 250) == (2, 1, 1, 3)


def test_a_signal_is_kept_only_where_it_gains_within_the_budget() -> None:
    # Seven long misses among many short right verdicts: kept, at the longest
    # threshold that still catches them.
    train = [_row("by", 0, 1, 600, reference=1.0) for _ in range(7)]
    train += [_row("by", 1, 1, 40) for _ in range(60)]
    assert S.choose(train, "reference credits more, long") == (500, "")
    # The same misses in a batch of ten go past 15 % uncertain.
    small = [_row("bz", 0, 1, 600) for _ in range(3)] + [_row("bz", 1, 1, 40) for _ in range(7)]
    assert S.choose(small, "reference credits more, long") == (None, "budget")
    # A signal marking more than three right verdicts a miss is no gain.
    loose = [_row("bw", 0, 1, 600)] + [_row("bw", 0, 0, 600)] * 4 + [_row("bw", 1, 1, 40)] * 40
    assert S.choose(loose, "reference credits more, long") == (None, "no gain")


def test_the_report_names_every_signal_and_batch() -> None:
    rows = [_row(b, 0, 1, 600) for b in ("bx", "by")] + [
        _row(b, 1, 1, 40) for b in ("bx", "by") for _ in range(10)
    ]
    rows[0]["doubt"], rows[0]["why"] = True, "names 'Ghent', neither a key item nor ..."
    lines = S.report(rows)
    text = "\n".join(lines)
    assert sum(name in text for name in S.SIGNALS) == len(S.SIGNALS)
    assert any(line.split()[:1] == ["bx"] for line in lines)
    assert any(line.split()[:1] == ["pooled"] for line in lines)
    # Reasons are counted by kind, their quoted names left out.
    assert "1 / 0   (1)  names 'X', neither a key item nor ..." in text


def test_held_out_batches_are_never_read() -> None:
    assert all(path.name not in S.HELD_OUT for path in S.batches())


def _features(evaluator: str, kwargs: dict[str, Any], answer: str) -> dict[str, Any]:
    got: dict[str, Any] = S.features({"evaluator": evaluator, "kwargs": kwargs, "answer": answer})
    return got


def test_an_answer_stopped_mid_sentence_is_cut_off() -> None:
    kwargs = {"key_items": [["larch"]]}
    stopped = "The needles turn gold in autumn and drop, which is unusual for a conifer. " * 3
    assert _features("key_items_matching", kwargs, stopped + "So the tree is most likely the")[
        "cut_off"
    ]
    assert not _features("key_items_matching", kwargs, stopped + "So it is a larch.")["cut_off"]
    assert not _features("key_items_matching", kwargs, "a larch, most likely")["cut_off"]


def test_a_key_in_another_script_than_the_answer() -> None:
    kwargs = {"key_items": [["静岡"]]}
    assert _features("key_items_matching", kwargs, "Shizuoka prefecture")["script_differs"]
    assert not _features("key_items_matching", kwargs, "静岡県です")["script_differs"]


def test_a_word_spelled_almost_as_the_key() -> None:
    kwargs = {"key_items": [["Rachmaninov"]]}
    assert _features("key_items_matching", kwargs, "Rachmaninoff wrote it.")["near_spelling"]
    assert not _features("key_items_matching", kwargs, "Tolstoy wrote it.")["near_spelling"]


def test_one_sentence_naming_part_of_a_key_item() -> None:
    kwargs = {"key_items": [["Royal Botanic Gardens, Kew"]]}
    part = _features("key_items_matching", kwargs, "It grew at the Botanic Gardens in London.")
    assert part["partial_key"]
    whole = "The Royal Botanic Gardens, Kew."
    assert not _features("key_items_matching", kwargs, whole)["partial_key"]
    # Two sentences share words with a key by chance as often as not.
    two = "It grew at the Botanic Gardens. Later it moved to a private estate."
    assert not _features("key_items_matching", kwargs, two)["partial_key"]
    # A date shares its year or month with another date: no part of it.
    date = {"key_items": [["4 March 1913"]]}
    assert not _features("key_items_matching", date, "In March 1911.")["partial_key"]
