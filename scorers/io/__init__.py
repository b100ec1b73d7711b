"""Reading and writing a run's files: JSON in every shape, atomic writes, scores.json."""
