"""Renderers: the summary's Rich tables and the terminal scatter (no Textual), text formats.

``tables.summary_renderable`` and ``scatter.AccuracyTokensScatter`` are plain
Rich renderables, usable from the CLI and from a Textual ``Static`` alike;
``text`` writes JSON, CSV, Markdown and LaTeX; ``plot`` writes the PNG;
``judge_progress`` is the judge run's progress bar.
"""
