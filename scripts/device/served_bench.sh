#!/usr/bin/env bash
# On a GPU box: serve a chat model, an embeddings model and a reranker there, and measure
# what they buy on the bookbench questions beside the CPU defaults (bench/served.py).
#
#   CHAT_GGUF=/models/qwen2.5-7b-instruct-q4_k_m.gguf \
#   EMBED_GGUF=/models/bge-m3-q8_0.gguf RERANK_GGUF=/models/bge-reranker-v2-m3-q8_0.gguf \
#   DATA_DIR=~/.cache/served-bench bash scripts/device/served_bench.sh
#
# Serves with llama.cpp's llama-server where it is on PATH (LLAMA_SERVER=…): it serves
# chat, embeddings (--embedding, pooled as the GGUF says) and reranking (--reranking) with
# every layer on the GPU. Without it, `python -m llama_cpp.server` serves the chat and
# embeddings models (llama-cpp-python built with CUDA, and its [server] extras); it has no
# rerank endpoint, so RERANK_GGUF is then skipped. The app runs from this checkout's
# .venv, on books already processed into DATA_DIR/born (manage.py bookbench --set born),
# and asks the known-item, natural and scoped questions twice: CPU defaults, then served.
# Each model's weights must be on the box: nothing is downloaded.
#
# Environment (all optional but CHAT_GGUF): EMBED_GGUF RERANK_GGUF DATA_DIR=~/.cache/served-bench
#   OUT=/tmp/out PORT=8080 (and PORT+1, PORT+2) GPU_LAYERS=99 CONTEXT=8192
#   EMBED_QUERY_PREFIX EMBED_PASSAGE_PREFIX (multilingual-e5: "query: ", "passage: ")
#   PYTHON=.venv/bin/python  STARTUP=300 (seconds to wait for each server)
#   TRUTH_DIR=../shared/bookbench (the questions and their answers)
set -uo pipefail
: "${CHAT_GGUF:?name the chat model: CHAT_GGUF=/path/to/model.gguf}"
PY=${PYTHON:-.venv/bin/python}
OUT=${OUT:-/tmp/out}
PORT=${PORT:-8080}
DATA_DIR=${DATA_DIR:-$HOME/.cache/served-bench}
SERVER=${LLAMA_SERVER:-$(command -v llama-server || true)}
mkdir -p "$OUT"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done' EXIT

serve() {  # name port gguf [--embedding|--reranking]
    local name=$1 port=$2 model=$3 role=${4:-}
    if [ -n "$SERVER" ]; then
        "$SERVER" -m "$model" --host 127.0.0.1 --port "$port" -ngl "${GPU_LAYERS:-99}" \
            -c "${CONTEXT:-8192}" $role >"$OUT/$name.log" 2>&1 &
    elif [ "$role" = --reranking ]; then
        echo "no llama-server: no reranker is served" >&2; return 1
    else
        local embedding=False; [ "$role" = --embedding ] && embedding=True
        "$PY" -m llama_cpp.server --model "$model" --host 127.0.0.1 --port "$port" \
            --n_gpu_layers "${GPU_LAYERS:-99}" --n_ctx "${CONTEXT:-8192}" \
            --embedding "$embedding" --logits_all False --interrupt_requests False \
            >"$OUT/$name.log" 2>&1 &
    fi
    PIDS+=($!)
    for _ in $(seq "${STARTUP:-300}"); do
        curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null && return 0
        kill -0 "${PIDS[-1]}" 2>/dev/null || break
        sleep 1
    done
    echo "the $name server did not start; see $OUT/$name.log" >&2; tail -20 "$OUT/$name.log" >&2
    return 1
}

ARGS=(--llm-url "http://127.0.0.1:$PORT/v1")
serve chat "$PORT" "$CHAT_GGUF" || exit 1
if [ -n "${EMBED_GGUF:-}" ] && serve embed $((PORT + 1)) "$EMBED_GGUF" --embedding; then
    ARGS+=(--embed-url "http://127.0.0.1:$((PORT + 1))/v1" --embed-name "$(basename "$EMBED_GGUF")"
           --embed-query-prefix "${EMBED_QUERY_PREFIX:-}" --embed-passage-prefix "${EMBED_PASSAGE_PREFIX:-}")
fi
if [ -n "${RERANK_GGUF:-}" ] && serve rerank $((PORT + 2)) "$RERANK_GGUF" --reranking; then
    ARGS+=(--rerank-url "http://127.0.0.1:$((PORT + 2))/v1/rerank")
fi
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv 2>/dev/null | tee "$OUT/gpu.csv"
PYTHONUNBUFFERED=1 "$PY" manage.py bookbench --set born --questions-only --questions --natural \
    --scoped --data-dir "$DATA_DIR" --truth-dir "${TRUTH_DIR:-../shared/bookbench}" \
    --json "$OUT/served_bench.json" "${ARGS[@]}" \
    2>&1 | tee "$OUT/served_bench.log"
