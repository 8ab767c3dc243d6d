#!/usr/bin/env bash
# The server image end to end, as an operator runs it: builds it (on the local Node base of
# scripts/image-base.sh; no registry here), runs it with a fresh named volume, waits until
# Docker reports it healthy (HEALTHCHECK on /readyz), fetches the console (/ and its assets), then
# creates a project, connects a runner from this checkout and runs an approved command through it.
# Cleans up what it made.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh
. scripts/npm-env.sh

run_id="brabo-image-test-$$"
image="brabo-gateway:$run_id"
volume="$run_id-data"
token="image-test-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
root="$(mktemp -d)"
state="$(mktemp -d)"
runner_pid=""
cleanup() {
  [ -n "$runner_pid" ] && kill "$runner_pid" 2>/dev/null && wait "$runner_pid" 2>/dev/null
  docker rm -f "$run_id" >/dev/null 2>&1 || true
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  docker image rm -f "$image" >/dev/null 2>&1 || true
  rm -rf "$root" "$state"
}
trap cleanup EXIT
fail() {
  echo "image-test: $*" >&2
  docker logs "$run_id" 2>&1 | tail -20 | sed 's/^/image-test: container| /' >&2
  exit 1
}

base="$(bash scripts/image-base.sh)"
echo "image-test: building $image on $base"
start=$(date +%s)
# --network host: the build stage's npm ci reaches the registry the way this machine does.
docker build -q --network host --build-arg "BASE=$base" -t "$image" . >/dev/null 2>"$state/build.log" || { cat "$state/build.log"; exit 1; }
echo "image-test: built in $(($(date +%s) - start)) s, $(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1000000}')"

docker volume create "$volume" >/dev/null
# The gateway checks that a runner project's root exists and that its user (1000) can write it:
# the folder is shared with the container at the same path, as on one machine.
chmod 0777 "$root"
docker run -d --name "$run_id" -e "BRABO_ADMIN_TOKEN=$token" -v "$volume:/data" -v "$root:$root" -p 127.0.0.1::4000 "$image" >/dev/null
for _ in $(seq 1 120); do
  health="$(docker inspect -f '{{.State.Health.Status}}' "$run_id" 2>/dev/null || echo gone)"
  [ "$health" = healthy ] && break
  [ "$health" = gone ] || [ "$(docker inspect -f '{{.State.Running}}' "$run_id")" = false ] && fail "the container stopped before it was healthy"
  sleep 1
done
[ "$health" = healthy ] || fail "not healthy after 120 s (last: $health)"
port="$(docker port "$run_id" 4000/tcp | head -1 | sed 's/.*://')"
base_url="http://127.0.0.1:$port"
echo "image-test: healthy on $base_url (data in the named volume $volume, owned by the runtime user)"
[ "$(curl -fsS "$base_url/readyz" | jq -r .status)" = ready ] || fail "/readyz is not ready"
# The console, built into the image (npm run build -> dist/console) and served at /: the page,
# then each script and stylesheet it names, all from the container itself (nothing external).
# Its files need a credential (issue 12.2): anonymous / is the 401 login page; a person's token loads it.
[ "$(curl -sS -o /dev/null -w '%{http_code}' "$base_url/")" = 401 ] || fail "GET / without a credential is not the 401 login page"
human="$(curl -fsS -X POST -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"kind":"human","memberId":"image-test"}' "$base_url/api/credentials" | jq -r .token)" || fail "could not mint a human token"
page="$(curl -fsS -H "authorization: Bearer $human" "$base_url/")" || fail "GET / did not answer 2xx: the console is not in the image"
grep -q '<title>brabo console</title>' <<<"$page" || fail "GET / is not the console page: $page"
! grep -qE '(src|href)="(https?:)?//' <<<"$page" || fail "the console page loads something from another host: $page"
assets="$(grep -oE '(src|href)="/assets/[^"]+"' <<<"$page" | sed -E 's/^[a-z]+="//; s/"$//')"
[ -n "$assets" ] || fail "the console page names no /assets/ file: $page"
for asset in $assets; do
  type="$(curl -fsS -o /dev/null -w '%{content_type}' -H "authorization: Bearer $human" "$base_url$asset")" || fail "GET $asset did not answer 2xx"
  case "$asset" in
    *.js) [[ "$type" == text/javascript* ]] || fail "GET $asset answered $type, not JavaScript" ;;
    *.css) [[ "$type" == text/css* ]] || fail "GET $asset answered $type, not CSS" ;;
  esac
done
echo "image-test: the console answers at / with $(wc -w <<<"$assets") built assets"

H="authorization: Bearer $token"
J='content-type: application/json'
# curl that stops the test with the server's answer when the status is not 2xx.
call() {
  local out status
  out="$(curl -sS -w '\n%{http_code}' "$@")"
  status="${out##*$'\n'}"
  out="${out%$'\n'*}"
  [ "${status:0:1}" = 2 ] || fail "HTTP $status from curl $*: $out"
  printf '%s' "$out"
}
project="$(call -H "$H" -H "$J" -d "{\"name\":\"Image\",\"executionMode\":\"runner\",\"root\":\"$root\",\"ownerId\":\"olivia\"}" "$base_url/api/projects" | jq -r .id)"
[ -n "$project" ] && [ "$project" != null ] || fail "project not created"
call -X PUT -H "$H" -H "$J" -d '{"role":"developer","kind":"agent"}' "$base_url/api/projects/$project/members/agent-1" >/dev/null
runner_token="$(call -X POST -H "$H" "$base_url/api/projects/$project/runner-tokens" | jq -r .token)"
# The admin token only provisions: day-to-day calls use a service token naming the acting user.
S="authorization: Bearer $(call -H "$H" -H "$J" -d '{"kind":"service","name":"image-test"}' "$base_url/api/credentials" | jq -r .token)"

BRABO_RUNNER_TOKEN="$runner_token" XDG_STATE_HOME="$state" NO_COLOR=1 \
  ./bin/brabo runner --url "ws://127.0.0.1:$port/socket" --project "$project" --root "$root" >"$state/runner.out" 2>&1 &
runner_pid=$!
for _ in $(seq 1 60); do grep -q 'connected' "$state/runner.out" && break; sleep 0.5; done
grep -q 'connected' "$state/runner.out" || fail "the runner did not connect: $(cat "$state/runner.out")"

action="$(call -H "$S" -H "$J" -d "{\"agentId\":\"agent-1\",\"actionType\":\"terminal\",\"payload\":{\"command\":\"echo hello from the image\",\"cwd\":\"$root\"}}" "$base_url/api/projects/$project/actions" | jq -r .id)"
call -H "$S" -H "$J" -d '{"userId":"olivia"}' "$base_url/api/actions/$action/approve" >/dev/null
settled="$(call -H "$S" "$base_url/api/actions/$action/settlement?wait=20")"
[ "$(jq -r .settlement.status <<<"$settled")" = executed ] && [ "$(jq -r .settlement.result.stdout <<<"$settled")" = "hello from the image" ] ||
  fail "the action did not run through the runner: $settled"
echo "image-test: ok: healthy image, console at /, project created, 'echo hello from the image' executed by a runner"
