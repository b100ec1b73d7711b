"""The behaviour flags on reasoning in Korean: words are spaced but endings and particles attach
to a stem, so a Korean cue is read from a word start to any ending ("확실하지 않" in "확실하지
않습니다"), an option letter keeps its particle ("C입니다"), and a look-up narrated as done
("검색해보니 …") is a claim unless its sentence ends in a modal ending. Cases worded unlike the
labelled sets."""

from __future__ import annotations

import pytest
from flags_fixtures import assert_spans_exact, kinds, record, run

from scorers.flags.behaviour import cues

WEB = "claims_web_search"
HEDGE = "hedged_reasoning_certain_answer"
CONTRA = "answer_contradicts_reasoning"


def _bridge(reason: str, answer: str = "1763년") -> dict:
    return record(reason, answer, "math_matching", {"answer": "1763"})


def test_a_korean_cue_is_a_stem_read_before_any_ending_but_from_a_word_start() -> None:
    strong, leans = cues.pattern("hedge_strong"), cues.pattern("hedge_leans")
    hit = strong.search("이 합계가 맞는지 확실하지 않습니다.")
    assert hit is not None and hit.group(0) == "확실하지 않"
    assert strong.search("둘레가 30미터일 수도 있다.") is not None
    assert leans.search("아마도 두 번째 다리일 것이다.") is not None
    assert leans.search("파나마 운하는 길다.") is None  # "아마" inside a word is no cue
    assert strong.search("모르핀은 진통제이다.") is None  # nor is a stem of another word
    assert strong.search("The bridge is 30 m long.") is None


@pytest.mark.parametrize(
    "reason",
    [
        "위키백과를 검색해보니, 이 돌다리는 1763년에 놓였다고 되어 있습니다.",
        "연도가 헷갈려서 구글링해보면 건립 연도는 1763년입니다.",
        "다리 이름을 생각해 봅니다.\n\n찾아보니 1763년에 완공되었다.",
    ],
)
def test_a_look_up_narrated_as_done_with_a_finding_is_a_web_claim(reason: str) -> None:
    rec = _bridge(reason)
    found = [f for f in run(rec) if f["kind"] == WEB]
    assert found, reason
    assert_spans_exact(rec, found)


@pytest.mark.parametrize(
    "reason",
    [
        "검색해보면 1763년이라고 나올 수도 있습니다. 비문에 따르면 1763년입니다.",  # could
        "인터넷을 검색할 수 없으니 비문의 연도를 따르면 1763년입니다.",  # cannot search
        "검색해보면 좋겠지만 지금은 추론하겠습니다. 비문의 연도는 1763년입니다.",  # would be good
        "예전 기억을 떠올려보면, 이 다리는 1763년에 놓였습니다.",  # memory
        "기출문제를 검색해보면 비슷한 다리가 나온 것 같습니다. 답은 1763년입니다.",  # seems
    ],
)
def test_a_look_up_supposed_denied_or_remembered_is_no_claim(reason: str) -> None:
    assert WEB not in kinds(_bridge(reason)), reason


def test_a_doubt_left_at_the_end_of_korean_reasoning_hedges() -> None:
    def hedged(reason: str, answer: str = "21") -> bool:
        return HEDGE in kinds(record(reason, answer, kwargs={"value_to_match": 21}))

    adds = "기둥 높이는 12미터, 난간은 9미터이므로 12 + 9 = 21미터입니다."
    assert hedged(adds + " 하지만 난간 높이를 제대로 읽었는지 확실하지 않습니다.")
    assert hedged(adds + " 그래도 19미터일 수도 있습니다. 21로 하겠습니다.")
    # the answer keeps the doubt ("아마"): no hedge; a settling word after the doubt settles it
    assert not hedged(adds + " 하지만 확실하지 않습니다.", "아마 21미터입니다.")
    assert not hedged("19미터일 수도 있습니다. 하지만 도면에 분명히 21미터라고 적혀 있습니다.")


def test_an_option_letter_keeps_its_korean_particle() -> None:
    reason = "A는 너무 짧고 B는 강이 아닙니다. 따라서 정답은 C입니다."
    rec = record(reason, "정답: A", "choices_matching", {"label": "C"})
    assert CONTRA in kinds(rec)
    assert CONTRA not in kinds(record(reason, "정답: C", "choices_matching", {"label": "C"}))
