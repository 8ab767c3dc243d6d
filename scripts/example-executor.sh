#!/usr/bin/env bash
# An example external executor (README "External executors"): claims approved actions of one type
# the gateway does not run itself (git_push, pr_open, git_merge, plan types...), runs a handler
# command for each, and reports the outcome. test/e2e/executor.e2e.test.ts runs it end to end.
#
#   BRABO_URL=http://127.0.0.1:8080 BRABO_EXECUTOR_TOKEN=brabo_executor_... \
#     scripts/example-executor.sh git_push ./push-handler.sh [--once]
#
# The handler gets the claimed action as JSON on stdin, and BRABO_ACTION_TYPE, BRABO_ACTION_ID,
# BRABO_PROJECT_ID and BRABO_CREDENTIAL_REF (whose provider credential to use: the workspace
# owner's, RN-082) in its environment. Exit 0: reported `executed` with its stdout as output.
# Any other exit: reported `failed` with code handler_failed and its last stderr line.
# --once: handle one action (waiting for it as long as it takes), then exit.
# Needs bash, curl and jq.
set -euo pipefail

type=${1:?usage: example-executor.sh TYPE HANDLER [--once]}
handler=${2:?usage: example-executor.sh TYPE HANDLER [--once]}
once=${3:-}
url=${BRABO_URL:?set BRABO_URL to the gateway, e.g. http://127.0.0.1:8080}
token=${BRABO_EXECUTOR_TOKEN:?set BRABO_EXECUTOR_TOKEN (brabo token mint --kind executor --name NAME)}
lease=${BRABO_LEASE_SECONDS:-300}
wait=${BRABO_CLAIM_WAIT:-25}

api() { # METHOD PATH [BODY] -> prints the body, then the status on its own last line
  curl -sS -X "$1" -H "authorization: Bearer $token" -H 'content-type: application/json' \
    ${3:+--data "$3"} -w '\n%{http_code}' "$url$2"
}

while :; do
  answer=$(api POST "/api/executors/$type/claim?wait=$wait&leaseSeconds=$lease" '{}') || {
    echo "example-executor: the gateway at $url did not answer; retrying in 5 s" >&2
    sleep 5
    continue
  }
  status=${answer##*$'\n'}
  body=${answer%$'\n'*}
  case $status in
    204) continue ;; # nothing approved yet: claim again
    200) ;;
    *)
      echo "example-executor: claim refused ($status): $body" >&2
      exit 1
      ;;
  esac
  dispatch=$(jq -r .dispatchId <<<"$body")
  attempt=$(jq -r .attempt <<<"$body")
  echo "example-executor: claimed $type $(jq -r .actionId <<<"$body") (dispatch $dispatch, attempt $attempt)" >&2

  errors=$(mktemp)
  if output=$(BRABO_ACTION_TYPE=$type BRABO_ACTION_ID=$(jq -r .actionId <<<"$body") \
    BRABO_PROJECT_ID=$(jq -r .projectId <<<"$body") BRABO_CREDENTIAL_REF=$(jq -r '.credentialRef // ""' <<<"$body") \
    "$handler" <<<"$body" 2>"$errors"); then
    report=$(jq -n --argjson attempt "$attempt" --arg output "$output" \
      '{attempt: $attempt, status: "executed", output: $output}')
  else
    code=$?
    last=$(tail -n 1 "$errors")
    report=$(jq -n --argjson attempt "$attempt" --arg output "$output" \
      --arg message "the $type handler $handler exited with $code: ${last:-no message on stderr}. Fix the cause and propose the action again." \
      '{attempt: $attempt, status: "failed", code: "handler_failed", message: $message, output: $output}')
  fi
  rm -f "$errors"

  # A lost answer is safe to resend: the same report again is recorded once.
  for try in 1 2 3 4 5; do
    if answer=$(api POST "/api/executors/$type/dispatches/$dispatch/report" "$report"); then break; fi
    echo "example-executor: report not delivered (try $try); resending" >&2
    sleep 2
  done
  echo "example-executor: reported $(jq -r .status <<<"$report"): ${answer%$'\n'*} (${answer##*$'\n'})" >&2
  [[ $once == --once ]] && exit 0
done
