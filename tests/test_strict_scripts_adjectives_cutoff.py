"""Strict mode: a country's adjective in other languages (CLDR), names written
without word spaces or partly in another script, and reasonings cut off before
they commit. Wordings unlike the blind batches'."""

from __future__ import annotations

import pytest

from scorers.evaluate import strict


def grade(kwargs: dict, answer: str, evaluator: str = "key_items_matching"):
    return strict.evaluate(evaluator, kwargs, answer)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("Ungheria", "Ha la cittadinanza ungherese."),
        ("Frankreich", "Französische Staatsbürgerin"),
        ("Австрия", "австрийская"),
        ("Kanada", "kanadyjskie"),
        ("Schweden", "Er ist schwedischer Staatsbürger."),
    ],
)
def test_a_countrys_adjective_in_another_language_names_it(key: str, answer: str) -> None:
    out = grade({"key_items": [[key]]}, answer)
    assert out.score == 1 and out.uncertain is None


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("Ungheria", "Ha la cittadinanza rumena."),
        ("Frankreich", "Francesco Totti"),  # a name, not an adjective with an ending
        ("Canada", "Inuktitut"),
    ],
)
def test_other_adjectives_and_names_are_not_the_country(key: str, answer: str) -> None:
    assert grade({"key_items": [[key]]}, answer).score == 0


def test_an_adjective_inside_a_longer_place_name_is_that_place() -> None:
    assert grade({"key_items": [["Dominica"]]}, "Dominican Republic").score == 0


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("山田花子", "山田はなこ"),  # given name in kana
        ("雷德克里夫", "雷德克利夫"),  # another transcription
        ("宫本老师", "宫本美雪"),  # a name for a title
    ],
)
def test_unspaced_names_sharing_part_of_the_key_are_unsure(key: str, answer: str) -> None:
    out = grade({"key_items": [[key]]}, answer)
    assert out.score == 0 and out.uncertain


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("山田花子", "佐藤健"),  # nothing shared
        ("东京", "大阪"),  # places: the data knows them
        ("山田花子", "Yamada told the story in 1998. Nobody else did."),
    ],
)
def test_unrelated_or_known_names_stay_sure(key: str, answer: str) -> None:
    out = grade({"key_items": [[key]]}, answer)
    assert out.score == 0 and out.uncertain is None


_CUT = (
    "The question asks which beast the heroine rides to the mirror palace. "
    "I recall a thunder creature; I believe it was the Storm Qilin, as the fan wiki "
    "had it in the tenth season. Other riders have lions and cranes. "
    "But I am not sure of the exact name; it might be the Lightning Qilin instead. "
    "Let me think again about the scene where she reaches the gate and the guard"
)


def test_a_reasoning_cut_off_after_doubting_the_key_is_unsure() -> None:
    out = grade({"key_items": [["Storm Qilin"]]}, _CUT)
    assert out.score == 1 and out.uncertain and "cut off" in out.uncertain


def test_a_cut_reasoning_that_keeps_the_key_after_its_doubt_stays_sure() -> None:
    settled = _CUT.replace("Let me think again", "Yes, the Storm Qilin it is. Let me think again")
    assert grade({"key_items": [["Storm Qilin"]]}, settled).uncertain is None


def test_a_finished_reasoning_is_no_cut() -> None:
    finished = _CUT + " let her in."
    assert grade({"key_items": [["Storm Qilin"]]}, finished).uncertain is None


def test_a_cut_chinese_reasoning_doubting_the_key_is_unsure() -> None:
    text = (
        "题目问的是女主角骑着哪种神兽前往镜宫。我先回忆一下剧情的前后经过，以及每一季里各位角色的坐骑。"
        "这部动画一共播出了很多季，每一季都有新的角色登场，神兽的设定也随着剧情不断变化，所以需要仔细区分。"
        "女主角在前几季里并没有自己的神兽，到了后来的几季才开始和神兽一起行动，这一点我记得比较清楚。"
        "我记得她骑的是“雷霆麒麟”，在第十季的镜宫一集里出现过，当时还有很多其他的神兽一起出场。"
        "不过我不太确定这个名字，也许叫“闪电麒麟”，两个名字都曾在粉丝的讨论中出现，很容易混淆。"
        "让我再想一想镜宫那一集里守门人说的话，以及她到达之前的那段情节，还有她和同伴之间的对话，"
        "以及后来那只神兽在战斗中的表现和它身上的"
    )
    out = grade({"key_items": [["雷霆麒麟"]]}, text)
    assert out.score == 1 and out.uncertain


