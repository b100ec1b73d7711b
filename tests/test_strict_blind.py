"""Strict mode on hard cases written blind to the implementation, against floors.

``tests/data/strict/blind_hard_cases.json`` (188 items),
``blind_hard_cases2.json`` (121 items, a second batch by another writer) and
``blind_hard_cases3.json`` (143 items, a third), ``blind_hard_cases4.json``
(137 items, a fourth, 21 of them real model answers) and ``blind_hard_cases5.json``
(106 real model answers, its sources in ``blind_hard_cases5.about.txt``) and
``blind_hard_cases6.json`` (95 real answers of recent models, ``blind_hard_cases6.about.txt``) and
``blind_hard_cases7.json`` (109 real answers: MathVista models, GPT-4 on MKQA in eight languages,
``blind_hard_cases7.about.txt``) and ``blind_hard_cases8.json`` (104 real answers: GPT-3 on
table word problems, HotpotQA answers with reasoning, ``blind_hard_cases8.about.txt``) and
``blind_hard_cases9.json`` (105 real answers: text-davinci-003 Plan-and-Solve on AQuA,
CommonsenseQA and StrategyQA, Mistral on HotpotQA, ``blind_hard_cases9.about.txt``) and
``blind_hard_cases10.json`` (105 real answers, most in Korean or Chinese, and image
geolocation, ``blind_hard_cases10.about.txt``) and ``blind_hard_cases11.json`` (96 real
answers: Claude 3.5 Sonnet and GPT-4o on SimpleQA in Czech, Claude 3 Haiku and GPT-4o-mini on
GSM8K, ``blind_hard_cases11.about.txt``) and ``blind_hard_cases12.json`` (93 real answers:
Qwen3.6-Plus and DeepSeek-V4-Pro on SimpleQA-Verified, Qwen3 on Japanese MMMLU and MGSM in
three languages, ``blind_hard_cases12.about.txt``) and ``blind_hard_cases13.json`` (110 real
answers: a search API's answers to SimpleQA, gpt-4o-mini on Korean law questions with numbered
options, gpt-4o on GSM8K, Qwen3-1.7B, ``blind_hard_cases13.about.txt``) and ``blind_hard_cases14.json`` (108 real answers: a
small thinking model and Llama 3.2 3B on BIG-Bench Hard, gemma-2-2b on TriviaQA,
``blind_hard_cases14.about.txt``) and ``blind_hard_cases15.json`` (100 real answers: deepseek-chat
on SimpleQuestions, six small open models on geography questions, a DeepSeek model on GSM8K,
``blind_hard_cases15.about.txt``) and ``blind_hard_cases16.json`` (109 real answers: medgemma-4b on
medical choices, ChatGPT on sample-size questions, Qwen2.5-7B on HotpotQA,
``blind_hard_cases16.about.txt``) and ``blind_hard_cases17.json`` (115 real answers: ten models under
hint-following tests, MMLU worked examples, multi-agent GSM8K and MMLU logs,
``blind_hard_cases17.about.txt``) and ``blind_hard_cases18.json`` (110 real answers: Llama 3.x on
Mintaka in Danish, Finnish and English, Gemini on HotpotQA, Llama 3.x on GSM8K,
``blind_hard_cases18.about.txt``) and ``blind_hard_cases19.json`` (91 real answers: 2026 models on a
Chinese anime, comics and games SimpleQA, Llama-3.2-3B on GSM8K,
``blind_hard_cases19.about.txt``) and ``blind_hard_cases20.json`` (110 real answers: six open models on
birthplace and citizenship questions in eight languages, five-sentence story orders, Llama-3 on GSM8K,
``blind_hard_cases20.about.txt``) and ``blind_hard_cases21.json`` (109 real answers: 2026 models on
medical choices in long form, named-item questions, list sorting with thinking traces,
``blind_hard_cases21.about.txt``) and ``blind_hard_cases22.json`` (98 real answers: Gemma 3, Llama 3.1
and Mistral on TruthfulQA in long form, three open models on GSM8K in prose, diabetes choices,
``blind_hard_cases22.about.txt``) and ``blind_hard_cases23.json`` (110 real answers: GPT-4.1 step by step
in Arabic on an Arabic image-reasoning benchmark, its option letters Arabic, 2024 models on trick questions,
``blind_hard_cases23.about.txt``) and ``blind_hard_cases24.json`` (108 real answers: Llama-3.2-3B on CRAG,
Llama 4 and Llama 3.3 on MMLU-Pro, Llama-3.1-8B on GSM8K, ``blind_hard_cases24.about.txt``) and
``blind_hard_cases25.json`` (110 real answers, most in Korean or Chinese: Korean MMMLU and GSM8K by gpt-4o,
Qwen2.5 and Llama 3.1, DeepSeek-R1 on a Korean medical exam, LLaDA on C-Eval and CMMLU, Llama-3 on CRAG,
``blind_hard_cases25.about.txt``) and ``blind_hard_cases26.json`` (102 real answers: gpt-4.1, Claude Sonnet 4.6,
Gemini 2.5 Flash, DeepSeek, Qwen2.5-7B and Llama-3.1-8B answering Natural Questions in sentences,
``blind_hard_cases26.about.txt``) and ``blind_hard_cases27.json`` (104 real answers: thirteen chat models
on school-exam choices in Kazakh, Azerbaijani, Uzbek and Turkish, Fin-o1-14B and Gemini 3 on
financial-statement numbers, ``blind_hard_cases27.about.txt``) and ``blind_hard_cases28.json`` (110 real
answers: gpt-4.1 on SimpleQA with and without retrieval, gemma-2/3 and Llama-3.2-3B on invented
facts among distractor documents, many of them places, ``blind_hard_cases28.about.txt``): each item a careful human's
label of what an answer commits to, split ``dev`` (the rules were tuned on it)
and ``test`` (only ever scored).
``python benchmarks/strict_agreement.py`` prints the figures these floors hold.
The fourth batch's first reading was taken before any rule was written for it;
its floors now hold the figures after rules were tuned on its dev half.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate import strict

DATA = Path(__file__).parent / "data" / "strict"


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return cases


# The test halves are only scored. A floor at a test half's exact figure would let it choose
# between rules (a general reading that fixes dev items in several sources but moves one test
# item would be dropped for it), so on test each floor and cap gives way by two items: it
# guards against regressions, and benchmarks/strict_agreement.py reports the figure.
TEST_SLACK_ITEMS = 2


def _figures(name: str, split: str) -> tuple[float, float, float]:
    """(overall agreement, share uncertain, agreement without uncertain)."""
    rows = [c for c in _cases(name) if c["split"] == split]
    agree = uncertain = agree_sure = 0
    for case in rows:
        try:
            outcome = strict.evaluate(
                case["evaluator"], case["kwargs"], case["answer"], case.get("question")
            )
        except EvaluatorError:
            continue  # refused (a grade run reports the record): a sure disagreement
        right = outcome.score == case["label"]
        agree += right
        uncertain += outcome.uncertain is not None
        agree_sure += right and outcome.uncertain is None
    n = len(rows)
    return agree / n, uncertain / n, agree_sure / (n - uncertain)


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("blind_hard_cases.json", 90),
        ("blind_hard_cases2.json", 60),
        ("blind_hard_cases3.json", 70),
        ("blind_hard_cases4.json", 60),
        ("blind_hard_cases5.json", 50),
        ("blind_hard_cases6.json", 40),
        ("blind_hard_cases7.json", 45),
        ("blind_hard_cases8.json", 45),
        ("blind_hard_cases9.json", 45),
        ("blind_hard_cases10.json", 45),
        ("blind_hard_cases11.json", 45),
        ("blind_hard_cases12.json", 40),
        ("blind_hard_cases13.json", 45),
        ("blind_hard_cases14.json", 45),
        ("blind_hard_cases15.json", 45),
        ("blind_hard_cases16.json", 45),
        ("blind_hard_cases17.json", 45),
        ("blind_hard_cases18.json", 45),
        ("blind_hard_cases19.json", 45),
        ("blind_hard_cases20.json", 45),
        ("blind_hard_cases21.json", 45),
        ("blind_hard_cases22.json", 40),
        ("blind_hard_cases23.json", 40),
        ("blind_hard_cases24.json", 55),
        ("blind_hard_cases25.json", 55),
        ("blind_hard_cases26.json", 50),
        ("blind_hard_cases27.json", 45),
        ("blind_hard_cases28.json", 50),
    ],
)
def test_the_set_is_split_and_labelled(name: str, size: int) -> None:
    cases = _cases(name)
    assert {c["split"] for c in cases} == {"dev", "test"}
    assert sum(c["split"] == "test" for c in cases) >= size
    assert all(0 <= c["label"] <= 1 for c in cases)


@pytest.mark.parametrize(
    ("name", "split", "overall", "share", "sure"),
    [
        # The split the rules were tuned on.
        ("blind_hard_cases.json", "dev", 0.97, 0.10, 0.97),
        # Held out: measured 88/94 overall, 11/94 uncertain, 82/83 without.
        # Re-read at 7d17f2c (function words no names, a number stated first): 89/94,
        # 9/94 uncertain, 84/85 without.
        ("blind_hard_cases.json", "test", 0.94, 0.10, 0.98),
        ("blind_hard_cases2.json", "dev", 0.98, 0.02, 0.98),
        # Held out: measured 57/63 overall, 8/63 uncertain, 51/55 without.
        # Re-read at 7d17f2c: 57/63, 6/63 uncertain, 53/57 without.
        ("blind_hard_cases2.json", "test", 0.90, 0.10, 0.92),
        ("blind_hard_cases3.json", "dev", 0.92, 0.08, 0.98),
        # Held out: measured 58/73 overall, 8/73 uncertain, 54/65 without.
        # Re-read once at the honest-doubt signals (reasons that marked only right dev
        # verdicts made sure; new signals, tests/test_strict_honest_doubt.py): 59/73,
        # 6/73 uncertain, 57/67 without.
        ("blind_hard_cases3.json", "test", 0.79, 0.09, 0.85),
        # First reading: dev 59/72 overall, 8/72 uncertain, 57/64 without; then
        # tuned on: 63/72, 10/72, 61/62.
        ("blind_hard_cases4.json", "dev", 0.87, 0.14, 0.98),
        # Held out, first reading: 50/65 overall, 9/65 uncertain, 49/56 without;
        # now 51/65, 9/65, 50/56.
        # Re-read once at the honest-doubt signals: 51/65, 9/65, 51/56.
        ("blind_hard_cases4.json", "test", 0.78, 0.14, 0.91),
        # First reading (at ac63840, before any rule was written for it): dev 48/51
        # overall, 3/51 uncertain, 45/48 without; test 49/55, 3/55, 48/52.
        # After yes/no told without the word (polarity.py): dev 51/51, 5/51, 46/46.
        ("blind_hard_cases5.json", "dev", 1.0, 0.06, 1.0),
        # Held out, after polarity.py: 51/55, 4/55, 49/51.
        ("blind_hard_cases5.json", "test", 0.92, 0.08, 0.96),
        # First reading (at ca2da64, before any rule was written for it): dev 46/53
        # overall, 5/53 uncertain, 42/48 without; test 36/42, 4/42, 33/38.
        # With options listed twice read as one answer (unsure), the adjective of a
        # place of several words ("Southeast Asian", unsure) and a numbered list
        # read from its heads: dev 52/53, 7/53 uncertain, 45/46 without.
        ("blind_hard_cases6.json", "dev", 0.98, 0.06, 0.98),
        # Held out, with options listed twice read as one answer (a9ddca3): 38/42,
        # 5/42 uncertain, 34/37 without; one reading at 37c5eeb (numbered lists read
        # from their heads): 39/42, 5/42, 35/37.
        # Re-read once at the honest-doubt signals: 39/42, 4/42, 36/38.
        ("blind_hard_cases6.json", "test", 0.92, 0.10, 0.94),
        # First reading (at 1ce5e0a, before any rule was written for it): dev 48/58
        # overall, 3/58 uncertain, 45/55 without; test 40/51, 2/51, 39/49.
        # With the readings from maintained data (numbers in other languages, dates,
        # nicknames of given names): dev 49/58, 3/58 uncertain, 46/55 without. With
        # invented questions cut and values converted to another unit (unsure):
        # dev 53/58, 5/58 uncertain, 48/53 without; test (one reading, at 8218f29)
        # 41/51, 2/51, 40/49.
        # With dates named to the month or year only (unsure): dev 54/58, 6/58
        # uncertain, 48/52 without. With a Chinese yes verb first used negated read
        # as no: dev 55/58, 6/58, 49/52.
        # With a number stated in a first sentence that restates the question read
        # before the details after it: 56/58, 6/58, 50/52.
        ("blind_hard_cases7.json", "dev", 0.96, 0.11, 0.98),
        # Re-read at 7d17f2c (a number stated first, then told about): 44/51, 2/51, 43/49.
        # Re-read once at the honest-doubt signals: 44/51, 3/51, 42/48.
        ("blind_hard_cases7.json", "test", 0.86, 0.06, 0.87),
        # First reading (at d12142c, before any rule was written for it): dev 50/52
        # overall, 1/52 uncertain, 49/51 without; test 52/52, 4/52, 48/48.
        # With the alternatives a question offers read at the conclusion (unsure) and
        # times as whole words: dev 52/52, 3/52 uncertain, 49/49 without.
        ("blind_hard_cases8.json", "dev", 1.0, 0.06, 1.0),
        # Re-read once at the honest-doubt signals: 52/52, 5/52, 47/47.
        ("blind_hard_cases8.json", "test", 1.0, 0.10, 1.0),
        # First reading (at 348953a, before any rule was written for it): dev 39/52
        # overall, 3/52 uncertain, 36/49 without; test 45/53, 8/53, 41/45.
        # With options listed twice (unsure), names joined by "and" for a question
        # asking one, dates to the year only (unsure) and a list of values as no
        # commitment, and a claim left open ("not possible to determine if", unsure):
        # dev 46/52, 6/52 uncertain, 40/46 without. With a marker in a sentence that
        # opens with "If" read as a supposition: 47/52, 6/52, 44/46.
        ("blind_hard_cases9.json", "dev", 0.90, 0.12, 0.95),
        # Held out: 45/53, 8/53 uncertain, 41/45 without. Re-read once at the
        # honest-doubt signals: 45/53, 7/53, 41/46: a reason deleted because it marked
        # only right verdicts on dev (and the team's sets) had marked one test miss
        # here; the floor records that single reading rather than a test-tuned revert.
        ("blind_hard_cases9.json", "test", 0.84, 0.16, 0.89),
        # First reading (at cbdabda, before any rule was written for it): dev 39/49
        # overall, 0/49 uncertain, 39/49 without; test 43/56, 0/56, 43/56.
        # With "【答案】" on its own line heading the line below: dev 41/49, 0/49, 41/49.
        # With option letters in quotation marks read and an echo of the question
        # cut: dev 44/49, 0/49, 44/49. Four of the five dev misses left are answers
        # naming another city of the right country, which this batch's labeller scores
        # 0 ("graded at town/city level") while their kwargs give 0.5 and batches 1-4
        # label the same shape 0.5: a convention the labels disagree on, not a reading.
        # With a 0 beside a word spelled almost as a key's unsure (doubt.near_spelling,
        # net positive across four sources; cap raised within the 15% budget): 44/49, 1/49, 43/48.
        ("blind_hard_cases10.json", "dev", 0.89, 0.03, 0.89),
        # Held out, one reading at 37c5eeb: 50/56, 0/56 uncertain, 50/56 without.
        ("blind_hard_cases10.json", "test", 0.89, 0.0, 0.89),
        # First reading (at b41b73b, before any rule was written for it): dev 46/48
        # overall, 2/48 uncertain, 44/46 without; test 45/48, 4/48, 41/44.
        # With a number stated first (in Czech, told by the question's names): 47/48,
        # 2/48, 45/46.
        ("blind_hard_cases11.json", "dev", 0.97, 0.05, 0.97),
        # With a one-sentence answer naming part of a key unsure (tests/test_strict_partial_key.py):
        # test 45/48, 5/48, 40/43.
        ("blind_hard_cases11.json", "test", 0.93, 0.11, 0.93),
        # First reading (at 8a1750a, before any rule was written for it): dev 48/50
        # overall, 0/50 uncertain, 48/50 without; test 41/43, 1/43, 40/42.
        ("blind_hard_cases12.json", "dev", 0.96, 0.04, 1.0),
        ("blind_hard_cases12.json", "test", 0.95, 0.03, 0.95),
        # First reading (at b811383, before any rule was written for it): dev 37/61
        # overall, 7/61 uncertain, 32/54 without; test 32/49, 3/49, 29/46. Of the misses,
        # 15 dev and 11 test are refused: options numbered 1-4 with a digit label.
        # With options numbered 1-4 read by their number or text: dev 52/61, 7/61, 47/54;
        # with a number stated first and then told about: 55/61, 7/61, 51/54; with
        # "19 May, 2023" read as one date: 56/61, 7/61, 52/54.
        # With a date's day and year read as no amount: 57/61, 4/61, 55/57.
        ("blind_hard_cases13.json", "dev", 0.93, 0.12, 0.96),
        # Re-read at 7d17f2c (numbered options read, nothing refused; a number stated
        # first; "19 May, 2023"): 44/49, 3/49 uncertain, 41/46 without.
        ("blind_hard_cases13.json", "test", 0.89, 0.07, 0.89),
        # First reading (at 38537be, before any rule was written for it): dev 50/57
        # overall, 1/57 uncertain, 50/56 without; test 46/51, 1/51, 46/50.
        # With a name and its kind said of it ("the Milky Way is a spiral galaxy"):
        # dev 52/57, 4/57, 52/53.
        ("blind_hard_cases14.json", "dev", 0.91, 0.08, 0.98),
        ("blind_hard_cases14.json", "test", 0.90, 0.02, 0.92),
        # First reading (at 1935751, before any rule was written for it): dev 38/49
        # overall, 1/49 uncertain, 37/48 without; test 43/51, 4/51, 42/47. Held out while
        # the session that added it worked, so its floors sit an item or two below that reading
        # and its uncertain share at the budget.
        # Read once at the honest-doubt signals (written without this batch): dev 38/49,
        # 2/49 uncertain, 37/47 without; test 43/51, 5/51, 42/46. Its dev half opened
        # for rule-writing after that reading; no reading of it was fitted (its misses
        # are synonyms and knowledge, one labeller's coarse credit, and GSM8K's "#### N"
        # line after a stated answer, one source): dev 38/49, 2/49, 37/47. With that
        # line read as a marker (GSM8K's format, shared with math prose): dev 40/49, 2/49, 39/47.
        # With a one-sentence answer naming part of a key unsure: dev 40/49, 5/49, 39/44.
        # With a 0 beside a word spelled almost as a key's unsure (the cap raised within the
        # 15% budget, as for b10): dev 40/49, 6/49, 39/43.
        ("blind_hard_cases15.json", "dev", 0.79, 0.13, 0.88),
        # Test read once at 545bdc7 (the same): 43/51, 5/51, 42/46. With a one-sentence
        # answer naming part of a key unsure: 43/51, 6/51, 41/45.
        ("blind_hard_cases15.json", "test", 0.84, 0.12, 0.91),
        # First reading (at 381c765, held out the same way): dev 37/47, 2/47 uncertain,
        # 35/45 without; test 49/62, 1/62, 48/61. With suppositions passed over (a closing
        # paragraph opening with "If", and after a marker): dev 38/47, 1/47, 37/46. With
        # an option walk-through's letters naming what each line discusses: 39/47, 2/47, 37/45.
        # With a one-sentence answer naming part of a key unsure: 39/47, 3/47, 36/44 (one
        # right verdict marked, no miss: the sure floor is lowered to it, the overall kept).
        ("blind_hard_cases16.json", "dev", 0.82, 0.07, 0.81),
        # Test read once at 545bdc7: 50/62, 1/62, 49/61.
        ("blind_hard_cases16.json", "test", 0.80, 0.02, 0.80),
        # First reading (at c0931ae, before any rule was written for it): dev 51/63,
        # 5/63 uncertain, 47/58 without; test 45/52, 4/52, 42/48. With quoted markers
        # passed over and an option walk-through's letters naming what each line
        # discusses: dev 55/63, 9/63, 48/54.
        ("blind_hard_cases17.json", "dev", 0.87, 0.15, 0.88),
        # Test read once at e53a7cb (those readings): 45/52, 5/52, 41/47.
        ("blind_hard_cases17.json", "test", 0.84, 0.15, 0.85),
        # First reading (at 802e5cb, before any rule was written for it): dev 42/50,
        # 7/50 uncertain, 36/43 without; test 43/60, 2/60, 42/58.
        ("blind_hard_cases18.json", "dev", 0.82, 0.15, 0.81),
        # Test read once at 8eac100 (strict21's readings): 44/60, 2/60, 44/58.
        ("blind_hard_cases18.json", "test", 0.73, 0.15, 0.75),
        # First reading (at 4836113, before any rule was written for it): dev 19/33,
        # 0/33 uncertain, 19/33 without; test 40/58, 0/58, 40/58.
        # Dev after strict19's rules (names without word spaces, a reasoning cut off
        # before it commits, a letter for options nobody gave): 21/33, 5/33 uncertain
        # (each a miss), 21/28 without.
        # With the question's given number passed over after the result: 22/33, 5/33, 22/28.
        ("blind_hard_cases19.json", "dev", 0.66, 0.16, 0.78),
        # Test read once at a463631 (after strict19's rules): 43/58, 3/58, 41/55.
        ("blind_hard_cases19.json", "test", 0.74, 0.15, 0.74),
        # First reading (at 5bab283, before any rule was written for it): dev 36/54,
        # 7/54 uncertain, 35/47 without; test 45/56, 11/56, 39/45. The test half's
        # uncertain share is above the 15% target at its first reading: the floor holds
        # it there, it does not endorse it.
        # Dev after strict19's rules (a country's adjective in other languages, story
        # sentences copied with small edits): 42/54, 5/54 uncertain, 42/49 without.
        ("blind_hard_cases20.json", "dev", 0.77, 0.15, 0.85),
        # Test read once at a463631 (after strict19's rules): 46/56, 8/56 (back within
        # 15%), 42/48.
        ("blind_hard_cases20.json", "test", 0.82, 0.15, 0.87),
        # First reading (at 689649f, before any rule was written for it): dev 55/60,
        # 2/60 uncertain, 54/58 without; test 47/49, 2/49, 45/47.
        ("blind_hard_cases21.json", "dev", 0.88, 0.15, 0.89),
        # Test read once at 8eac100 (after rules written from its dev half): unchanged.
        ("blind_hard_cases21.json", "test", 0.91, 0.15, 0.91),
        # First reading (at 22f91b0, before any rule was written for it): dev 51/55,
        # 1/55 uncertain, 51/54 without; test 41/43, 0/43, 41/43.
        # With a name and its kind ("the Antarctic Polar Desert") and a count read
        # before its breakdown ("24 ribs, which include 12 pairs: 7 ..."): 53/55, 1/55, 53/54.
        ("blind_hard_cases22.json", "dev", 0.96, 0.15, 0.98),
        # Test read once at 8eac100 (after rules written from its dev half): unchanged.
        ("blind_hard_cases22.json", "test", 0.90, 0.15, 0.90),
        # First reading (at e8db1b2, before any rule was written for it; unchanged at
        # 7ac8989, after this session's strict changes): dev 40/65, 3/65 uncertain,
        # 39/62 without; test 31/45, 5/45, 29/40. 15 dev and 6 test items are refused:
        # their option letters are Arabic (a sure disagreement here).
        # Other scripts' option letters read by place, choices given as a list, the
        # Arabic comma, a series of names as alternatives: dev 57/65, 4/65, 54/61.
        ("blind_hard_cases23.json", "dev", 0.87, 0.15, 0.88),
        # Test read once at 1b34592 (after those rules): 36/45, 4/45, 35/41; nothing refused.
        ("blind_hard_cases23.json", "test", 0.80, 0.15, 0.85),
        # First reading (at e8db1b2; unchanged at 7ac8989): dev 42/46, 1/46 uncertain,
        # 41/45 without; test 52/62, 1/62, 52/61.
        ("blind_hard_cases24.json", "dev", 0.89, 0.15, 0.88),
        ("blind_hard_cases24.json", "test", 0.82, 0.15, 0.83),
        # First reading (at e8db1b2, before any rule was written for it): dev 41/47,
        # 2/47 uncertain, 41/45 without; test 50/63, 5/63, 50/58. After this session's
        # strict changes (4d93713): dev 42/47, 1/47, 42/46; test unchanged.
        ("blind_hard_cases25.json", "dev", 0.87, 0.15, 0.89),
        ("blind_hard_cases25.json", "test", 0.77, 0.15, 0.84),
        # First reading (at 4a531fe, before any rule was written for it): dev 33/48,
        # 5/48 uncertain, 30/43 without; test 40/54, 9/54 (16.7%, over the 15% budget),
        # 35/45.
        ("blind_hard_cases26.json", "dev", 0.66, 0.15, 0.67),
        ("blind_hard_cases26.json", "test", 0.72, 0.19, 0.75),
        # First reading (at 060d45f, before any rule was written for it): dev 51/58,
        # 6/58 uncertain, 46/52 without; test 43/46, 4/46 uncertain, 39/42 without.
        ("blind_hard_cases27.json", "dev", 0.86, 0.15, 0.86),
        ("blind_hard_cases27.json", "test", 0.91, 0.15, 0.90),
        # First reading (at 060d45f, before any rule was written for it): dev 48/54,
        # 5/54 uncertain, 44/49 without; test 48/56, 3/56 uncertain, 46/53 without.
        ("blind_hard_cases28.json", "dev", 0.87, 0.15, 0.87),
        ("blind_hard_cases28.json", "test", 0.83, 0.15, 0.85),
    ],
)
def test_agreement_floors(name: str, split: str, overall: float, share: float, sure: float) -> None:
    got = _figures(name, split)
    n = sum(c["split"] == split for c in _cases(name))
    slack = TEST_SLACK_ITEMS / n if split == "test" else 0.0
    assert got[0] >= overall - slack and got[1] <= share + slack and got[2] >= sure - slack, got


@pytest.mark.parametrize(
    "name",
    [
        "blind_hard_cases3.json",
        "blind_hard_cases4.json",
        "blind_hard_cases5.json",
        "blind_hard_cases6.json",
        "blind_hard_cases7.json",
        "blind_hard_cases8.json",
        "blind_hard_cases9.json",
        "blind_hard_cases10.json",
        "blind_hard_cases11.json",
        "blind_hard_cases12.json",
        "blind_hard_cases13.json",
        "blind_hard_cases14.json",
        "blind_hard_cases15.json",
        "blind_hard_cases16.json",
        "blind_hard_cases17.json",
        "blind_hard_cases18.json",
        "blind_hard_cases19.json",
        "blind_hard_cases20.json",
        "blind_hard_cases21.json",
        "blind_hard_cases22.json",
        "blind_hard_cases23.json",
        "blind_hard_cases24.json",
        "blind_hard_cases25.json",
        "blind_hard_cases26.json",
        "blind_hard_cases27.json",
        "blind_hard_cases28.json",
    ],
)
def test_the_later_batches_score(name: str) -> None:
    """Every item grades to a score strict mode can give."""
    for split in ("dev", "test"):
        overall, share, sure = _figures(name, split)
        assert 0 <= overall <= 1 and 0 <= share < 1 and 0 <= sure <= 1
    for case in _cases(name):
        outcome = strict.evaluate(
            case["evaluator"], case["kwargs"], case["answer"], case.get("question")
        )
        assert outcome.score in {0, 0.5, 1}, case["id"]
