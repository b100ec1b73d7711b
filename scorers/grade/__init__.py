"""Grading a run: one pair at a time (grader), files to files (run), a second process (worker)."""
