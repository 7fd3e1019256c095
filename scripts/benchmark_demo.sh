#!/usr/bin/env bash
# Issue 20 §2: the anonymised cross-organization benchmark on demo data with several
# organizations (the demo fleet dealt out to opted-in organizations bench-org-1 …, assessed,
# then `aaaf benchmarks compute`).  ORGS and AGENTS_PER_ORG override the defaults (8 × 8).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
AAAF=.venv/bin/aaaf
NOW=2026-11-20T12:00:00Z
OUT=${OUT:-out/benchmark-demo}
ORGS=${ORGS:-8}
AGENTS_PER_ORG=${AGENTS_PER_ORG:-8}
export AAAF_DATABASE_URL=${AAAF_DATABASE_URL:-"sqlite:///$PWD/$OUT/aaaf.db"}

rm -rf "$OUT"
mkdir -p "$OUT"
echo "== $ORGS opted-in organizations × $AGENTS_PER_ORG demo agents: enroll, collect, assess, publish"
$PY -m aaaf.demo.benchmark_orgs --orgs "$ORGS" --agents-per-org "$AGENTS_PER_ORG" --now "$NOW"
echo "== the published cells (>= 5 organizations and >= 20 agents each)"
$AAAF benchmarks show
echo "== where bench-org-1's first agent stands"
first=$($AAAF --org bench-org-1 agents --json | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["name"])')
$AAAF --org bench-org-1 benchmarks standing "$first"
