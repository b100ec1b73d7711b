"""Option letters of other scripts (``scorers/evaluate/strict/option_letters.py``):
a label, an option head or an answer written in Arabic, Cyrillic, Greek, Hebrew or
CJK letters is read as the Latin letter of the same place. Cases written for this
file, in words unlike the blind batches'."""

from __future__ import annotations

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate import rome, strict

_CYRILLIC_Q = "Какая планета ближе всего к Солнцу?\nА) Венера\nБ) Меркурий\nВ) Марс\nГ) Земля"
_ARABIC_Q = "ما عاصمة المغرب؟\nأ) فاس\nب) الرباط\nج) مراكش\nد) طنجة"
_GREEK_Q = "Ποιο μέταλλο είναι υγρό;\nΑ. Σίδηρος\nΒ. Χαλκός\nΓ. Υδράργυρος\nΔ. Χρυσός"
_HEBREW_Q = "איזו עיר היא בירת יפן?\nא. אוסקה\nב. קיוטו\nג. טוקיו\nד. נגויה"
_LATIN_Q = "Which gas do plants take in?\nA) Oxygen\nB) Carbon dioxide\nC) Helium\nD) Argon"


@pytest.mark.parametrize(
    ("label", "answer", "question", "score"),
    [
        # the script's own letter, in the answer's usual dress
        ("Б", "Ответ: Б", _CYRILLIC_Q, 1),
        ("Б", "Ответ: В) Марс", _CYRILLIC_Q, 0),
        # the Latin letter of the same place
        ("Б", "Final answer: B", _CYRILLIC_Q, 1),
        ("ب", "الإجابة: (ب)", _ARABIC_Q, 1),
        ("ب", "الإجابة النهائية: B", _ARABIC_Q, 1),
        ("ب", "الإجابة: ج) مراكش", _ARABIC_Q, 0),
        # hamza forms and presentation forms of the same letter
        ("أ", "الإجابة: ا", _ARABIC_Q, 1),
        ("ا", "الإجابة: (أ)", _ARABIC_Q, 1),
        ("Γ", "Απάντηση: Γ", _GREEK_Q, 1),
        ("Γ", "Απάντηση: Β", _GREEK_Q, 0),
        ("ג", "התשובה: ג", _HEBREW_Q, 1),
        ("ג", "התשובה: C", _HEBREW_Q, 1),
        # an Arabic label for options the question letters in Latin: by place
        ("ب", "Final answer: B", _LATIN_Q, 1),
        ("ب", "Final answer: A", _LATIN_Q, 0),
        # a Latin label for options headed in Arabic: the answer's Arabic letter counts
        ("B", "الإجابة: ب", _ARABIC_Q, 1),
        ("C", "الإجابة: ب", _ARABIC_Q, 0),
        # several letters
        ("أ، ج", "الإجابة: أ، ج", _ARABIC_Q, 1),
        ("А,В", "Ответ: А, В", _CYRILLIC_Q, 1),
        # heavenly stems, as Chinese exams letter options
        ("乙", "答案：乙", "下列哪项正确？\n甲. 一\n乙. 二\n丙. 三\n丁. 四", 1),
    ],
)
def test_other_scripts_letters_read_by_place(
    label: str, answer: str, question: str, score: int
) -> None:
    assert strict.evaluate("choices_matching", {"label": label}, answer, question).score == score


def test_a_capital_opening_a_sentence_is_a_word() -> None:
    # "В" is the third letter, but "В итоге ..." ("In the end ...") opens a sentence
    answer = "В итоге остаётся Меркурий, вариант Б."
    outcome = strict.evaluate("choices_matching", {"label": "Б"}, answer, _CYRILLIC_Q)
    assert outcome.score == 1


def test_the_question_decides_the_arabic_order() -> None:
    # hijāʾī order (أ ب ت ث): ت is the third option, C
    question = "أي لون؟\nأ) أحمر\nب) أزرق\nت) أخضر\nث) أصفر"
    assert strict.evaluate("choices_matching", {"label": "ت"}, "الإجابة: ت", question).score == 1
    assert strict.evaluate("choices_matching", {"label": "C"}, "الإجابة: ت", question).score == 1
    # abjad order (أ ب ج د): ج is the third
    assert strict.evaluate("choices_matching", {"label": "ج"}, "Answer: C", _ARABIC_Q).score == 1


def test_options_named_by_their_text() -> None:
    assert strict.evaluate("choices_matching", {"label": "ب"}, "الرباط", _ARABIC_Q).score == 1
    assert (
        strict.evaluate("choices_matching", {"label": "Б"}, "Это Меркурий.", _CYRILLIC_Q).score == 1
    )


def test_a_list_of_choices_letters_by_place() -> None:
    # a dataset's choices printed as a list, with or without their own letters
    question = "هل الحوت من الثدييات؟\n['نعم', 'لا']"
    assert strict.evaluate("choices_matching", {"label": "أ"}, "نعم", question).score == 1
    assert strict.evaluate("choices_matching", {"label": "ب"}, "نعم", question).score == 0
    question = "Which is a prime?\n['A. 9', 'B. 7', 'C. 15']"
    assert strict.evaluate("choices_matching", {"label": "B"}, "It is 7.", question).score == 1


def test_a_label_that_is_no_option_letter_is_refused() -> None:
    for label in ("Paris", "ش", "Ж Ш"):
        with pytest.raises(EvaluatorError, match="label must be option letters"):
            strict.evaluate("choices_matching", {"label": label}, "Ответ: Б", _CYRILLIC_Q)


def test_rome_mode_reads_latin_letters_only() -> None:
    # the reference grader upper-cases the label and compares it with the Latin
    # letters it finds: an Arabic label never matches
    assert rome.evaluate("choices_matching", {"label": "ب"}, "الإجابة: ب").score == 0
    assert rome.evaluate("choices_matching", {"label": "ب"}, "Answer: B").score == 0


def test_series_of_names_are_the_questions_alternatives() -> None:
    question = "Mia, Noor, Omar and Pia queue at a kiosk. Who is served third?"
    answer = (
        "The kiosk serves people in the order they arrived. Mia arrived before anyone else.\n"
        "Noor came next, then Omar stepped away to take a call. Pia kept her place.\n\n"
        "So the third customer served is Pia."
    )
    outcome = strict.evaluate("key_items_matching", {"key_items": [["Noor"]]}, answer, question)
    assert outcome.score == 0
    assert outcome.uncertain


def test_arabic_commas_separate_list_items() -> None:
    order = ["الشتاء", "الربيع", "الصيف"]
    answer = "الترتيب: الشتاء، الربيع، الصيف"
    assert strict.evaluate("ordered_list_matching", {"order": order}, answer, "").score == 1
    assert (
        strict.evaluate(
            "ordered_list_matching", {"order": order}, "الربيع، الشتاء، الصيف", ""
        ).score
        == 0
    )


def test_one_option_line_copied_is_the_choice() -> None:
    # the answer's last line quotes one option in its dress: a choice, not an echo
    question = "Which tool? A) Saw, B) Hammer, C) Drill"
    answer = "A nail needs striking, not cutting or boring.\nB) Hammer"
    assert strict.evaluate("choices_matching", {"label": "B"}, answer, question).score == 1
