#!/usr/bin/env bash
# Prove the demo's outputs byte-identical between a git revision and the working tree (issue 10
# "Done when"): run `scripts/demo.sh` in a temporary copy of each (both sharing this checkout's
# .venv, each importing its own src/), normalise what legitimately differs on every run, and
# diff the two `out/` directories and the two demo logs.
#
#   scripts/demo_diff.sh [BASE_REV]        # BASE_REV defaults to main
#   KEEP=1 scripts/demo_diff.sh main       # keep the temporary copies (their path is printed)
#   REUSE_BASE=/tmp/aaaf-demo-diff.XXXX scripts/demo_diff.sh main
#                                          # take the base side from a kept run at the same commit
#
# What differs on every run, and how it is normalised (scripts/normalise_demo_out.py):
#   * the issuer's signing key is drawn at random: aaaf-issuer.key is left out, JWT signatures
#     are dropped (header and claims are compared), key ids and public keys become <key N>;
#   * ids drawn with uuid4 (agents, events, assessments, badges...) become <uuid N>, numbered
#     in order of first appearance, so references between files must still agree;
#   * wall-clock instants (created_at, issued_at, iat...) on the days the run took become
#     <now>; every evidence timestamp is fixed by the demo's NOW and is compared as is;
#   * aaaf.db is compared as a sorted dump of every table's rows; PNG badges as their text
#     chunks (normalised) plus a hash of their pixels;
#   * the log's "done in Ns", the out/ path, and the `aaaf verify` of the badge whose random
#     file name sorts first.
# A run that crosses midnight UTC numbers its wall-clock days from its first day, so instants
# written after midnight show as <run+1d> (and valid-until as <run+91d>): run again, or read
# those lines as the date shift they are.
# Exit 0: identical after normalisation; 1: differences (printed, unified diff).
set -euo pipefail
# both sides generate the same evidence: the demo's clock pinned (aaaf.demo.clock)
export AAAF_DEMO_NOW=${AAAF_DEMO_NOW:-2026-11-20T12:00:00Z}

# the whole script is one function, read before it runs: editing the file meanwhile is safe
main() {
  cd "$(dirname "$0")/.."
  ROOT=$PWD
  BASE=${1:-main}
  BASE_COMMIT=$(git rev-parse --verify "$BASE^{commit}")
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/aaaf-demo-diff.XXXXXX")
  if [ "${KEEP:-0}" = 1 ]; then
    echo "keeping $WORK"
  else
    trap 'rm -rf "$WORK"' EXIT
  fi

  # the base revision, as committed
  git clone --quiet --no-checkout "$ROOT" "$WORK/base"
  git -C "$WORK/base" checkout --quiet "$BASE_COMMIT"
  echo "$BASE_COMMIT" >"$WORK/base.rev"
  # the working tree as it is: tracked files (with uncommitted changes) and untracked, not ignored
  mkdir "$WORK/head"
  git ls-files --cached --others --exclude-standard -z |
    while IFS= read -r -d '' path; do
      if [ -f "$path" ]; then
        mkdir -p "$WORK/head/$(dirname "$path")"
        cp -p "$path" "$WORK/head/$path"
      fi
    done

  run_demo() {
    local side=$1
    ln -s "$ROOT/.venv" "$WORK/$side/.venv"
    date -u +%F >"$WORK/$side.days"
    echo "== demo at $side ($WORK/$side)"
    if ! (cd "$WORK/$side" && PYTHONPATH="$WORK/$side/src" bash scripts/demo.sh >"$WORK/$side.log" 2>&1); then
      echo "the demo failed at $side; its log:" >&2
      tail -n 40 "$WORK/$side.log" >&2
      exit 1
    fi
    date -u +%F >>"$WORK/$side.days"
    cp "$WORK/$side.log" "$WORK/$side/out/demo.log"
  }

  if [ -n "${REUSE_BASE:-}" ]; then
    if [ "$(cat "$REUSE_BASE/base.rev" 2>/dev/null)" != "$BASE_COMMIT" ]; then
      echo "REUSE_BASE=$REUSE_BASE was not run at $BASE_COMMIT" >&2
      exit 1
    fi
    echo "== demo at base: reusing $REUSE_BASE/base/out"
    cp -r "$REUSE_BASE/base/out" "$WORK/base/out"
    cp "$REUSE_BASE/base.log" "$REUSE_BASE/base.days" "$WORK/"
  else
    run_demo base
  fi
  run_demo head

  normalise() {
    local side=$1
    "$ROOT/.venv/bin/python" "$ROOT/scripts/normalise_demo_out.py" "$WORK/$side/out" "$WORK/$side.norm" \
      --days "$(sort -u "$WORK/$side.days" | paste -sd, -)"
  }
  normalise base
  normalise head

  echo "== diff of out/ (base $BASE_COMMIT vs the working tree), after normalisation"
  if diff -ru "$WORK/base.norm" "$WORK/head.norm"; then
    files=$(find "$WORK/head.norm" -type f | wc -l)
    echo "identical: $files normalised files (every file of out/ but aaaf-issuer.key)"
  else
    echo "outputs differ (see above)"
    exit 1
  fi
}

main "$@"
