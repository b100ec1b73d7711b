"""LLM judges over any OpenAI-compatible endpoint.

- ``base``: chat request/reply shapes and the judge protocol;
- ``client``: one aiohttp session with bounded concurrency, retries, timeouts, pacing, redaction;
- ``pacing``: per-minute token buckets and the concurrency cap that halves on 429;
- ``cache``: the content-addressed cache of replies that parsed, kept beside a results directory;
- ``parsing``: reply parsers (one per protocol), fallbacks marked;
- ``rome``, ``vrc_steps``, ``vrc_answer``, ``mathreal``, ``rubric``: the judges;
- ``runner``: judging a set of records; ``run``: a run from files to files (live, Batch files);
- ``batchfile``: the OpenAI Batch input/output formats; ``batch_api``: the Batch API round trip;
- ``panel``: a panel verdict from several judge models; ``cost``: tokens and dollars of a run;
- ``grade_hook``: the ROME ``--use_llm_evaluator`` path; ``flags``: flags from judge verdicts.
"""
