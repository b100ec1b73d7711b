"""Reading the final answer out of a response."""

from __future__ import annotations

import pytest

from scorers.evaluate.mathmatch.extract import boxed_contents, extract_answer


def test_boxed_nested_braces() -> None:
    assert boxed_contents(r"so \boxed{\frac{1}{\sqrt{2}}} done") == [r"\frac{1}{\sqrt{2}}"]


def test_unclosed_box_takes_the_rest() -> None:
    assert boxed_contents(r"\boxed{\frac{1}{2}") == [r"\frac{1}{2}"]


def test_last_box_wins_for_one_answer() -> None:
    assert extract_answer(r"first \boxed{3}, finally \boxed{4}") == ("4", "boxed")


def test_last_k_boxes_for_k_answers() -> None:
    text = r"side \boxed{12}; (1) \boxed{5} (2) \boxed{7}"
    assert extract_answer(text, boxes=2) == ("5; 7", "boxed")


def test_fewer_boxes_than_answers_takes_all() -> None:
    assert extract_answer(r"\boxed{5}", boxes=3) == ("5", "boxed")


def test_box_beats_marker() -> None:
    assert extract_answer("The answer is 3.\n" + r"\boxed{4}")[0] == "4"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("work\nFinal Answer: 12 cm^2\n\nThanks", "12 cm^2"),
        ("work\nFINAL ANSWER 7", "7"),
        ("work\nanswer: 7", "7"),
        ("We get x. The answer is 9.", "9."),
        ("答案：5", "5"),
        ("解：3×4×10=120\n答：这个长方体的体积是120立方厘米。", "120立方厘米。"),
        # The paragraph after the marker, without closing lines that state no value.
        ("Answer:\n(1) 3\n(2) 4\nHope this helps.", "(1) 3\n(2) 4"),
        ("Answer: 3\nlater text in the same paragraph", "3"),
    ],
)
def test_markers_case_insensitive(text: str, answer: str) -> None:
    assert extract_answer(text) == (answer, "marker")


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("We compute.\nSo the area of the triangle is 12.", "12."),
        ("Computing.\nB. f'(x_0) > g'(x_0)", "B. f'(x_0) > g'(x_0)"),
        ("long reasoning\n42", "42"),
        ("Some work. Then more work. Thus x = 5", "x = 5"),
        ("Some work.\nHence the length of the side AB equals 7 cm", "7 cm"),
    ],
)
def test_last_line_fallback(text: str, answer: str) -> None:
    assert extract_answer(text) == (answer, "last line")


def test_last_lines_for_several_blanks() -> None:
    assert extract_answer("reasoning\n3\n4", lines=2) == ("3\n4", "last line")


def test_text_after_think_block_is_used() -> None:
    assert extract_answer(r"<think>maybe \boxed{1}</think>The answer is 2")[0] == "2"


def test_calculator_annotations_are_no_text_of_the_answer() -> None:
    # GSM8K's "<<a*b=c>>" is a calculator's trace before the value it returned
    assert extract_answer("Each van takes 8*6=<<8*6=48>>48 chairs") == ("48", "last line")


def test_an_answer_stopped_mid_expression_is_none() -> None:
    assert extract_answer("She buys 3 pens.\nThe cost is 3 × 2 + ") == ("", "last line")
