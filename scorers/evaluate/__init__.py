"""Rule evaluators: the reference grader (rome/), the corrected one (strict/), math matching."""
