#!/usr/bin/env bash
# The test command (README's second command): sets up what the tests need on this machine (a
# Node >= 22.18, the npm packages, the Debian packages of scripts/test-packages.txt, the Docker
# engine, PostgreSQL), then runs every check and ends with one line `Tests: N passed, N failed`.
# Every step runs even when an earlier one failed, so one run reports everything; the exit code
# is 1 when anything failed. Extra arguments go to vitest (`./scripts/test.sh test/cli`), and
# then only the vitest step runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh
. scripts/npm-env.sh
echo "test: node $(node --version), npm $(npm --version)"
bash scripts/setup-test-machine.sh

export TESTCONTAINERS_RYUK_DISABLED=true
results="$(mktemp -d)/vitest.json"
passed=0 failed=0 skipped=0 failures=()

# One check besides vitest: counted as one passed or failed test.
step() {
  local name="$1"
  shift
  echo "test: == $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
  fi
}

if [ $# -eq 0 ]; then
  # eslint (typescript-eslint; import boundaries as rules), prettier --check, the strict type check.
  step lint bash scripts/lint.sh
  step format bash scripts/lint.sh --format-check
  step typecheck npx tsc --noEmit -p .
fi
echo "test: == vitest"
vitest_status=0
npx vitest run --reporter=default --reporter=json --outputFile="$results" "$@" || vitest_status=$?
if [ -f "$results" ]; then
  read -r vp vf vs vt < <(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(r.numPassedTests, r.numFailedTests, r.numPendingTests + (r.numTodoTests ?? 0), r.numTotalTests);
  ' "$results")
  passed=$((passed + vp)) failed=$((failed + vf)) skipped=$((skipped + vs))
  if [ "$vt" = 0 ]; then failed=$((failed + 1)) failures+=("vitest ran no test"); fi
  if [ "$vitest_status" != 0 ] && [ "$vf" = 0 ]; then failed=$((failed + 1)) failures+=("vitest exited $vitest_status"); fi
else
  failed=$((failed + 1)) failures+=("vitest wrote no results (exit $vitest_status)")
fi

if [ $# -eq 0 ]; then
  # The packages as users get them: build, pack, npx on a plain Node 22 (test/dist).
  step test:dist npm run --silent test:dist
  # The server image on a local base: healthy, the console at /, then a command through a runner.
  step image bash scripts/image-test.sh
  # README's walkthrough, exactly as pasted (the block is this script's marked part).
  step walkthrough env BRABO_WALKTHROUGH_PORT="${BRABO_WALKTHROUGH_PORT:-4700}" bash scripts/walkthrough.sh
fi

if [ ${#failures[@]} -gt 0 ]; then echo "test: failed: ${failures[*]}"; fi
echo "Tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
