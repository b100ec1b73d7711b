"""MathReal's equivalence rules, one row per rule, graded by math_matching.

Each row: (rule, reference, response, expected partial score, expected strict).
The rule names follow the MathReal judge prompt's "Evaluation Principles".
"""

from __future__ import annotations

import pytest

from scorers.evaluate.mathmatch import math_matching

RULES: list[tuple[str, str, str, float, float]] = [
    # 1. Numerical core priority: explanatory text and variable names ignored
    ("1 explanatory text ignored", "12", "Therefore the result is: 12", 1.0, 1.0),
    ("1 variable name ignored", "5", "x = 5", 1.0, 1.0),
    ("1 chained equals: last value", "101", "a = b = 101", 1.0, 1.0),
    ("1 point name ignored", "(5,0)", "D(5, 0)", 1.0, 1.0),
    ("1 named quantity in the reference", "∠ABC=30°", r"30^\circ", 1.0, 1.0),
    ("1 markdown emphasis ignored", "5", "**Answer:** 5", 1.0, 1.0),
    # 2. Mathematical equivalence
    ("2 fraction = decimal", "1/2", "0.5", 1.0, 1.0),
    ("2 equivalent fractions", "1/2", "5/10", 1.0, 1.0),
    ("2 LaTeX fraction = decimal", r"\frac{3}{4}", "0.75", 1.0, 1.0),
    ("2 10 = 10.0", "10", "10.0", 1.0, 1.0),
    ("2 thousands separators (answer)", "1887800", "1,887,800", 1.0, 1.0),
    ("2 thousands separators (reference)", "1,887,800", "1887800", 1.0, 1.0),
    ("2 thousands separators (LaTeX)", "1887800", r"1{,}887{,}800", 1.0, 1.0),
    ("2 pi is not 3.14", r"\pi", "3.14", 0.0, 0.0),
    ("2 rounded decimal is not exact", r"\frac{1}{3}", "0.33", 0.0, 0.0),
    ("2 commutativity", "x^2 + y", "y + x^2", 1.0, 1.0),
    ("2 sign-sensitive surd", r"18+6\sqrt{3}", r"18-6\sqrt{3}", 0.0, 0.0),
    ("2 regrouped fraction", r"\frac{\sqrt{3}+3}{2}", r"\frac{\sqrt{3}}{2}+\frac{3}{2}", 1.0, 1.0),
    ("2 simplified surd", r"2\sqrt{5}", r"\sqrt{20}", 1.0, 1.0),
    ("2 unicode root", r"\frac{\sqrt{3}}{2}", "√3/2", 1.0, 1.0),
    ("2 expanded polynomial", "(x+1)^2", "x^2+2x+1", 1.0, 1.0),
    ("2 wrong factorisation", "x^2-1", "(x-1)^2", 0.0, 0.0),
    ("2 range: interval = inequality", r"x \in [0, 1]", r"0 \le x \le 1", 1.0, 1.0),
    ("2 range: inequality = interval", "x>3", r"(3,+\infty)", 1.0, 1.0),
    ("2 range: open pair = inequality", "(0, 12.5)", "0<x<12.5", 1.0, 1.0),
    ("2 range: endpoint closedness", r"x \ge 2", r"(2,+\infty)", 0.0, 0.0),
    ("2 range: union", "x<-1或x>2", r"(-\infty,-1)\cup(2,+\infty)", 1.0, 1.0),
    ("2 operator sensitivity", "2^{3}", r"2 \times 3", 0.0, 0.0),
    ("2 trigonometric identity", r"2\sin x\cos x", r"\sin(2x)", 1.0, 1.0),
    ("2 complex numbers (math-verify)", "3+4i", "4i+3", 1.0, 1.0),
    ("2 set notation, any order", "{1,2,3}", r"\{3,2,1\}", 1.0, 1.0),
    ("2 solution pair = point", "x=2,y=3", "(2,3)", 1.0, 1.0),
    ("2 plus-minus = two answers", r"x=\pm 2", "x=2 or x=-2", 1.0, 1.0),
    (
        "2 exact value beside its approximation",
        r"2\sqrt{2}",
        r"x = 2\sqrt{2} \approx 2.83",
        1.0,
        1.0,
    ),
    ("2 coordinate pair equal", "(5, 0)", "(5,0)", 1.0, 1.0),
    ("2 coordinate pair: one value wrong = 0.5", "(5, 0)", "(5, 1)", 0.5, 0.0),
    ("2 whitespace in equation", "y=2x+3", "y = 2 x + 3", 1.0, 1.0),
    ("2 equation rearranged", "2x+4y-3=0", "y=-1/2x+3/4", 1.0, 1.0),
    ("2 equation with wrong sign", "y=2x+3", "y=2x-3", 0.0, 0.0),
    # 3. Unit handling
    ("3 reference without unit accepts a unit", "15", "15 m", 1.0, 1.0),
    ("3 wrong unit is wrong", "15 m", "15 cm", 0.0, 0.0),
    ("3 missing unit is fine", "15 m", "15", 1.0, 1.0),
    ("3 unit formatting ignored", r"180 \text{ dm}^2", "180dm^2", 1.0, 1.0),
    ("3 Chinese unit = symbol", "100.48立方分米", r"100.48 \text{ dm}^3", 1.0, 1.0),
    ("3 same quantity, other unit", "1.5m", "150 cm", 1.0, 1.0),
    ("3 wrong dimension", "12 cm^2", "12 cm", 0.0, 0.0),
    # Areas and volumes convert by the square and cube of the length factor.
    ("3 area in other unit", "1 m^2", "10000 cm^2", 1.0, 1.0),
    ("3 area is not converted linearly", "1 m^2", "100 cm^2", 0.0, 0.0),
    ("3 area in Chinese units", "2平方米", "20000平方厘米", 1.0, 1.0),
    ("3 volume in other unit", "1 dm^3", "1000 cm^3", 1.0, 1.0),
    ("3 volume is not converted linearly", "1 m^3", "100 cm^3", 0.0, 0.0),
    ("3 degrees", "30°", r"30^\circ", 1.0, 1.0),
    ("3 degrees = radians", "60°", r"\frac{\pi}{3}", 1.0, 1.0),
    ("3 unit in words", "60 km/h", "60 kilometers per hour", 1.0, 1.0),
    ("3 counted noun", "6", "6 people", 1.0, 1.0),
    ("3 counted noun in a sentence", "8", "There are 8 triangles in total.", 1.0, 1.0),
    ("3 imperial unit is a wrong unit", "15 cm", "15 inches", 0.0, 0.0),
    # 4. Multi-part answers
    ("4 blanks split on ;", "1256;6280", "1256; 6280", 1.0, 1.0),
    ("4 blanks: one wrong", "9;9;24", "9;9;25", 0.67, 0.0),
    ("4 blanks: order respected", "1256;6280", "6280;1256", 0.0, 0.0),
    ("4 blanks: duplicate kept", "9;9;24", "9;24", 0.67, 0.0),
    ("4 blanks split on newlines", "3\n4", "3\n4", 1.0, 1.0),
    (
        "4 blanks split on (1) (2)",
        "(1)1800mL;\n(2)B;\n(3)2280cm^2.",
        "1800 mL; B; 2280 cm^2",
        1.0,
        1.0,
    ),
    ("4 labelled answer blanks", "3;4;5", "(1) 3 (2) 4 (3) 6", 0.67, 0.0),
    ("4 selections: one of two", "②;③", "②", 0.5, 0.0),
    ("4 selections reordered", "②;③", "③;②", 1.0, 1.0),
    ("4 selections in words", "②;③;⑤", "materials ② and ⑤", 0.67, 0.0),
    ("4 or: one of two", r"5 \text{ or } -75", "5", 0.5, 0.0),
    ("4 or: reordered", r"5 \text{ or } -75", r"-75 \text{ or } 5", 1.0, 1.0),
    ("4 or: 或", "700cm^2或650cm^2", "700 or 650", 1.0, 1.0),
    ("4 or: glued 'or'", "5or-75", "x=5 or x=-75", 1.0, 1.0),
    ("4 or: candidates for one value are no answer", "5", "5 or -5", 0.0, 0.0),
    ("4 or: candidates as equations are no answer", "5", "x = 5 or x = 6", 0.0, 0.0),
    ("4 or: one value written two ways is one candidate", "3/4", "0.75 or 3/4", 1.0, 1.0),
    ("4 or: one quantity in two units, the first read", "1.5", "1.5 h or 90 min", 1.0, 1.0),
    ("4 or: one quantity in two units, not the second", "90", "1.5 h or 90 min", 0.0, 0.0),
    ("4 ratio written with 'to'", "4/7", "4 to 7", 1.0, 1.0),
    ("4 ratio written 'out of', alone", "3/10", "3 out of 10", 1.0, 1.0),
    ("4 'out of' against a whole number is a count", "3", "3 out of 10", 1.0, 1.0),
    ("4 'out of' is no other count", "10", "3 out of 10", 0.0, 0.0),
    ("2 decimal comma for one value", "0.75", "0,75", 1.0, 1.0),
    ("2 dotted thousands", "3400000", "3.400.000", 1.0, 1.0),
    ("2 vulgar fraction", "0.75", "¾", 1.0, 1.0),
    ("1 a formula line is kept whole", "y=3x+2", "3x - y + 2 = 0", 1.0, 1.0),
    ("1 functions without a backslash", r"\cos(3t)", "cos(3t)", 1.0, 1.0),
    ("6 no solution in either language", "无解", "The system has no solutions.", 1.0, 1.0),
    ("6 no solution: the empty set", r"\varnothing", "none", 1.0, 1.0),
    ("6 no solution is no value", "3", "There are no real roots.", 0.0, 0.0),
    ("2 vulgar fraction after a whole number", "13/4", "3¼", 1.0, 1.0),
    ("2 mixed number", "11/4", "2 3/4", 1.0, 1.0),
    ("2 a whole number beside an improper fraction is no mixed number", "11/2", "3 5/2", 0.0, 0.0),
    ("2 comma list for two values", "3; 4", "3,4", 1.0, 1.0),
    (
        "4 or: an extra candidate beside listed solutions costs a share",
        "5 or 3",
        "5 or 3 or -5",
        0.67,
        0.0,
    ),
    ("4 points: 1/n each", "(1,0),(9,8),(-1,9)", "(1,0),(9,8)", 0.67, 0.0),
    ("4 points reordered", "(1,0),(9,8),(-1,9)", "(-1,9),(1,0),(9,8)", 1.0, 1.0),
    ("4 points: half a point", "(1,0),(9,8)", "(1,0),(9,7)", 0.75, 0.0),
    (
        "4 judge example 1",
        "(1)①(5,0);\n②(15,0)or(-5,0);\n(2)5or-75.",
        r"D(5, 0); E(15, 0) \text{ or } E(-5, 0); 5",
        0.83,
        0.0,
    ),
    ("4 judge example 2", "②;③;⑤", "② and ⑤", 0.67, 0.0),
    ("4 selections written as numbers", "②;③;⑤", "Statements 2 and 5 are correct.", 0.67, 0.0),
    # 5. Multiple choice
    ("5 letter alone", "B", "B", 1.0, 1.0),
    ("5 letter with period", "B", "B.", 1.0, 1.0),
    ("5 'Option B'", "B", "Option B", 1.0, 1.0),
    ("5 letter with option text", "B", "B. f'(x_0) > g'(x_0)", 1.0, 1.0),
    ("5 'you selected B'", "B", "you selected B", 1.0, 1.0),
    ("5 two options named", "B", "B and C", 0.0, 0.0),
    ("5 wrong option", "B", "C", 0.0, 0.0),
    ("5 reference with option text", "B. 12", "B", 1.0, 1.0),
    ("5 options listed, one concluded", "C", "Of A, B, C and D only C works.", 1.0, 1.0),
    ("5 rejected option mentioned first", "B", "A is wrong, so B", 1.0, 1.0),
    # 6. Semantic equivalence
    ("6 'materials ② and ③'", "②;③", "materials ② and ③", 1.0, 1.0),
    ("6 'the answer is'", "7", "the answer is 7", 1.0, 1.0),
    ("6 yes/no in either language", "(1)存在;(2)不存在", "(1) Yes (2) No", 1.0, 1.0),
    ("6 yes/no differs", "存在", "No, it does not", 0.0, 0.0),
    ("6 same words, any case", "Isosceles triangle", "an isosceles triangle", 1.0, 1.0),
    # 7. Proof or drawing blanks
    ("7 proof blank accepted", "(1)证明略;(2)4", "(1) shown above (2) 4", 1.0, 1.0),
    ("7 proof blank accepted, other wrong", "(1)证明见解析;(2)4", "(2) 5", 0.5, 0.0),
]


