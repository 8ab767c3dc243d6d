#!/usr/bin/env bash
# README's walkthrough, as a script CI runs (scripts/test.sh): the lines between the two markers
# are exactly the README block (test/docs/readme-walkthrough.test.ts keeps them equal), so what
# the README shows is what runs. Needs curl and jq. BRABO_WALKTHROUGH_PORT picks another port.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${BRABO_WALKTHROUGH_PORT:-4700}"
cleanup() {
  [ -n "${RUNNER:-}" ] && kill "$RUNNER" 2>/dev/null && wait "$RUNNER" 2>/dev/null
  [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  [ -n "${DEMO:-}" ] && rm -rf "$DEMO"
  return 0
}
trap cleanup EXIT
# --- README walkthrough begins ---
# Needs curl and jq. One shell; PORT=4700 unless you set it.
export BRABO_ADMIN_TOKEN=walkthrough-admin-token-0123456789
B=http://127.0.0.1:${PORT:-4700}; H="authorization: Bearer $BRABO_ADMIN_TOKEN"; J='content-type: application/json'
DEMO=$(mktemp -d); mkdir -p "$DEMO/project"       # DEMO/project plays your project folder
./bin/brabo serve --port "${PORT:-4700}" --data-dir "$DEMO/data" >"$DEMO/serve.log" 2>&1 &
SERVER=$!
until curl -sf "$B/readyz" >/dev/null; do sleep 0.5; done   # ready: the store answers

# 1. a runner project (its commands run on your machine) and an agent member (the admin token provisions)
PROJECT=$(curl -sf -H "$H" -H "$J" -d "{\"name\":\"Demo\",\"executionMode\":\"runner\",\"root\":\"$DEMO/project\",\"ownerId\":\"olivia\"}" "$B/api/projects" | jq -r .id)
curl -sf -X PUT -H "$H" -H "$J" -d '{"role":"developer","kind":"agent"}' "$B/api/projects/$PROJECT/members/agent-1" >/dev/null
# tokens for olivia (a person) and for agent-1 (bound to this project and agent), each shown once
OLIVIA="authorization: Bearer $(./bin/brabo token mint --url "$B" --kind human --member olivia)"
AGENT="authorization: Bearer $(./bin/brabo token mint --url "$B" --kind agent --project "$PROJECT" --agent agent-1)"
# 2. permissions.json: `ls` runs without asking; anything else waits for a human (set by olivia)
curl -sf -X PUT -H "$OLIVIA" -H "$J" -d '{"allow":["Terminal(ls)"],"deny":["Terminal(curl:*)"],"ask":[]}' "$B/api/projects/$PROJECT/permissions" >/dev/null
# 3. a runner token (shown once) and the runner, with the project folder as its root
export BRABO_RUNNER_TOKEN=$(curl -sf -X POST -H "$H" "$B/api/projects/$PROJECT/runner-tokens" | jq -r .token)
./bin/brabo runner --url "ws://127.0.0.1:${PORT:-4700}/socket" --project "$PROJECT" --root "$DEMO/project" >"$DEMO/runner.log" 2>&1 &
RUNNER=$!
until grep -qs 'connected, joined' "$DEMO/runner.log"; do sleep 0.5; done   # -s: the log may not exist yet
# 4. the agent proposes with its token; olivia approves with hers; the runner runs it
ACTION=$(curl -sf -H "$AGENT" -H "$J" -d "{\"agentId\":\"agent-1\",\"actionType\":\"terminal\",\"payload\":{\"command\":\"echo hello from the runner > hello.txt && cat hello.txt\",\"cwd\":\"$DEMO/project\"}}" "$B/api/projects/$PROJECT/actions" | jq -r .id)
curl -sf -H "$AGENT" "$B/api/actions/$ACTION" | jq -r .status                      # pending
curl -sf -H "$OLIVIA" -H "$J" -d '{}' "$B/api/actions/$ACTION/approve" | jq -r .desfecho   # aprovada
curl -sf -H "$AGENT" "$B/api/actions/$ACTION/settlement?wait=20" | jq -r .settlement.result.stdout   # hello from the runner
# 5. an allowed command is auto-approved and its result comes back in the answer itself
curl -sf -H "$AGENT" -H "$J" -d "{\"agentId\":\"agent-1\",\"actionType\":\"terminal\",\"payload\":{\"command\":\"ls\",\"cwd\":\"$DEMO/project\"}}" "$B/api/projects/$PROJECT/actions" | jq -c '{status, reason}'
# 6. what happened, in order, with the real actor and the credential kind of each step
curl -sf -H "$OLIVIA" "$B/api/projects/$PROJECT/events?after=0" | jq -r '.events[] | "\(.type)  \(.actorKind):\(.actorId // "-")  \(.payload.credential.kind // "")"'
kill $RUNNER $SERVER
# --- README walkthrough ends ---
wait "$RUNNER" 2>/dev/null || true
wait "$SERVER" 2>/dev/null || true
RUNNER='' SERVER=''
# What the walkthrough promises, checked: the file the command wrote is on "your machine".
[ "$(cat "$DEMO/project/hello.txt")" = "hello from the runner" ] || { echo "walkthrough: hello.txt is missing or wrong"; exit 1; }
echo "walkthrough: ok"
