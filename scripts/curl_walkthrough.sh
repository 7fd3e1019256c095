#!/usr/bin/env bash
# The README's curl walkthrough (issue 13 "Done when"), runnable as is: with nothing but curl
# (and jq to read the answers) create an organization, enroll an agent, post a batch with two
# bad events (and see which were rejected and why), trigger an assessment, poll it to
# `completed`, fetch the badge and verify it.  tests/api/test_curl_walkthrough.py runs this
# very file against a live server on SQLite and on PostgreSQL, so the README cannot rot.
#
#   AAAF_ADMIN_KEY=… BASE=http://127.0.0.1:8000 bash scripts/curl_walkthrough.sh
set -euo pipefail

BASE=${BASE:-http://127.0.0.1:8000}
OUT=${OUT:-.}
: "${AAAF_ADMIN_KEY:?set AAAF_ADMIN_KEY to the admin key of the server}"
JSON='Content-Type: application/json'

# 1. an organization (the admin key creates it; its first API key is shown this once).
#    Small evidence minimums so that three tasks are enough for this walkthrough.
ORG=$(curl -sS --fail-with-body -X POST "$BASE/api/v1/organizations" \
  -H "Authorization: Bearer $AAAF_ADMIN_KEY" -H "$JSON" \
  -d "{\"name\": \"walkthrough-$(date +%s%N)\", \"minimum_tasks_performance\": 3, \"minimum_tasks_capability\": 3}")
KEY=$(echo "$ORG" | jq -r .api_key)
echo "organization: $(echo "$ORG" | jq -r .id)"
AUTH="Authorization: Bearer $KEY"

# 2. an agent
AGENT=$(curl -sS --fail-with-body -X POST "$BASE/api/v1/agents" -H "$AUTH" -H "$JSON" \
  -d '{"name": "security-auditor", "claimed_domains": ["code", "testing"]}' | jq -r .id)
echo "agent: $AGENT"

# 3. a batch: three tasks (assigned + completed) and two bad events
task() { # task ID HOURS_AGO DOMAIN: its task_assigned and task_completed events
  local assigned completed
  assigned=$(date -u -d "-$2 hours -30 minutes" +%Y-%m-%dT%H:%M:%SZ)
  completed=$(date -u -d "-$2 hours" +%Y-%m-%dT%H:%M:%SZ)
  echo "{\"id\": \"$1-a\", \"agent_id\": \"$AGENT\", \"type\": \"task_assigned\", \"timestamp\": \"$assigned\","
  echo " \"data\": {\"task_id\": \"$1\", \"complexity_level\": 2, \"domain\": \"$3\", \"assigned_at\": \"$assigned\"}},"
  echo "{\"id\": \"$1-c\", \"agent_id\": \"$AGENT\", \"type\": \"task_completed\", \"timestamp\": \"$completed\","
  echo " \"data\": {\"task_id\": \"$1\", \"completion_status\": \"accepted\", \"time_to_complete_seconds\": 1800,"
  echo "          \"revision_count\": 0, \"errors\": [],"
  echo "          \"review_checklist\": {\"memory_search_performed\": true, \"output_format_correct\": true}}},"
}
NOW=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
echo '{"events": ['
task task-1 30 code
task task-2 20 testing
task task-3 10 code
cat <<EOF
{"id": "bad-type", "agent_id": "$AGENT", "type": "task_teleported", "timestamp": "$NOW", "data": {}},
{"id": "bad-field", "agent_id": "$AGENT", "type": "task_completed", "timestamp": "$NOW",
 "data": {"task_id": "task-3", "completion_status": "accepted", "time_to_complete_seconds": "soon",
          "revision_count": 0, "errors": []}}
]}
EOF
} > "$OUT/batch.json"
BATCH=$(curl -sS --fail-with-body -X POST "$BASE/api/v1/events/batch" -H "$AUTH" -H "$JSON" -d @"$OUT/batch.json")
echo "batch: $(echo "$BATCH" | jq -c '{accepted, duplicates, rejected}')"
echo "$BATCH" | jq -r '.errors[] | "rejected: index \(.index) id \(.id) \(.code) \(.field): \(.error)"'

# 4. an assessment: 202 at once, scored off the request path
ASSESSMENT=$(curl -sS --fail-with-body -X POST "$BASE/api/v1/assessments" -H "$AUTH" -H "$JSON" \
  -d "{\"agent_id\": \"$AGENT\", \"type\": \"passive_only\"}" | jq -r .id)
echo "assessment: $ASSESSMENT"

# 5. poll it until it is completed (or failed), for at most a minute
STATUS=in_progress
for _ in $(seq 600); do
  STATUS=$(curl -sS --fail-with-body "$BASE/api/v1/assessments/$ASSESSMENT" -H "$AUTH" | jq -r .status)
  [ "$STATUS" = in_progress ] || [ "$STATUS" = pending ] || break
  sleep 0.1
done
echo "status: $STATUS"

# 6. the badge (issued a moment after completion), fetched and verified by anyone — no key
for _ in $(seq 300); do
  CODE=$(curl -sS -o "$OUT/badge.svg" -w '%{http_code}' "$BASE/api/v1/badges/$ASSESSMENT.svg")
  [ "$CODE" = 200 ] && break
  sleep 0.1
done
echo "badge: HTTP $CODE, $(wc -c < "$OUT/badge.svg") bytes of SVG"
curl -sS --fail-with-body "$BASE/api/v1/badges/$ASSESSMENT/verify" |
  jq -r '"verify: valid=\(.valid) revoked=\(.revoked) expired=\(.expired) agent=\(.agent_name)",
         "tiers: performance \(.performance_tier), capability \(.capability_tier)"'
