"""``rubric``: the LRM-Eval behaviour rubric (arXiv 2509.17177, Appendix B.1).

One call per record shows the question, the reasoning, the final answer and
the reference, and asks each rubric question for a justification and YES,
NO or N/A. The answers are kept in the verdict's metrics; the YES answers to
the behaviour questions become flags (``scorers.judges.flags``). The verdict's
score is question 1 (does the answer match the reference): 1 for YES, 0 for
NO, null for N/A.
"""

from __future__ import annotations

from typing import Any

from scorers.judges.base import Call, ChatRequest, JudgeOptions, text_field, verdict_of_reply
from scorers.judges.parsing import parse_rubric
from scorers.judges.prompts import fence_if, fill_fields, load_prompt
from scorers.records import Verdict, response_texts

VARIANTS = ("default", "visual")

# Question number -> the column name the paper reports it under.
COLUMNS: dict[str, dict[int, str]] = {
    "default": {
        1: "Correct",
        2: "Incons Ans",
        3: "Guess",
        4: "Incons Cert",
        5: "Redund.",
        6: "Hallu. Search",
        7: "Hallu. Tools",
        8: "Ign Fmt",
        9: "Ign Neg",
    },
    "visual": {
        1: "Correct",
        2: "Incons Ans",
        3: "Guess",
        4: "Incons Cert",
        5: "Redund.",
        6: "Hallu. Search",
        7: "Img Proc",
        8: "Hallu. Tools",
        9: "Ign Fmt",
        10: "Ign Neg",
    },
}

# Paper column -> rome-tui flag kind. Guess, redundancy and the instruction
# columns have no flag kind; their answers stay in the verdict's metrics.
FLAG_OF_COLUMN: dict[str, str] = {
    "Incons Ans": "answer_contradicts_reasoning",
    "Incons Cert": "hedged_reasoning_certain_answer",
    "Hallu. Search": "claims_web_search",
    "Hallu. Tools": "claims_tool_use",
    "Img Proc": "claims_tool_use",
}


def questions(variant: str) -> str:
    return load_prompt(f"lrm_rubric_{variant}").rstrip("\n")


def build_request(
    question: str,
    reasoning: str,
    answer: str,
    reference: str,
    *,
    variant: str = "default",
    fenced: bool = False,
) -> ChatRequest:
    reasoning = fence_if(fenced, reasoning, "model-reasoning")
    answer = fence_if(fenced, answer, "model-answer")
    prompt = fill_fields(
        load_prompt("lrm_rubric_template"),
        {
            "question": question,
            "reasoning": reasoning,
            "answer": answer,
            "ref_answer": reference,
            "rubric_questions": questions(variant),
        },
    )
    return ChatRequest.of([("user", prompt)], temperature=0)


class RubricJudge:
    name = "rubric"
    default_model = "gpt-4.1-mini"
    grades_correctness = False

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict:
        variant = opts.rubric
        texts = response_texts(record)
        request = build_request(
            text_field(record, "question") or "",
            texts.reasoning,
            texts.answer,
            text_field(record, "reference") or "",
            variant=variant,
            fenced=opts.fence,
        )
        reply = await call(request)
        columns = COLUMNS[variant]
        answers, missing = parse_rubric(reply.content, len(columns))
        error = (
            None if answers else "no rubric answers (YES/NO/N/A per numbered question) in the reply"
        )
        first = answers.get(1)
        score: float | None = None
        if first is not None and first.answer in ("YES", "NO"):
            score = 1.0 if first.answer == "YES" else 0.0
        verdict = verdict_of_reply(
            f"judge:{self.name}",
            model=opts.model,
            request=request,
            reply=reply,
            score=(0.0 if score is None else score) if answers else None,  # real value set below
            parse="numbered-answers" if not missing else "numbered-answers-partial",
            error=error,
            explanation=f"no answer to question(s) {', '.join(map(str, missing))}"
            if answers and missing
            else None,
        )
        if answers and verdict.get("error") is None:
            # A rubric verdict with N/A for question 1 has no correctness score
            # but is not an error: keep it, score null.
            verdict["score"] = score
            verdict["metrics"] = {
                "variant": variant,
                "answers": {
                    str(n): {
                        "column": columns[n],
                        "answer": a.answer,
                        "justification": a.justification,
                    }
                    for n, a in sorted(answers.items())
                },
                "missing": missing,
            }
        return verdict


JUDGE = RubricJudge()
