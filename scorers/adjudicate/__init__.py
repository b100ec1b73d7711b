"""A graded run open for human review: the store, the override journals, the annotator."""
