#!/usr/bin/env bash
# The same build with Redis security off and on, in alternating runs (bench/sides.sh):
# plain, ACLs (every role on its own user, `chorus-bench --acl`), TLS (`--tls`), and both.
#
#   bench/security.sh BIN_DIR [ROUNDS]
#
# BIN_DIR holds release binaries (chorus, chorus-pool, chorus-mcp-math, chorus-mcp-date,
# chorus-bench). With JSON_DIR set, every run's whole JSON report is kept there too.
set -euo pipefail
dir=${1:?usage: bench/security.sh BIN_DIR [ROUNDS]}
exec bash "$(dirname "$0")/sides.sh" "$dir" "${2:-3}" plain= acl=--acl tls=--tls "acl+tls=--acl --tls"
