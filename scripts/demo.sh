#!/usr/bin/env bash
# `make demo`: a realistic sample fleet on the embedded default (one SQLite file), end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
AAAF=.venv/bin/aaaf
# the demo's evidence ends at the start of this hour (the day it runs); AAAF_DEMO_NOW pins it
# (e.g. AAAF_DEMO_NOW=2026-11-20T12:00:00Z for byte-identical runs: scripts/demo_diff.sh)
NOW=$($PY -m aaaf.demo.clock)
OUT=${OUT:-out}
rm -rf "$OUT"
mkdir -p "$OUT/reports" "$OUT/badges"
OUT_ABS=$(cd "$OUT" && pwd)
export AAAF_DATABASE_URL="sqlite:///$OUT_ABS/aaaf.db"
start=$(date +%s)
echo "== the demo's clock: $NOW"
start=$(date +%s)

echo "== generating the sample fleet (deterministic)"
$PY -m aaaf.demo.fleet --output "$OUT/fleet.jsonl" --enrollment "$OUT/agents.json" --now "$NOW" --agents 30
$PY -m aaaf.demo.fleet --output "$OUT/newcomers.jsonl" --enrollment "$OUT/newcomers.json" --now "$NOW" \
  --only onboarding-guide,intern-bot
$PY -m aaaf.demo.trust --fleet "$OUT/agents.json" --output "$OUT/trust_evals.jsonl" --now "$NOW"
$PY -m aaaf.demo.workflow --output "$OUT/workflow_runs.jsonl" --definitions "$OUT/workflows" --now "$NOW"
$PY -m aaaf.demo.evals --output "$OUT/evals" --now "$NOW"

echo "== enroll, collect"
$AAAF enroll --file "$OUT/agents.json"
$AAAF collect --source task_logs "$OUT/fleet.jsonl" "$OUT/trust_evals.jsonl"

echo "== assess every agent (agents with too little evidence are reported, not fatal)"
$AAAF assess --all --type passive_only --window-end "$NOW" || test $? -eq 2

echo "== reports and badges"
$AAAF report --all --output "$OUT/reports" --at "$NOW"
$AAAF report --summary --output "$OUT/summary.md" --at "$NOW"
$AAAF badge --all --format svg,png,json,jwt,md --output "$OUT/badges"

echo "== two newcomers with too little evidence: reported, not fatal (exit 2 is expected)"
$AAAF enroll --file "$OUT/newcomers.json"
$AAAF collect --source task_logs "$OUT/newcomers.jsonl"
$AAAF assess intern-bot --window-end "$NOW" || test $? -eq 2

echo "== trust scores"
$AAAF trust --all --at "$NOW"
# scored again at the present, which records them (a score at a past --at is only shown): the
# dashboard's trust column and each agent's trust history start from these
$AAAF trust --all > /dev/null

echo "== workflow runs of a separate pool of 12 workflow agents: per-run scores and capped weights"
$AAAF collect --source task_logs "$OUT/workflow_runs.jsonl" --enroll --workflows "$OUT/workflows"
$AAAF workflow weights

echo "== A/B comparison of two eval runs"
$AAAF compare "$OUT/evals/control.json" "$OUT/evals/treatment.json" --html "$OUT/compare.html" --fail-on none || true

echo "== an agent with inflated self-reports: an audit of 20 % of its tasks refutes them and holds it"
$PY -m aaaf.demo.audit agent --output "$OUT/inflated.jsonl" --enrollment "$OUT/inflated.json" --now "$NOW"
$AAAF enroll --file "$OUT/inflated.json"
$AAAF collect --source task_logs "$OUT/inflated.jsonl"
$AAAF assess claims-bot --window-end "$NOW"
$AAAF audit sample claims-bot --window-end "$NOW" --seed 1 --output "$OUT/audit-claims-bot.jsonl"
$PY -m aaaf.demo.audit fill "$OUT/audit-claims-bot.jsonl" --output "$OUT/audit-claims-bot.filled.jsonl" --now "$NOW"
$AAAF audit record "$OUT/audit-claims-bot.filled.jsonl"
$AAAF audit status claims-bot --window-end "$NOW"
$AAAF assess claims-bot --window-end "$NOW"
$AAAF assessments claims-bot
$AAAF report claims-bot --output "$OUT/reports" --at "$NOW"

echo "== stress tests: a sample of the library, every kind of task, against the four reference agents (docs/stress-tests.md)"
OUT="$OUT_ABS" bash scripts/stress_demo.sh

echo "== the fleet"
$AAAF agents
$AAAF verify "$OUT/badges/security-auditor.png"
echo "done in $(( $(date +%s) - start ))s: reports in $OUT/reports, badges in $OUT/badges, summary $OUT/summary.md, comparison $OUT/compare.html"

# what the README's tour needs: the environment and the demo's database
echo "== now try the README's tour, from this folder:"
echo "  source .venv/bin/activate             # puts aaaf on the PATH"
echo "  export AAAF_DATABASE_URL=$OUT/aaaf.db   # the demo's database"
echo "  aaaf agents"

echo "== the dashboard"
read_key=$($AAAF keys create --scopes read --name dashboard --json | $PY -c 'import json, sys; print(json.load(sys.stdin)["api_key"])')
echo "Serve it (after the two lines above) with: aaaf serve --host 127.0.0.1 --port 8000"
echo "and sign in at http://127.0.0.1:8000/ with this read-only key: $read_key"
