"""LLM judges over any OpenAI-compatible endpoint.

- ``base``: chat request/reply shapes and the judge protocol;
- ``client``: one AsyncOpenAI with bounded concurrency, retries, timeouts, redaction;
- ``cache``: the content-addressed reply cache kept beside a results directory;
- ``parsing``: reply parsers (one per protocol);
- ``rome``, ``vrc_steps``, ``vrc_answer``, ``mathreal``, ``rubric``: the judges;
- ``runner``: judging a set of records; ``grade_hook``: the ROME ``--use_llm_evaluator`` path;
- ``flags``: flags derived from judge verdicts.
"""
