"""``mathreal``: MathReal's extract-then-judge (junfeng0288/MathReal, evaluate/*.py).

Step 1 takes every ``\\boxed{...}`` of the final answer (nested braces
counted), joined with ``"; "``; only when there is none does it ask the
extraction prompt. Step 2 sends the reference answer (``AnswerCN``, else
``reference``), the question type and the extracted answer to the
equivalence judge and reads ``<score>x</score>`` (else the reference's
last-number fallback, marked ``regex-fallback``). The score is partial credit
(loose accuracy); ``strict`` is 1 only for a full 1.0, as the reference
computes it. Unlike the reference, a failed call is a judge error, not a 0,
and so is an extraction that comes back null or empty: the reference would
send the empty string to the equivalence judge, whose 0 would then look like
a wrong answer. (A literal ``null`` is the extraction prompt's own "cannot be
determined" and is judged, as the reference does.)
"""

from __future__ import annotations

from typing import Any

from scorers.judges.base import (
    Call,
    ChatRequest,
    JudgeOptions,
    add_usage,
    ask,
    empty_reply_problem,
    error_verdict,
    text_field,
)
from scorers.judges.parsing import parse_mathreal
from scorers.judges.prompts import fence_if, fill_fields, load_prompt
from scorers.records import Verdict, response_texts

REFERENCE_FIELDS = ("AnswerCN", "reference", "AnswerEN")
TYPE_FIELDS = ("QuestionType", "question_type")


def boxed_contents(text: str) -> list[str]:
    """The content of every ``\\boxed{...}``, stripped, with nested braces balanced.

    An unclosed box is skipped, as in the reference.
    """
    found: list[str] = []
    marker = "\\boxed{"
    i = 0
    while True:
        start = text.find(marker, i)
        if start == -1:
            return found
        open_at = start + len(marker) - 1
        depth = 0
        for j in range(open_at, len(text)):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    found.append(text[open_at + 1 : j].strip())
                    i = j + 1
                    break
        else:
            i = open_at + 1


def extraction_request(response: str, *, fenced: bool = False) -> ChatRequest:
    shown = fence_if(fenced, response, "model-answer")
    test = fill_fields(load_prompt("mathreal_extract_test"), {"response": shown})
    return ChatRequest.of(
        [("user", load_prompt("mathreal_extract").strip() + "\n\n" + test)], temperature=0
    )


def judge_request(
    question_type: str, reference: str, answer: str, *, fenced: bool = False
) -> ChatRequest:
    shown = fence_if(fenced, answer, "model-answer")
    prompt = fill_fields(
        load_prompt("mathreal_eval"),
        {"question_type": question_type, "gt_answer": reference, "model_answer": shown},
    )
    return ChatRequest.of([("user", prompt)], temperature=0)


class MathRealJudge:
    name = "mathreal"
    default_model = "gpt-4.1-nano"
    grades_correctness = True

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict:
        source = f"judge:{self.name}"
        reference = text_field(record, *REFERENCE_FIELDS)
        if reference is None:
            return error_verdict(
                source,
                "the record has no reference answer (field 'AnswerCN' or 'reference')",
                model=opts.model,
            )
        answer = text_field(record, "raw_output") or response_texts(record).answer
        usage: dict[str, int] = {}
        boxes = boxed_contents(answer)
        extraction_raw: str | None = None
        if boxes:
            extracted, how = "; ".join(boxes), "boxed"
        else:
            request = extraction_request(answer, fenced=opts.fence)
            reply = await call(request)
            add_usage(usage, reply.usage)
            problem = empty_reply_problem(reply)
            reply.settle(problem is None)
            if problem is not None:
                verdict = error_verdict(
                    source,
                    f"extraction failed: {problem}",
                    model=opts.model,
                    prompt_hash=request.prompt_hash(),
                    raw="" if reply.error is None else None,
                    usage=usage,
                )
                verdict["metrics"] = {"extraction": "llm"}
                return verdict
            extraction_raw = reply.content or ""
            extracted, how = extraction_raw.strip(), "llm"
        request = judge_request(
            text_field(record, *TYPE_FIELDS) or "", reference, extracted, fenced=opts.fence
        )
        verdict, parsed = await ask(
            source,
            request,
            call,
            parse_mathreal,
            model=opts.model,
            extracted=extracted,
            usage=usage,
        )
        if verdict.get("error") is None and parsed.score is not None:
            verdict["strict"] = 1.0 if parsed.score == 1.0 else 0.0
        metrics: dict[str, Any] = {"extraction": how}
        if extraction_raw is not None:
            metrics["extraction_raw"] = extraction_raw
        if how == "llm" and extracted == "null":
            metrics["extraction_null"] = True
        verdict["metrics"] = metrics
        verdict["extracted"] = extracted
        return verdict


JUDGE = MathRealJudge()