@pytest.mark.parametrize(
    ("rule", "reference", "response", "partial", "strict"), RULES, ids=[r[0] for r in RULES]
)
def test_mathreal_rule(
    rule: str, reference: str, response: str, partial: float, strict: float
) -> None:
    outcome = math_matching(response, answer=reference)
    assert outcome.score == pytest.approx(partial, abs=0.01), outcome.parts
    assert outcome.strict == strict, outcome.parts


@pytest.mark.parametrize(
    ("question_type", "expected"),
    [
        ("Proof", 1.0),
        ("proof question", 1.0),
        ("Drawing", 1.0),
        ("作图题", 1.0),
        ("ConstructedResponse", 0.0),
    ],
)
def test_proof_and_drawing_question_types_accept_any_answer(
    question_type: str, expected: float
) -> None:
    outcome = math_matching("I could not finish.", answer="12", question_type=question_type)
    assert outcome.score == expected
    assert outcome.strict == expected


def test_multi_select_choices_with_question_type() -> None:
    assert math_matching(r"\boxed{A, C}", answer="AC", question_type="MultipleChoice").strict == 1.0
    partial = math_matching(r"\boxed{A}", answer="AC", question_type="MultipleChoice")
    assert (partial.score, partial.strict) == (0.5, 0.0)


def test_extra_choices_cost_a_share() -> None:
    """Naming every option must not earn full marks: each extra choice costs a share."""
    extra = math_matching(r"\boxed{A, C, D}", answer="AC", question_type="MultipleChoice")
    assert (extra.score, extra.strict) == (pytest.approx(2 / 3, abs=0.01), 0.0)
    every = math_matching(r"\boxed{ABCD}", answer="AC", question_type="MultipleChoice")
    assert (every.score, every.strict) == (0.5, 0.0)
    circled = math_matching(r"\boxed{②③⑤}", answer="②;③")
    assert circled.strict == 0.0 and circled.score == pytest.approx(2 / 3, abs=0.01)
