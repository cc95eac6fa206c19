# Two entry points for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean rule-machine catalogs failure-points solitaire-search

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# `LANG=fr make demo` (or cs): the OLED in the players' language.
demo: $(STAMP)
	$(BIN)/companion demo $(if $(filter fr% cs% en%,$(LANG)),--lang $(LANG))

# The players' language: extract the marked strings, merge them into each language's .po, then
# compile the .mo files the package ships (committed with their .po; tests/test_i18n.py checks
# they are current). Translate the new entries in the .po files between the two steps.
LOCALES := companion/locale
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k word:1,2c,2t --no-location --sort-output \
		--project companion --copyright-holder "companion authors" -o $(LOCALES)/companion.pot companion
	$(BIN)/pybabel update -D companion -i $(LOCALES)/companion.pot -d $(LOCALES) --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -D companion -d $(LOCALES) --statistics

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

# A solved Tantrix Solitaire found afresh (the suite replays the kept one,
# tests/scenarios/tantrix/s11_solitaire_solved_line.jsonl). SOLITAIRE_TARGET=loop tries a loop.
SOLITAIRE_TARGET ?= line
solitaire-search: $(STAMP)
	mkdir -p out
	$(BIN)/python tests/tantrix/solitaire_search.py --target $(SOLITAIRE_TARGET) --out out/solitaire_$(SOLITAIRE_TARGET).jsonl
	$(BIN)/companion simulate out/solitaire_$(SOLITAIRE_TARGET).jsonl

bench: $(STAMP)
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache out
