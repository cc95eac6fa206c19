# Two entry points for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean rule-machine failure-points

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo

lint: $(STAMP)
	$(BIN)/ruff check companion tests bench firmware hardware
	$(BIN)/mypy --strict companion

test: lint
	$(BIN)/python -m pytest

# The Tamsk rule machine with a large budget (the suite runs a small one).
RULE_MACHINE_EXAMPLES ?= 2000
rule-machine: $(STAMP)
	RULE_MACHINE_EXAMPLES=$(RULE_MACHINE_EXAMPLES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/tamsk/test_rule_machine.py

# A real journal cut at every byte offset, each followed by every kind of garbage (the suite
# samples offsets with hypothesis).
failure-points: $(STAMP)
	FAILURE_POINTS=all $(BIN)/python -m pytest -q -s -p no:cacheprovider tests/journal/test_failure_points.py

bench: $(STAMP)
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache out
