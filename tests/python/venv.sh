#!/usr/bin/env bash
# Makes (or brings up to date) the Python venv the tests use: the official MCP, OpenAI
# and A2A client SDKs and the third-party MCP server `mcp-server-time`, pinned in
# tests/python/requirements.txt. Idempotent; prints the venv's directory.
#
# Usage: tests/python/venv.sh [VENV_DIR]   (default: $CHORUS_PY_VENV or target/python-venv)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${1:-${CHORUS_PY_VENV:-${CARGO_TARGET_DIR:-$here/../../target}/python-venv}}"
stamp="$venv/.requirements"

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv" >&2
fi
if ! cmp -s "$here/requirements.txt" "$stamp"; then
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
    cp "$here/requirements.txt" "$stamp"
fi
echo "$venv"
