"""The Textual review app: adjudicate grades, written back through ``scorers.adjudicate.store``."""
