#!/usr/bin/env bash
# The test command from the README: installs what the tests need when it is missing
# (redis-server), then runs every test of the workspace against real servers.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v redis-server >/dev/null 2>&1; then
  echo "tests/run.sh: redis-server not found; installing it" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  elif command -v sudo >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "tests/run.sh: please install redis-server (the tests start their own on free ports)" >&2
    exit 1
  fi
fi

# The web view's test (tests/e2e/tests/web_ui.rs) drives Debian's chromium headless; it
# is skipped, saying so, only when chromium cannot be installed here.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  echo "tests/run.sh: chromium not found; installing it" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || echo "tests/run.sh: chromium could not be installed; the web view's test will be skipped" >&2
  elif command -v sudo >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || echo "tests/run.sh: chromium could not be installed; the web view's test will be skipped" >&2
  else
    echo "tests/run.sh: no chromium and no apt-get; the web view's test will be skipped" >&2
  fi
fi

# The end-to-end tests run the workspace's binaries as separate processes, and drive
# them with the official Python client SDKs (MCP, OpenAI, A2A) from one venv.
cargo build --workspace --bins --locked
venv_dir="${CHORUS_PY_VENV:-${CARGO_TARGET_DIR:-target}/python-venv}"
mkdir -p "$(dirname "$venv_dir")"
flock "$venv_dir.lock" bash tests/python/venv.sh "$venv_dir" >/dev/null
cargo test --workspace --locked "$@"

# The official Python MCP SDK as an independent client of both MCP servers.
if [ -x tests/python/run.sh ]; then
  bash tests/python/run.sh "${CARGO_TARGET_DIR:-target}"
fi
