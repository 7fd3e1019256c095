#!/usr/bin/env bash
# The stress-test part of `make demo`: a sample of the library with every kind of task (62 of its
# 126 tasks, aaaf.demo.stress_sample) against the four reference agents, then each scored from
# stress evidence alone — the spread oracle > heuristic > careless > random, which
# tests/stress/test_suite_reference_agents.py asserts on the same sample (the whole library
# against each agent is `make bench`: docs/stress-tests.md "The reference agents' spread").
set -euo pipefail
cd "$(dirname "$0")/.."
AAAF=.venv/bin/aaaf
OUT=${OUT:-out}
PARALLEL=${STRESS_PARALLEL:-4}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export AAAF_DATABASE_URL=${AAAF_DATABASE_URL:-sqlite:///$OUT/aaaf.db}
sample=$(.venv/bin/python -m aaaf.demo.stress_sample)
TASKS=()
for task in $sample; do TASKS+=(--task "$task"); done
for agent in oracle heuristic careless random; do
  # careless dawdles (it waits, it does not compute: 15 of these tasks, 4.5 to 22.5 s each):
  # four times as many of its tasks at a time, so that its waits overlap
  parallel=$PARALLEL; [ "$agent" = careless ] && parallel=$((PARALLEL * 4))
  echo "== stress test: the $agent reference agent ($(( ${#TASKS[@]} / 2 )) tasks of every kind, --parallel $parallel)"
  # `aaaf reference-agent NAME` is the same agent; `python -m` spares each task the CLI's start-up,
  # as the runs that measured the time baselines did (docs/stress-tests.md "Speed")
  $AAAF stress-test "ref-$agent" --agent-cmd ".venv/bin/python -m aaaf.stress.reference_agents $agent" "${TASKS[@]}" \
    --parallel "$parallel" \
    --log-dir "$OUT/stress-logs" --json > "$OUT/stress-run-$agent.json"
  $AAAF assess "ref-$agent" --type stress_test_only
done
echo "== inspect_ai logs of the runs (inspect view --log-dir $OUT/stress-logs)"
ls "$OUT/stress-logs"
