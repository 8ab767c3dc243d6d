# Source after scripts/node-env.sh: makes sure node_modules matches package-lock.json, and the
# console's build matches console/. A fresh clone (no node_modules) or a changed package-lock.json
# runs `npm ci` once, with a progress line and under the same lock as the Node install, so
# concurrent first runs do not both install. Costs two file tests and one `find` when nothing
# changed (bin/brabo sources it on every start).
_brabo_modules_current() {
  [ -f "$_brabo_root/node_modules/.package-lock.json" ] && [ ! "$_brabo_root/package-lock.json" -nt "$_brabo_root/node_modules/.package-lock.json" ]
}
if [ -f "$_brabo_root/node_modules/.package-lock.json" ] && [ -n "${VITEST:-}" ]; then
  # Inside a test run (the suites spawn bin/brabo many times at once, and some read its stderr):
  # reinstalling would pull node_modules from under the running suites. The test command runs
  # npm ci before the suites; a developer's stale node_modules is theirs to refresh.
  :
elif ! _brabo_modules_current; then
  _brabo_lock "$_brabo_toolchain/.lock"
  if ! _brabo_modules_current; then
    echo "brabo: installing npm packages (npm ci in $_brabo_root; once after a clone or a package-lock.json change)" >&2
    if ! (cd "$_brabo_root" && npm ci --no-audit --no-fund --loglevel=error >&2); then
      rm -rf "$_brabo_toolchain/.lock"
      echo "brabo: npm ci failed (see above); fix the cause and run again" >&2
      unset -f _brabo_modules_current
      return 1 2>/dev/null || exit 1
    fi
  fi
  rm -rf "$_brabo_toolchain/.lock"
fi
unset -f _brabo_modules_current

# The console's assets (dist/console): built on a fresh clone, and again whenever a file under
# console/ is newer than the last build (a pull, an edit), so `brabo serve` never serves a console
# older than the API behind it. Costs one `find` when nothing changed. Not inside a test run
# (the suites build their own). A failed build does not stop the server: / then answers 503
# saying what to run (or the previous build stays).
_brabo_console_stale() {
  [ -d "$_brabo_root/console" ] || return 1
  [ -f "$_brabo_root/dist/console/index.html" ] || return 0
  [ -n "$(find "$_brabo_root/console" -newer "$_brabo_root/dist/console/index.html" -type f -print 2>/dev/null | head -1)" ]
}
if [ -z "${VITEST:-}" ] && _brabo_console_stale; then
  _brabo_lock "$_brabo_toolchain/.lock"
  if _brabo_console_stale; then
    echo "brabo: building the console (npm run build:console; after a clone or a change under console/)" >&2
    (cd "$_brabo_root" && npm run --silent build:console >&2) ||
      echo "brabo: the console could not be built (see above); / serves the last build, or answers 503 until \`npm run build\` succeeds" >&2
  fi
  rm -rf "$_brabo_toolchain/.lock"
fi
unset -f _brabo_console_stale
