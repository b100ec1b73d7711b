"""Flags: what a reviewer should look at. ``flagging`` rebuilds a record's flags from
the detectors: ``verdicts`` (verdict disagreements, judge errors, overrides) and
``behaviour`` (thinking/answer misalignment, hedging, tool claims; no LLM)."""
