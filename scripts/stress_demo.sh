#!/usr/bin/env bash
# The stress-test part of `make demo` (issue 15): the whole library against the three reference
# agents, then each scored from stress evidence alone — the spread oracle > careless > random.
set -euo pipefail
cd "$(dirname "$0")/.."
AAAF=.venv/bin/aaaf
OUT=${OUT:-out}
PARALLEL=${STRESS_PARALLEL:-4}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export AAAF_DATABASE_URL=${AAAF_DATABASE_URL:-sqlite:///$OUT/aaaf.db}
for agent in oracle careless random; do
  echo "== stress test: the $agent reference agent (the whole library, --parallel $PARALLEL)"
  $AAAF stress-test "ref-$agent" --agent-cmd "$AAAF reference-agent $agent" --parallel "$PARALLEL" \
    --log-dir "$OUT/stress-logs" --json > "$OUT/stress-run-$agent.json"
  $AAAF assess "ref-$agent" --type stress_test_only
done
echo "== inspect_ai logs of the runs (inspect view --log-dir $OUT/stress-logs)"
ls "$OUT/stress-logs"