# The key's sentences as a story set stores them, typos and all.
_STEPS = [
    "Mia poured the flour into the the big glass bowl",
    "She cracked two eggs and wisked them with milk",
    "The batter rested on the counter for an hour",
    "Her brother burnt the frist pancake on the griddle",
]


@pytest.mark.parametrize(
    "answer",
    [
        # typos fixed, a doubled word dropped; bars, or numbered lines
        "Mia poured the flour into the big glass bowl | She cracked two eggs and whisked "
        "them with milk | The batter rested on the counter for an hour | Her brother burned "
        "the first pancake on the griddle",
        "1. Mia poured the flour into the big glass bowl.\n2. She cracked two eggs and "
        "whisked them with the milk.\n3. The batter rested on the counter for an hour.\n"
        "4. Her brother burnt the first pancake on the griddle.",
    ],
)
def test_sentences_copied_with_small_edits_are_the_items(answer: str) -> None:
    out = grade({"order": _STEPS}, answer, "ordered_list_matching")
    assert out.score == 1 and out.uncertain is None


@pytest.mark.parametrize(
    "answer",
    [
        # two sentences swapped
        "Mia poured the flour into the big glass bowl | The batter rested on the counter "
        "for an hour | She cracked two eggs and whisked them with milk | Her brother burned "
        "the first pancake on the griddle",
        # a sentence left out
        "Mia poured the flour into the big glass bowl | She cracked two eggs and whisked "
        "them with milk | Her brother burned the first pancake on the griddle",
        # a sentence rewritten, not copied
        "Mia poured the flour into the big glass bowl | Two eggs went in, beaten with milk "
        "| The batter rested on the counter for an hour | Her brother burned the first "
        "pancake on the griddle",
    ],
)
def test_a_wrong_or_rewritten_order_of_sentences_is_wrong(answer: str) -> None:
    assert grade({"order": _STEPS}, answer, "ordered_list_matching").score == 0


_JARS = (
    "Each shelf holds 4 jars and there are 3 shelves, so she fills 4 x 3 = 12 jars.\n"
    "Option C is wrong because it forgets the lids.\n"
    "The best answer is D."
)


def test_a_letter_closing_a_number_question_without_options_is_passed_over() -> None:
    out = strict.evaluate("number_matching", {"value_to_match": 12}, _JARS, "How many jars?")
    assert out.score == 1


def test_a_letter_for_a_question_with_options_is_read_as_before() -> None:
    asked = "How many jars?\nA) 9\nB) 10\nC) 11\nD) 12"
    before = strict.evaluate(
        "number_matching", {"value_to_match": 12}, "The best answer is D.", asked
    )
    assert strict.evaluate("number_matching", {"value_to_match": 12}, _JARS, asked) == before


def test_a_lone_letter_with_nothing_before_it_answers_nothing() -> None:
    out = strict.evaluate(
        "number_matching", {"value_to_match": 12}, "The answer is A.", "How many?"
    )
    assert out.score == 0


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("Norwegian", "She was born and raised in Norway."),
        ("Brazilian", "Resposta: Brasil"),
        ("Canadian", "He holds a passport of Canada."),
    ],
)
def test_a_country_names_a_key_that_is_its_adjective(key: str, answer: str) -> None:
    out = grade({"key_items": [[key]]}, answer)
    assert out.score == 1 and out.uncertain is None


@pytest.mark.parametrize(
    ("key", "answer"),
    [("Norwegian", "She was born and raised in Sweden."), ("Indian", "He grew up in Indiana.")],
)
def test_another_country_or_a_state_is_not_the_adjectives(key: str, answer: str) -> None:
    assert grade({"key_items": [[key]]}, answer).score == 0
