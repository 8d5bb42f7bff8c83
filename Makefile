# Two commands on a fresh machine: `make run` (the service on 127.0.0.1) and `make test` (everything).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 3000

.PHONY: run test lint unit venv compile browser clean openapi csearch-diff

$(VENV)/.installed: requirements-dev.txt layers/connect6/requirements.txt layers/connect6/build-requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

venv: $(VENV)/.installed compile

# The engine's compiled core (python -m tools.compile_engine: mypyc, and Cython for the C search kernel, about
# 20-40 s, only when an engine source changed): extension modules beside the sources, never
# committed; without a C compiler the pure-Python engine stays. COMPILE=0 skips it (and `make test`
# then does not require it).
COMPILE ?= 1
compile: $(VENV)/.installed
ifeq ($(COMPILE),1)
	$(PY) -m tools.compile_engine
endif

# The C search kernel against the Python searches it mirrors, on more positions than
# tests/unit/ai/test_csearch.py (tools/lab/csearch_diff.py; about a minute): prints what it covered.
csearch-diff: compile
	$(PY) -m tools.lab.csearch_diff

run: venv
	$(PY) -m tools.local.local_api --port $(PORT)

# The OpenAPI document the local server serves, kept in docs/ (tests/e2e/test_http.py checks it is current).
openapi: venv
	$(PY) -m tools.local.local_api --write-openapi docs/openapi.json

# Chromium for the browser tests and poppler-utils (pdftotext, pdftoppm) for the paper sheets' tests:
# Debian's packages, installed through apt when run as root.
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null) \
	      || echo "warning: could not install chromium and poppler-utils; browser and PDF tests will be skipped"; \
	  else echo "warning: chromium or poppler-utils missing and not root; browser and PDF tests will be skipped"; fi; \
	fi

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

unit: venv
	$(VENV)/bin/pytest -q tests/unit

# Static analysis (docs/operations.md, "Static analysis"), each failing on anything new: checkov over
# template.yaml (suppressions with their reasons in the template), bandit over the layer and the
# handlers (bandit.yaml; every finding fixed or marked in the code with its reason: no baseline), and
# sam validate --lint. checkov and the SAM CLI pin boto3 apart from the layer and from each other, so
# each has its own virtualenv inside .venv (removed with it by make clean).
STATIC_ENV := AWS_DEFAULT_REGION=us-east-1 SAM_CLI_TELEMETRY=0
$(VENV)/checkov/.installed: requirements-checkov.txt
	$(PYTHON) -m venv $(VENV)/checkov
	$(VENV)/checkov/bin/python -m pip install --quiet -r requirements-checkov.txt
	touch $@
$(VENV)/sam/.installed: requirements-sam.txt
	$(PYTHON) -m venv $(VENV)/sam
	$(VENV)/sam/bin/python -m pip install --quiet -r requirements-sam.txt
	touch $@

.PHONY: static
static: venv $(VENV)/checkov/.installed $(VENV)/sam/.installed
	$(VENV)/checkov/bin/checkov --quiet --compact --skip-download --framework cloudformation -f template.yaml
	$(VENV)/bin/bandit -q -c bandit.yaml -r layers/connect6/connect6 functions
	$(STATIC_ENV) $(VENV)/sam/bin/sam validate --lint --template template.yaml

test: venv browser static
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	CONNECT6_EXPECT_COMPILED=$(COMPILE) $(VENV)/bin/pytest -q

clean:
	$(PYTHON) -m tools.compile_engine --clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .aws-sam
