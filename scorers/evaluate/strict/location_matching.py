"""``location_matching``: a fine-grained place named earns its credit, else a
coarse-grained one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import names
from scorers.evaluate.strict.answer_names import CAPITALISED, name_of, unknown_name
from scorers.evaluate.strict.commit import drop_excluded
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.key_forms import adjective_of
from scorers.evaluate.strict.kwargs import check_kwargs, fail, strings
from scorers.evaluate.strict.phrase_answer import (
    answer_line,
    has_any,
    phrase_answer,
    settled_elsewhere,
    shown,
)
from scorers.evaluate.strict.phrases import Answer
from scorers.evaluate.strict.reading import Reading
from scorers.evaluate.strict.scores import EXTRACTED_CAP, WRONG


def location_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "location_matching"
    check_kwargs(name, kwargs)
    fine = strings(name, "location_fine_grained", kwargs["location_fine_grained"])
    coarse = strings(name, "location_coarse_grained", kwargs.get("location_coarse_grained", []))
    # A country's code in lower case ("usa") also names it by its English name.
    fine = [*fine, *(n for c in fine if (n := names.code_name(c)))]
    coarse = [*coarse, *(n for c in coarse if (n := names.code_name(c)))]
    if not fine and not coarse:
        raise fail(name, "no non-empty location candidate")
    fine_score = kwargs.get("fine_grained_score", 1.0)
    coarse_score = kwargs.get("coarse_grained_score", 0.5)
    for label, value in (
        ("fine_grained_score", fine_score),
        ("coarse_grained_score", coarse_score),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(name, f"{label} must be a number, got {json_shown(value)}")
    named = has_any([*fine, *coarse])
    answer, doubted = phrase_answer(reading, named)
    uncertain = "a correction follows the final answer but names no candidate" if doubted else None
    if (
        uncertain is None
        and named(answer)
        and (line := answer_line(reading)) is not None
        and not named(Answer(line))
    ):
        # the candidates named only on the way to the line it ends on (as for key items)
        uncertain = f"ends on '{shown(line)}' without a candidate, named above it"
    if any(answer.contains(c) for c in fine):
        rival = None if uncertain else settled_elsewhere(reading, has_any(fine), fine)
        if rival is not None:
            uncertain = f"names the place outside what it commits to, which names '{rival}'"
        return Outcome(
            fine_score,
            answer.folded[:EXTRACTED_CAP],
            note="fine-grained match",
            uncertain=uncertain,
        )
    if uncertain is None and (adjective := adjective_of(answer, [fine])) is not None:
        # "a Southeast Asian country" for Southeast Asia, as for key items
        return Outcome(
            fine_score,
            answer.folded[:EXTRACTED_CAP],
            note=f"'{adjective}' is the adjective of a candidate",
        )
    coarse_named = any(answer.contains(c) for c in coarse)
    if uncertain is None:
        # With the city right, an unknown name beside it may be the landmark's
        # own other name ("Karlův most, Prague" for Charles Bridge).
        unknown = unknown_name(answer, fine, [*fine, *coarse], places_only=not coarse_named)
        if unknown is not None:
            uncertain = f"names '{unknown}', neither a candidate nor a known other name of one"
    if coarse_named:
        return Outcome(
            coarse_score,
            answer.folded[:EXTRACTED_CAP],
            note="coarse-grained match",
            uncertain=uncertain,
        )
    if uncertain is None and (inside := _city_inside(answer, coarse)) is not None:
        # "Kathmandu" for Nuwakot, Nepal: the wrong town, in the right country the
        # answer does not name; labellers differ on whether that earns the coarse credit.
        uncertain = f"names '{inside[0]}', a city in '{inside[1]}' but not a candidate"
    return Outcome(
        WRONG, answer.folded[:EXTRACTED_CAP], note="no candidate named", uncertain=uncertain
    )


# A word in any script; a name is a run of them capitalised ("Копенгаген", "Nowy Jork"),
# beside CAPITALISED's Latin names ("Isle of Man").
_WORD = re.compile(r"[^\W\d_]+")


def _capitalised_runs(text: str) -> list[str]:
    runs: list[list[str]] = []
    end = -1
    for m in _WORD.finditer(text):
        if not m.group()[0].isupper():
            end = -1
            continue
        if runs and end >= 0 and text[end : m.start()] in (" ", "-"):
            runs[-1].append(text[end : m.end()])
        else:
            runs.append([m.group()])
        end = m.end()
    return ["".join(r) for r in runs]


def _city_inside(answer: Answer, coarse: list[str]) -> tuple[str, str] | None:
    """A city the answer names (GeoNames, in any script) that lies in a coarse
    candidate, a country or a US state, which the answer does not name itself."""
    where: dict[tuple[str, str], str] = {}
    for candidate in coarse:
        code, _ = names.place_of(candidate)
        if code is not None:
            where[(code, "")] = candidate
        elif (state := names.us_state(fold_phrase(candidate))) is not None:
            where[("US", state)] = candidate
    if not where:
        return None
    text = drop_excluded(answer.raw)
    for written in [*(m.group() for m in CAPITALISED.finditer(text)), *_capitalised_runs(text)]:
        name = name_of(written)
        index = names.city(name) if name else None
        if index is None:
            continue
        city = names.city_info(index)
        found = where.get((city.country, "")) or where.get((city.country, city.admin1))
        if found is not None:
            return written, found
    return None
