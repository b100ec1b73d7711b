"""Property: what a store shows live equals what reopening the run replays from disk."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from store_fixtures import make_run

from scorers.adjudicate.store import ResultsStore

QIDS = ["q1", "q2", "q3", "q4"]

step = st.one_of(
    st.tuples(
        st.just("set"),
        st.sampled_from(["ana", "ben"]),
        st.sampled_from(QIDS),
        st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    ),
    st.tuples(
        st.sampled_from(["undo", "redo"]), st.sampled_from(["ana", "ben"]), st.none(), st.none()
    ),
    st.tuples(st.just("reopen"), st.sampled_from(["ana", "ben"]), st.none(), st.none()),
)


def _view(store: ResultsStore) -> list[tuple[object, ...]]:
    out = []
    for r in store.records:
        review = r["review"]
        human = review.get("human") or {}
        out.append(
            (
                r["correct"],
                human.get("annotator"),
                human.get("score"),
                bool(review.get("stale")),
                sorted((c["annotator"], c["score"]) for c in review.get("conflict", ())),
                [h["id"] for h in review.get("history", ())],
                sorted(f["kind"] for f in review["flags"] if f["kind"].startswith("override_")),
            )
        )
    return out


@settings(max_examples=30, deadline=None)
@given(steps=st.lists(step, max_size=25))
def test_live_state_equals_replayed_state(
    steps: list[tuple[str, str, str | None, float | None]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run = make_run(Path(tmp) / "run")
        stores = {who: ResultsStore.open(run, annotator=who) for who in ("ana", "ben")}
        for op, who, qid, score in steps:
            store = stores[who]
            if op == "set":
                assert qid is not None and score is not None
                store.override(qid, score, f"{who} says {score}")
            elif op == "undo":
                store.undo()
            elif op == "redo":
                store.redo()
            else:
                store.close()
                stores[who] = ResultsStore.open(run, annotator=who)
        # Each store saw its own changes live; a fresh open sees everyone's.
        for who, store in stores.items():
            fresh = ResultsStore.open(run, annotator=who)
            if all(s[1] == who or s[0] == "reopen" for s in steps):
                assert _view(store) == _view(fresh)
            # The undo stack survives reopening.
            assert fresh.can_undo() == store.can_undo()
            assert fresh.can_redo() == store.can_redo()
        # Scores stay in [0, 1] and `correct` is the override in force unless stale.
        final = ResultsStore.open(run, annotator="carol")
        for i, record in enumerate(final.records):
            human = record["review"].get("human")
            expected = (
                human["score"]
                if human and not record["review"].get("stale")
                else final.baseline_score(i)
            )
            assert record["correct"] == expected
