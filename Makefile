# Every target sets itself up: a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint fmt clean mutate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/rome-tui review

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	@for f in benchmarks/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Mutation testing with mutmut, not part of `make test`: one module of scorers/ against the
# test files that import it or its package (or TESTS="tests/test_a.py ..."), slow tests left
# out; results are kept in .mutate/. Without MODULE: the core modules the README reports.
mutate: $(STAMP)
	$(BIN)/python tests/mutate.py $(or $(MODULE),--core) $(TESTS)

lint: $(STAMP)
	$(BIN)/ruff check scorers rome_tui tests benchmarks
	$(BIN)/ruff format --check scorers rome_tui tests benchmarks
	$(BIN)/mypy

fmt: $(STAMP)
	$(BIN)/ruff format scorers rome_tui tests benchmarks
	$(BIN)/ruff check --fix scorers rome_tui tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .mutate
