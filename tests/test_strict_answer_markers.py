"""Other languages' answer markers (strict/answer_markers.py and its data file).

The cases are written for these tests, in wordings unlike the labelled sets'.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorers.evaluate import strict
from scorers.evaluate.mathmatch.extract import extract_answer
from scorers.evaluate.strict.answer_markers import mgsm_prefixes, prefixes
from scorers.evaluate.strict.final import locate

DATA = Path(strict.__file__).with_name("answer_markers.json")


def test_the_data_file_names_its_source_and_holds_the_published_list() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert "openai/simple-evals" in data["source"]
    assert data["commit"] == "f517a9160942d954223a2da780c820b9d315c715"
    assert data["licence"].startswith("MIT")
    listed = prefixes()
    assert len(listed) == 42  # duplicates kept, as published
    assert listed[0] == "Answer\\s*:" and listed[1] == "Answer\\s*:" + "\u200b" * 6
    assert "정답\\s*:" in listed and "Jibu\\s*:" in listed and "الإجابة:" in listed
    assert "mgsm_eval.py" in data["mgsm_source"]
    mgsm = mgsm_prefixes()
    assert len(mgsm) == 11 and list(mgsm)[:2] == ["en", "bn"]  # the source's order
    assert (mgsm["ru"], mgsm["th"], mgsm["te"]) == ("Ответ", "คำตอบ", "సమాధానం")


def number(answer: str, value: float) -> float:
    return strict.evaluate("number_matching", {"value_to_match": value}, answer).score


def letter(answer: str, label: str) -> float:
    return strict.evaluate("choices_matching", {"label": label}, answer).score


@pytest.mark.parametrize(
    ("answer", "segment"),
    [
        ("상자 두 개에 7개씩 넣으면 14개가 남습니다.\n\n정답: 21", "21"),
        ("Contamos las sillas de la sala: hay 9 filas de 5.\nRespuesta: 45 sillas", "45 sillas"),
        ("Die Fläche beträgt 30 m², der Umfang 22 m.\n**Antwort**: 22 m", "22 m"),
        ("On additionne 8 et 17.\n\nRéponse : 25", "25"),
        ("Kila mfuko una machungwa 6.\nJibu: machungwa 36", "machungwa 36"),
        ("計算すると、残りは 4 本です。\n\n最終的な答え：4本", "4本"),
        ("المجموع هو 10 ثم نطرح 3\nالإجابة: 7", "7"),
        # the words MGSM's prompts ask for, in their format (word and colon)
        ("В каждой корзине по 6 груш, корзин 7.\n\nОтвет: 42 груши", "42 груши"),
        ("**ответ:** 15", "15"),
        ("รวมกันได้ 9 ลูก\nคำตอบ: 9", "9"),
        ("మొత్తం 12 పుస్తకాలు.\nసమాధానం: 12", "12"),
    ],
)
def test_a_marker_in_another_language_states_the_answer(answer: str, segment: str) -> None:
    found = locate(answer)
    assert (found.how, found.segment) == ("marker", segment)


def test_the_last_marker_wins_whatever_its_language() -> None:
    assert number("Respuesta: 12\n\nLo reviso de nuevo con la tabla.\nRespuesta: 18", 18) == 1
    assert number("Answer: 40\n\nNach dem Nachrechnen:\nAntwort: 44", 44) == 1
    assert number("Antwort: 44\n\nChecking once more in English.\nAnswer: 40", 40) == 1


def test_a_correction_after_the_marker_still_replaces_it() -> None:
    assert number("Resposta: 30\n\nCorreção: são 32 livros.", 32) == 1


@pytest.mark.parametrize(
    "answer",
    [
        "Majibu: mawili kati ya haya ni sahihi, lakini idadi ni 5",  # "answers", not "answer"
        "解答：先求长方形的面积，再减去三角形的面积，结果是 24",  # Chinese: "worked solution"
        '형식은 "답: X" 로 쓰라고 했지만, 계산하면 결과는 5',  # the format asked for, quoted
        "回答は「答え：数字」の形で書くので、9 になります",  # an example, quoted
        "Все ответы: 4 и 5, проверим ещё раз",  # "answers", not "answer"
        "Напишите в конце «Ответ: число», а пока считаем: выходит 8",  # quoted format
    ],
)
def test_a_marker_word_that_is_no_marker_here_does_not_count(answer: str) -> None:
    assert locate(answer).how == "whole"


def test_a_marker_in_brackets_after_the_working_states_the_answer() -> None:
    assert letter("Sumando las tres filas se obtienen 27 butacas (Respuesta: C)", "C") == 1


def test_a_marker_reads_an_option_letter() -> None:
    assert letter("보기를 모두 검토했습니다. 2번과 4번은 틀립니다.\n\n답: C", "C") == 1
    assert letter("Le choix B semble plausible mais ne l'est pas.\nRéponse: D", "B") == 0


def test_math_prose_reads_after_another_languages_marker() -> None:
    assert extract_answer("Bei hiyo ni shilingi 300 kwa kila kitu.\n\n**Jibu**: 1500") == (
        "1500",
        "marker",
    )
    assert extract_answer("Kwanza tunaongeza.\nMajibu yote ni 8 na 9.")[1] == "last line"
    # MGSM's Russian word: what follows it, not the whole last line, is the answer
    assert extract_answer("Поделим 84 на 4, получим 21.\n\nОтвет: $\\frac{84}{4} = 21$") == (
        "$\\frac{84}{4} = 21$",
        "marker",
    )


def test_a_long_line_of_quoted_words_does_not_hide_a_marker_after_them() -> None:
    # More quoted words than the look-back holds: its window starts between a pair of
    # '"', where counting them says nothing about a quotation left open.
    words = " ".join(f'"palabra{i}"' for i in range(30))
    answer = f"Ordenadas: {words} Respuesta: 3"
    assert len(answer) > 300
    assert (locate(answer).how, locate(answer).segment) == ("marker", "3")
