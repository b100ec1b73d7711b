"""``vrc-steps``: VRC-Bench's 10-metric reasoning-step judge (mbzuai-oryx/LlamaV-o1).

The reference system prompt and strict JSON-schema ``response_format``,
``max_tokens=500``, temperature 0; the user message is the question, the
ground-truth steps and the model's response (reasoning + three newlines +
answer) as the released code joins them. The judge only sees text.
Servers that ignore ``response_format`` are handled by extracting the JSON
from the reply. Each metric must be a number in 1–10; the Overall score is
recomputed as their mean (the judge's own value is kept beside it), and the
verdict's score is that mean divided by 10.
"""

from __future__ import annotations

from typing import Any

from scorers.judges.base import (
    Call,
    ChatRequest,
    JudgeOptions,
    ask,
    error_verdict,
    text_field,
)
from scorers.judges.parsing import VRC_METRICS, VRC_OVERALL, parse_vrc_steps
from scorers.judges.prompts import fence_if, load_prompt
from scorers.records import Verdict, response_texts

STEP_FIELDS = ("steps", "reference_steps", "gt_steps")

RESPONSE_FORMAT: dict[str, Any] = {
    "type": "json_schema",
    "json_schema": {
        "name": "EvaluationScores",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {name: {"type": "number"} for name in (*VRC_METRICS, VRC_OVERALL)},
            "required": [*VRC_METRICS, VRC_OVERALL],
            "additionalProperties": False,
        },
    },
}


def model_response(record: dict[str, Any]) -> str:
    """The text VRC-Bench judges: ``llm_response`` if present, else reasoning + 3 newlines + answer."""
    given = text_field(record, "llm_response")
    if given is not None:
        return given
    texts = response_texts(record)
    return f"{texts.reasoning}\n\n\n{texts.answer}" if texts.reasoning else texts.answer


def build_request(question: str, steps: str, response: str, *, fenced: bool = False) -> ChatRequest:
    shown = fence_if(fenced, response, "model-response")
    user = question + "\n" + "Ground Truth : " + steps + "\n" + "LLM Response : " + shown
    return ChatRequest.of(
        [("system", load_prompt("vrc_steps_system")), ("user", user)],
        response_format=RESPONSE_FORMAT,
        max_tokens=500,
        temperature=0.0,
    )


class VrcStepsJudge:
    name = "vrc-steps"
    default_model = "gpt-4o-mini"
    grades_correctness = False

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict:
        source = f"judge:{self.name}"
        steps = text_field(record, *STEP_FIELDS)
        if steps is None:
            return error_verdict(
                source, "the record has no reference steps (field 'steps')", model=opts.model
            )
        request = build_request(
            text_field(record, "question") or "", steps, model_response(record), fenced=opts.fence
        )
        verdict, parsed = await ask(source, request, call, parse_vrc_steps, model=opts.model)
        if parsed.metrics:
            verdict["metrics"] = parsed.metrics
        return verdict


JUDGE = VrcStepsJudge()
