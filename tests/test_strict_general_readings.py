"""Strict mode's general readings of options, numbers and rejections, in this file's own words.

Each case is (evaluator, kwargs, answer, question, score, unsure): ``unsure``
says whether the verdict must carry ``uncertain`` or must not.
"""

from __future__ import annotations

from typing import Any

import pytest
from strict_fixtures import Reading, assert_reading

BIRDS = "Which bird is on the fence?\nA. robin\nB. sparrow\nC. magpie\nD. crow"
YEARS = "When did the bridge open?\nA) 1932\nB) 1937\nC) 1940\nD) 1945"
TOOLS = "Which tool measures humidity?\nA) hygrometer\nB) altimeter\nC) odometer"
TOOLKIT = 'Which tool makes a hole? {"A": "hammer", "B": "saw", "C": "drill"}'
TOOLKIT_KO = "구멍을 뚫는 도구는? 'A': '망치', 'B': '톱', 'C': '드릴'"
C, N, K = "choices_matching", "number_matching", "key_items_matching"
L = "location_matching"

CASES: list[Reading] = [
    # several options named: the concluding clause settles it ...
    (C, {"label": "C"}, "Could be a crow or a magpie; my pick is the magpie.", BIRDS, 1, False),
    (C, {"label": "B"}, "The streaks say robin at first glance, so sparrow.", BIRDS, 1, False),
    # ... else the first named is read: the others are remarks
    (
        C,
        {"label": "B"},
        "It opened in 1937, five years before the 1932 plan was revived.",
        YEARS,
        1,
        False,
    ),
    # ... unless another clause speaks of what the question asks
    (
        C,
        {"label": "B"},
        "The crow nests nearby; the bird on the fence is a sparrow.",
        BIRDS,
        1,
        False,
    ),
    # a word of another option's own names it too; a remark in brackets names none
    (
        C,
        {"label": "C"},
        "Crows are common here, but magpies too, so it could be either.",
        BIRDS,
        0,
        False,
    ),
    (C, {"label": "B"}, "Clearly a sparrow (a robin would show red).", BIRDS, 1, False),
    # a closing remark in brackets is no conclusion
    (
        C,
        {"label": "A"},
        "A hygrometer does it. (An odometer counts distance instead.)",
        TOOLS,
        1,
        False,
    ),
    # lower-case letters given values in the question are variables, not options:
    # a letter past them is still an option the answer may choose
    (
        C,
        {"label": "E"},
        "Adding the three sides gives 21 m, so the answer is E.",
        "Take a = 4 m, b = 8 m, c = 9 m as the sides of a field. How long is its fence?",
        1,
        False,
    ),
    # a closing supposition about another option, after a committing sentence, is a
    # remark; a sentence that takes the choice back is not
    (
        C,
        {"label": "A"},
        "A robin's breast is red, so I choose A. If the bird were black, D could fit.",
        BIRDS,
        1,
        False,
    ),
    (
        C,
        {"label": "C"},
        "Magpies are pied, therefore C. Notice B would suit a plain brown bird.",
        BIRDS,
        1,
        False,
    ),
    (
        C,
        {"label": "A"},
        "The red breast points to A. Actually, on reflection, D would be right.",
        BIRDS,
        0,
        False,
    ),
    # options two to a line, and options separated by bars
    (
        C,
        {"label": "D"},
        "It is a lime.",
        "Which fruit is green?\nA. apple  B. banana\nC. grape  D. lime",
        1,
        False,
    ),
    (
        C,
        {"label": "B"},
        "A banana.",
        "Which is yellow? Options: A. apple | B. banana | C. grape",
        1,
        False,
    ),
    # the pair weighed is no choice; "anything but X" and "X is a common wrong guess" rule X out
    (
        C,
        {"label": "C"},
        "I'd drop the robin at once. Between the crow and the magpie, the magpie.",
        BIRDS,
        1,
        False,
    ),
    (C, {"label": "C"}, "Between C and D: C.", BIRDS, 1, False),
    (K, {"key_items": [["Bergen"]]}, "Anything but Bergen — Oslo.", None, 0, False),
    (K, {"key_items": [["Bergen"]]}, "Oslo (Bergen is a common wrong guess).", None, 0, False),
    # a verb of rejection rules out its object
    (
        K,
        {"key_items": [["Porto"]]},
        "We dismissed Porto early on; the tiles point to Lisbon.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["Lisbon"]]},
        "We dismissed Porto early on; the tiles point to Lisbon.",
        None,
        1,
        False,
    ),
    (C, {"label": "C"}, "Rather than the crow, we'd settle on the magpie.", BIRDS, 1, False),
    # English number words past ninety-nine; two of them offered is no answer
    (N, {"value_to_match": 365}, "Three hundred and sixty-five days.", None, 1, False),
    (N, {"value_to_match": 4}, "It has four or five petals.", None, 0, False),
    # a lone digit group that only the other convention makes right: unsure, unless
    # the answer's own sum settles it
    (N, {"value_to_match": 2345}, "400 + 1945 = 2.345", None, 1, False),
    (N, {"value_to_match": 2.345}, "400 + 1945 = 2.345", None, 0, False),
    (N, {"value_to_match": 2345}, "The total is 2.345", None, 1, True),
    (N, {"value_to_match": 7.25}, "Final Answer: 7,250", None, 1, True),
    # grouped digits with a decimal comma at a sentence's end; lakhs and crores;
    # a multiplier word of a short answer whose language cannot be told
    (N, {"value_to_match": 4321.5}, "O total é 4.321,5.", None, 1, False),
    (N, {"value_to_match": 2500000}, "Final Answer: 25 lakh", None, 1, False),
    (N, {"value_to_match": 4500}, "Final Answer: 4,5 тыс.", None, 1, False),
    (N, {"value_to_match": 45}, "Final Answer: 45 min", None, 1, False),
    # a closing "So: X" states the answer
    (
        K,
        {"key_items": [["Bohr"]]},
        "Rutherford had the nucleus, Bohr the orbits. So: Rutherford.",
        None,
        0,
        False,
    ),
    # the first of a list closed by "or" is offered beside the others
    (
        K,
        {"key_items": [["Oslo"]]},
        "Oslo, Bergen or Trondheim, one of the Norwegian cities.",
        None,
        0,
        False,
    ),
    # a place's adjective answers "which country", unsure
    (K, {"key_items": [["Kenya"]]}, "That skyline is the Kenyan capital.", None, 1, False),
    # a known place elsewhere is sure; a name the key's city shares with a town is not
    (K, {"key_items": [["Kenya"]]}, "The Republic of Uganda.", None, 0, False),
    (K, {"key_items": [["Kolkata"]]}, "It is Calcutta.", None, 0, True),
    (K, {"key_items": [["Boston"]]}, "Final Answer: NYC", None, 0, False),
    # a belief conceded to others before "but" is ruled out
    (
        K,
        {"key_items": [["Everest"]]},
        "Most people would say Everest, but by base-to-peak it is Mauna Kea.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["Marconi"]]},
        "Marconi is usually credited, yet Popov demonstrated it first.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["Popov"]]},
        "Marconi is usually credited, yet Popov demonstrated it first.",
        None,
        1,
        False,
    ),
    # a candidate asked and answered no
    (K, {"key_items": [["Lima"]]}, "Lima? No, the capital is Quito.", None, 0, False),
    # several options named: a contrast settles, being torn does not
    (C, {"label": "D"}, "The robin is commoner here, but this one is a crow.", BIRDS, 1, False),
    (C, {"label": "D"}, "I'm torn between the robin and the crow.", BIRDS, 0, False),
    # a key offered beside another ("X, maybe Y", "X/Y") is no commitment
    (K, {"key_items": [["Oslo"]]}, "Oslo, maybe Bergen.", None, 0, False),
    (K, {"key_items": [["Oslo"]]}, "Oslo/Bergen", None, 0, False),
    # two whole options offered side by side choose neither
    (C, {"label": "D"}, "Either a crow or a magpie.", BIRDS, 0, False),
    # a correction that keeps the answer does not replace it; "made an error" corrects
    (
        K,
        {"key_items": [["Oslo"]]},
        "Final answer: Oslo.\n\nEdit: reworded the reasoning, the answer stands.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["Oslo"]]},
        "Final answer: Oslo.\n\nI made an error: it is Bergen.",
        None,
        0,
        False,
    ),
    # a name spelled almost as a name key: another transliteration, or not
    (K, {"key_items": [["Dostoevsky"]]}, "Final Answer: Dostoyevsky", None, 0, True),
    (K, {"key_items": [["Dostoevsky"]]}, "Final Answer: Tolstoy", None, 0, False),
    # what a free-text answer compares its candidate with is not its answer
    (
        K,
        {"key_items": [["Bergen"]]},
        "Oslo is larger than Bergen, so the capital is Oslo.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["Oslo"]]},
        "Oslo is larger than Bergen, so the capital is Oslo.",
        None,
        1,
        False,
    ),
    # struck-out text is deleted; talking about the final answer states none
    (K, {"key_items": [["Bergen"]]}, "Final Answer: ~~Oslo~~ Bergen", None, 1, False),
    (K, {"key_items": [["Oslo"]]}, "Final Answer: ~~Oslo~~ Bergen", None, 0, False),
    (
        K,
        {"key_items": [["Oslo"]]},
        "Final answer: Oslo.\n\nCorrection to the reasoning: Bergen is the rainier one. The final answer does not change.",
        None,
        1,
        False,
    ),
    # "looking again" corrects the stated answer
    (
        C,
        {"label": "D"},
        "Final Answer: B\n\nLooking again at the beak, it is the crow.",
        BIRDS,
        1,
        False,
    ),
    # a no-break or narrow space joins a name's words as a space does: Atlantic City is
    # no adjective of Atlanta, and New Orleans is no unknown rival of it
    (K, {"key_items": [["Atlanta"]]}, "My answer: Atlantic\u00a0City.", None, 0, False),
    (K, {"key_items": [["New Orleans"]]}, "It is New\u202fOrleans.", None, 1, False),
    # an option letter in quotation marks is the letter; an apostrophe inside a word
    # ("I'm", "Ann's") makes no letter of its parts
    (C, {"label": "C"}, '"C" (magpie)', BIRDS, 1, False),
    (C, {"label": "C"}, "‘C’ – the black and white one", BIRDS, 1, False),
    (C, {"label": "A"}, "'A': 'robin'", BIRDS, 1, False),
    (C, {"label": "A"}, "C': 'magpie'", BIRDS, 0, False),
    (C, {"label": "D"}, "I'm going with D", BIRDS, 1, False),
    # a tail copied from the question (its options again) is no answer
    (
        C,
        {"label": "D"},
        "'B': 'sparrow'\nWhich bird is on the fence?\nA. robin\nB. sparrow\nC. magpie\nD. crow",
        BIRDS,
        0,
        False,
    ),
    (
        C,
        {"label": "C"},
        "The pied one: C.\nA. robin\nB. sparrow\nC. magpie\nD. crow",
        BIRDS,
        1,
        False,
    ),  # options written out as a mapping (JSON, a Python dict) are options, named by their text
    (C, {"label": "C"}, "A drill makes the hole.", TOOLKIT, 1, False),
    (C, {"label": "C"}, "사진 속 도구는 '드릴'", TOOLKIT_KO, 1, False),
    (C, {"label": "C"}, "망치", TOOLKIT_KO, 0, False),
    # a Korean word keeps its particle: the option's text begins it ("드릴로", "드릴입니다")
    (C, {"label": "C"}, "이 구멍은 드릴로 뚫었습니다.", TOOLKIT_KO, 1, False),
    (C, {"label": "C"}, "정답은 톱입니다.", TOOLKIT_KO, 0, False),
    (K, {"key_items": [["부산"]]}, "그 다리는 부산에 있습니다.", None, 1, False),
    # another value offered with another language's "or" (CLDR's list patterns) is no
    # commitment; a word of ASCII letters counts in a text that is not English
    (N, {"value_to_match": 7}, "Im Korb liegen 7 oder 8 Eier.", "Wie viele Eier?", 0, False),
    (N, {"value_to_match": 7}, "Im Korb liegen genau 7 Eier.", "Wie viele Eier?", 1, False),
    (N, {"value_to_match": -4}, "解得 t=-4或t=5", "求 t", 0, False),
    (N, {"value_to_match": 9}, "사과는 9개 또는 10개입니다.", "사과는 몇 개?", 0, False),
    (N, {"value_to_match": 9}, "Осталось 9 или 10 яблок.", "Сколько яблок?", 0, False),
    (
        N,
        {"value_to_match": 7},
        "Seven eggs: 7, as Oder told me.",
        "How many eggs?",
        1,
        False,
    ),  # a Chinese answer says yes or no by its first use of the question's verb
    (
        K,
        {"key_items": [["yes", "有", "是"]]},
        "目前没有证据表明这种鸟在岛上繁殖，但将来有可能。",
        "这种鸟在岛上繁殖吗？",
        0,
        False,
    ),
    (
        K,
        {"key_items": [["yes", "可以", "是"]]},
        "外国人可以在当地开设银行账户，但不是所有银行都接受。",
        "外国人可以开银行账户吗？",
        1,
        False,
    ),
    (K, {"key_items": [["yes", "是"]]}, "这座桥并不是最长的。", "这座桥是最长的吗？", 0, False),
    # a location candidate written as a country's code in lower case names the country ...
    (
        L,
        {"location_fine_grained": "gbr", "location_coarse_grained": "europe"},
        "The UK.",
        None,
        1,
        False,
    ),
    (L, {"location_fine_grained": "us"}, "He grew up in the United States.", None, 1, False),
    # ... another country does not, nor is a key item in lower case a code ("can")
    (
        L,
        {"location_fine_grained": "gbr", "location_coarse_grained": "europe"},
        "Ireland.",
        None,
        0,
        False,
    ),
    (K, {"key_items": [["can"]]}, "Canada.", None, 0, False),
    # A key's number words are also read in digits (text2num): ordinals and cardinals ...
    (
        K,
        {"key_items": [["fifth floor"]]},
        "Her office is on the 5th floor.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["seven seas"]]},
        "He sailed the 7 seas.",
        None,
        1,
        False,
    ),
    # ... another number is still no key
    (
        K,
        {"key_items": [["fifth floor"]]},
        "Her office is on the 4th floor.",
        None,
        0,
        True,
    ),
    (
        K,
        {"key_items": [["seven seas"]]},
        "He sailed the 6 seas.",
        None,
        0,
        True,
    ),
]


@pytest.mark.parametrize(("evaluator", "kwargs", "answer", "question", "score", "unsure"), CASES)
def test_general_readings(
    evaluator: str,
    kwargs: dict[str, Any],
    answer: str,
    question: str | None,
    score: float,
    unsure: bool,
) -> None:
    assert_reading(evaluator, kwargs, answer, question, score, unsure)
