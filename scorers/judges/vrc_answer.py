"""``vrc-answer``: VRC-Bench's 0/1 final-answer judge (mbzuai-oryx/LlamaV-o1).

Reference prompt and settings (``system_prompt_2``, the user f-string,
``max_tokens=10``, temperature 0). By default it compares the reference final
answer with the model's final answer, as the paper describes. The released
code instead substituted the ground-truth *steps* and the *whole* response;
``vrc_answer_mode="released"`` (``--vrc-answer-mode released``) reproduces
that. The mode used is stored in the verdict's metrics.
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
from scorers.judges.parsing import parse_binary
from scorers.judges.prompts import fence_if, fill_fields, load_prompt
from scorers.judges.vrc_steps import STEP_FIELDS, model_response
from scorers.records import Verdict, response_texts

MODES = ("final", "released")


def build_request(
    question: str, ground_truth: str, response: str, *, fenced: bool = False
) -> ChatRequest:
    shown = fence_if(fenced, response, "model-prediction")
    user = fill_fields(
        load_prompt("vrc_answer_user"),
        {"question": question, "ground_truth": ground_truth, "llm_response": shown},
    )
    return ChatRequest.of(
        [("system", load_prompt("vrc_answer_system")), ("user", user)],
        max_tokens=10,
        temperature=0.0,
    )


class VrcAnswerJudge:
    name = "vrc-answer"
    default_model = "gpt-4o-mini"
    grades_correctness = True

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict:
        source = f"judge:{self.name}"
        mode = opts.vrc_answer_mode
        if mode == "released":
            truth = text_field(record, *STEP_FIELDS)
            response = model_response(record)
            missing = "reference steps (field 'steps')"
        else:
            truth = text_field(record, "final_answer", "reference")
            response = response_texts(record).answer
            missing = "reference final answer (field 'final_answer' or 'reference')"
        if truth is None:
            return error_verdict(source, f"the record has no {missing}", model=opts.model)
        request = build_request(
            text_field(record, "question") or "", truth, response, fenced=opts.fence
        )
        verdict, _ = await ask(source, request, call, parse_binary, model=opts.model)
        verdict["metrics"] = {"mode": mode}
        return verdict


JUDGE = VrcAnswerJudge()
