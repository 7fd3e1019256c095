#!/usr/bin/env bash
# Runs `aaaf gate` in CI: the one script the composite action (action.yml) runs,
# usable as is from any CI (docs/ci.md has a GitLab CI job).  Its inputs are environment
# variables, named as a GitHub Action maps its inputs:
#
#   INPUT_BASELINE, INPUT_CANDIDATE   two eval run files (any format `aaaf compare` reads), or
#   INPUT_AGENT with INPUT_AGENT_CMD | INPUT_AGENT_URL + INPUT_MODEL
#                                     an agent put through the stress suite and compared with
#                                     its stored baseline (INPUT_BASELINE_ASSESSMENT to name one;
#                                     INPUT_PROMOTE=true makes this run's assessment the baseline)
#   INPUT_FAIL_ON                     default regress,tier-drop
#   INPUT_OUTPUT_DIR                  where the files go (default aaaf-gate)
#   INPUT_DATABASE                    agent mode: the AAAF database (path or URL)
#   INPUT_LIBRARY                     agent mode: a directory of the organization's own tasks
#   INPUT_EXTRA_ARGS                  more `aaaf gate` options, split on spaces
#   AAAF                              the aaaf command (default: aaaf on PATH)
#
# Writes <output-dir>/summary.md, junit.xml, report.html and gate.json; appends the summary to
# $GITHUB_STEP_SUMMARY when set (aaaf gate does); writes the outputs verdict, passed,
# exit-code, summary, junit, html, json and (agent mode) assessment to $GITHUB_OUTPUT when set.  Exits with the gate's
# code: 0 pass, 1 a --fail-on condition holds, 2 bad input.
set -uo pipefail

aaaf="${AAAF:-aaaf}"
out="${INPUT_OUTPUT_DIR:-aaaf-gate}"
fail_on="${INPUT_FAIL_ON:-regress,tier-drop}"
mkdir -p "$out"

args=(gate --fail-on "$fail_on" --junit "$out/junit.xml" --summary "$out/summary.md" --html "$out/report.html" --json)
if [ -n "${INPUT_AGENT:-}" ]; then
  args+=(--agent "$INPUT_AGENT")
  [ -n "${INPUT_AGENT_CMD:-}" ] && args+=(--agent-cmd "$INPUT_AGENT_CMD")
  [ -n "${INPUT_AGENT_URL:-}" ] && args+=(--agent-url "$INPUT_AGENT_URL")
  [ -n "${INPUT_MODEL:-}" ] && args+=(--model "$INPUT_MODEL")
  [ -n "${INPUT_BASELINE_ASSESSMENT:-}" ] && args+=(--baseline-assessment "$INPUT_BASELINE_ASSESSMENT")
  [ "${INPUT_PROMOTE:-false}" = "true" ] && args+=(--promote)
  [ -n "${INPUT_DATABASE:-}" ] && args+=(--db "$INPUT_DATABASE")
  [ -n "${INPUT_LIBRARY:-}" ] && args+=(--library "$INPUT_LIBRARY")
  args+=(--log-dir "$out/stress-logs")
elif [ -n "${INPUT_BASELINE:-}" ] && [ -n "${INPUT_CANDIDATE:-}" ]; then
  args+=("$INPUT_BASELINE" "$INPUT_CANDIDATE")
else
  echo "::error::aaaf gate: give the inputs baseline and candidate (two eval runs), or agent with agent-cmd or agent-url" >&2
  code=2
fi
if [ -n "${INPUT_EXTRA_ARGS:-}" ]; then
  read -r -a extra <<<"$INPUT_EXTRA_ARGS"
  args+=("${extra[@]}")
fi

if [ -z "${code:-}" ]; then
  "$aaaf" "${args[@]}" >"$out/gate.json"
  code=$?
fi

verdict=""
assessment=""
passed="false"
if [ "$code" -le 1 ] && [ -s "$out/gate.json" ]; then
  # the verdict from the gate's JSON, read by the Python aaaf runs on
  python_bin="$(dirname "$(command -v "$aaaf")")/python"
  [ -x "$python_bin" ] || python_bin="python3"
  verdict="$("$python_bin" -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$out/gate.json" 2>/dev/null || true)"
  if [ -n "${INPUT_AGENT:-}" ]; then
    assessment="$("$python_bin" -c 'import json,sys; print(json.load(open(sys.argv[1]))["candidate"])' "$out/gate.json" 2>/dev/null || true)"
  fi
  [ "$code" -eq 0 ] && passed="true"
  sed -n '1,200p' "$out/summary.md"
else
  cat "$out/gate.json" 2>/dev/null
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "verdict=$verdict"
    echo "assessment=$assessment"
    echo "passed=$passed"
    echo "exit-code=$code"
    echo "summary=$out/summary.md"
    echo "junit=$out/junit.xml"
    echo "html=$out/report.html"
    echo "json=$out/gate.json"
  } >>"$GITHUB_OUTPUT"
fi
if [ "$code" -eq 1 ]; then
  echo "::error::aaaf gate failed: ${verdict:-?} (see $out/summary.md)" >&2
fi
exit "$code"
