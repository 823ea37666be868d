#!/usr/bin/env bash
# The same build with traces off and on, in alternating runs (bench/sides.sh): off (no
# OTLP endpoint: the default), and traces (every role and MCP server exports its spans
# over OTLP/HTTP to a sink inside chorus-bench, `--traces`). Metrics are always on.
#
#   bench/telemetry.sh BIN_DIR [ROUNDS]
#
# BIN_DIR holds release binaries (chorus, chorus-pool, chorus-mcp-math, chorus-mcp-date,
# chorus-bench). With JSON_DIR set, every run's whole JSON report is kept there too.
set -euo pipefail
dir=${1:?usage: bench/telemetry.sh BIN_DIR [ROUNDS]}
exec bash "$(dirname "$0")/sides.sh" "$dir" "${2:-3}" off= traces=--traces
