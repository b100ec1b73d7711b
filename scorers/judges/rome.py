"""``rome``: the ROME grader's LLM judge (flageval-baai/ROME-evaluation, spec §6).

Same prompt, same call settings (temperature 0, top_p 1, one user message),
same inputs: the question, the reference and the *unextracted* final answer.
The verdict comes from the last ``Judgement:`` line; ``--parse rome``
reproduces the reference parser, first-number quirk included.
"""

from __future__ import annotations

from typing import Any

from scorers.judges.base import Call, ChatRequest, JudgeOptions, ask, text_field
from scorers.judges.parsing import parse_rome_reference, parse_rome_robust
from scorers.judges.prompts import fence_if, load_prompt
from scorers.records import Verdict, response_texts

PROMPT = "rome_llm_eval"
PARSERS = {"rome": parse_rome_reference, "robust": parse_rome_robust}


def build_request(
    question: str, reference: str, answer: str, *, fenced: bool = False
) -> ChatRequest:
    """The reference's three ``str.replace`` calls, in its order.

    With ``fenced`` the answer is wrapped in a tagged fence inside the
    substituted value; the template itself is left byte for byte.
    """
    shown = fence_if(fenced, answer, "model-answer")
    prompt = (
        load_prompt(PROMPT)
        .replace("{{question}}", question)
        .replace("{{answer}}", reference)
        .replace("{{extracted_answer}}", shown)
    )
    return ChatRequest.of([("user", prompt)], temperature=0, top_p=1)


class RomeJudge:
    name = "rome"
    default_model = "gpt-4.1-mini"
    grades_correctness = True

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict:
        request = build_request(
            text_field(record, "question") or "",
            text_field(record, "reference") or "",
            response_texts(record).answer,
            fenced=opts.fence,
        )
        verdict, _ = await ask(
            f"judge:{self.name}", request, call, PARSERS[opts.parse], model=opts.model
        )
        return verdict


JUDGE = RomeJudge()
