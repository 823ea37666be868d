#!/usr/bin/env bash
# Checks the Chorus MCP servers with the official Python MCP SDK (independent client).
#
# Usage: tests/python/run.sh [TARGET_DIR] [PROFILE]
#   TARGET_DIR  cargo target dir holding the built servers (default: $CARGO_TARGET_DIR or ./target)
#   PROFILE     debug (default) or release
# Build first: cargo build -p chorus-mcp-math -p chorus-mcp-date
# Env: CHORUS_PY_VENV (venv location, default TARGET_DIR/python-venv; made by
#      tests/python/venv.sh from tests/python/requirements.txt).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target_dir="${1:-${CARGO_TARGET_DIR:-$here/../../target}}"
profile="${2:-debug}"
bin_dir="$target_dir/$profile"
venv="${CHORUS_PY_VENV:-$target_dir/python-venv}"

for bin in chorus-mcp-math chorus-mcp-date; do
    if [[ ! -x "$bin_dir/$bin" ]]; then
        echo "missing $bin_dir/$bin; build it with: cargo build -p chorus-mcp-math -p chorus-mcp-date" >&2
        exit 2
    fi
done

flock "$venv.lock" bash "$here/venv.sh" "$venv" >/dev/null

exec "$venv/bin/python" "$here/mcp_client_check.py" \
    --math "$bin_dir/chorus-mcp-math" --date "$bin_dir/chorus-mcp-date"
