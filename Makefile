# Every target sets itself up: a fresh machine with Python 3.11 needs nothing else (Java 17 is
# installed from Debian's packages when missing and we are root).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
INSTANCES ?= $(TOPOLOGIES)

.PHONY: check test validate bench mutation docs java spin clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $(STAMP)

java:
	@command -v java >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; \
	  else echo "PySpark 4.3 needs Java 17: install openjdk-17 and retry" >&2; exit 1; fi; }

# SPIN and a C compiler, for make bench's side-by-side anchor (checks/algorithms/scot/promela.py);
# where they cannot be installed the bench records why and goes on
spin:
	@command -v spin >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq spin gcc >/dev/null; \
	  else echo "make bench: SPIN's anchor needs spin and gcc (apt-get install spin gcc); skipped" >&2; fi; }

## make check: every check at default scope, a Spark validation on local[*], the summary table,
## reports/check.json, then docs/ regenerated from it. Fails if any verdict differs from the manifest.
check: $(STAMP) java
	$(BIN)/pubsub-proofs check --table
	$(BIN)/pubsub-proofs docs

## make test: the test suite (unit, hypothesis, Spark on local[2], a standalone Spark cluster), on
## one worker process per core (pytest-xdist; TEST_WORKERS=0 for one process), the long tests first.
TEST_WORKERS ?= auto
test: $(STAMP) java
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist load --maxschedchunk 1

## make validate: every algorithm's Spark job on its declaration's count of random instances
## (1,000,000 unless it says more; INSTANCES=... to change). Finished segments (about 30 s each) are kept: rerun to resume.
validate: $(STAMP) java
	set -e; algos=$$($(BIN)/pubsub-proofs list --names --spark); test -n "$$algos"; for algo in $$algos; do \
	  $(BIN)/pubsub-proofs validate $$algo $(if $(INSTANCES),--instances $(INSTANCES)) --json reports/validate/$$algo.json \
	    --counterexamples reports/validate --yes; done

## make bench: throughput figures, side by side in one run, written to reports/bench.json.
bench: $(STAMP) java spin
	$(BIN)/pubsub-proofs bench --out reports/bench.json

## make mutation: mutmut over reference/ and spec/, the score per module (a seeded sample of 60
## mutants per module; MUTATION=--all for every mutant), recorded in reports/bench.json under
## "mutation". With five algorithms' 15 modules a sample takes an hour or more on 2 cores (on
## 2026-11-29, 327 mutants of a 40-per-module sample in 17 min; a mutant that loops runs to its timeout).
MUTATION ?=
mutation: $(STAMP)
	$(BIN)/python -c "import mutmut" 2>/dev/null || $(BIN)/pip install --quiet --disable-pip-version-check mutmut==3.8.1
	$(BIN)/python -m checks.mutation $(MUTATION)

docs: $(STAMP)
	$(BIN)/pubsub-proofs docs

clean:
	rm -rf reports/spark reports/counterexamples reports/*.json mutants
