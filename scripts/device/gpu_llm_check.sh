#!/usr/bin/env bash
# Measures the local LLM path (llm.load -> llama_cpp.Llama) with every layer on
# the GPU, against a stand-in for the embedded model: Qwen2.5-Coder-1.5B's
# architecture, shapes and tokenizer with seeded random weights, quantized to
# Q4_K_M (see scripts/device/synth_gguf.py). For comparison, the same on the
# CPU only, bounded.
#
# Run from the repository root on a machine with an NVIDIA GPU, nvcc, cmake,
# ninja and python3 with numpy (pip and scikit-build-core used when present),
# no network. What it needs beyond that is carried in .device/:
#   llama_cpp_python-0.3.36-slim.tar.gz   the pinned sdist without docs, test
#                                         models, .git and unused backends
#   qwen2.5-coder-1.5b-meta.json.gz       the real model's metadata and tensor list
#   wheels/                               pure-python runtime deps (diskcache,
#                                         jinja2, markupsafe, typing-extensions)
#                                         and scikit-build-core, in case they are missing
# Make .device/ first, on a machine with network and the real model (it is
# git-ignored, so a fresh checkout lacks it):
#   bash scripts/device/prepare_carry.sh     (about 7 MB; CARRY_DIR=DIR writes elsewhere)
# then, with the device tool, `run` carry [".device"], command
# `bash scripts/device/gpu_llm_check.sh`.
# Results: $OUT/gpu_llm.json (figures), logs beside it. Progress on stdout.
#
# Environment (all optional):
#   OUT=/tmp/out  WORK=/tmp/gpu_llm_work  PYTHON=python3
#   SKIP_BUILD=1          use $PYTHON's llama_cpp as installed (no CUDA build; local tests)
#   SCALE=full|tiny       size of the synthetic model (tiny: 2 layers, for CPU tests)
#   RUNS="gpu cpu"        which measurements to make
#   GPU_LAYERS=-1 GPU_THREADS=1 (LIBRARIAN_LLM_THREADS' default) CPU_THREADS=$(nproc)
#   CONTEXT=4096 GPU_PROMPT_TOKENS=1500 GPU_GEN_TOKENS=128 CPU_PROMPT_TOKENS=300 CPU_GEN_TOKENS=64
#   BUILD_TIMEOUT=360 RUN_TIMEOUT=120 DEADLINE=500 (seconds; no measurement starts
#                         after DEADLINE-45 s, none runs past DEADLINE)  BUILD_JOBS=$(nproc)
#   EXTRA_CMAKE_ARGS=     appended to the CUDA build's CMAKE_ARGS
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1

REPO=$(pwd)
OUT=${OUT:-/tmp/out}
WORK=${WORK:-/tmp/gpu_llm_work}
PY=${PYTHON:-python3}
SCALE=${SCALE:-full}
RUNS=${RUNS:-gpu cpu}
NPROC=$(nproc 2>/dev/null || echo 4)
BUILD_JOBS=${BUILD_JOBS:-$NPROC}
GPU_LAYERS=${GPU_LAYERS:--1}
GPU_THREADS=${GPU_THREADS:-1}
CPU_THREADS=${CPU_THREADS:-$NPROC}
CONTEXT=${CONTEXT:-4096}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-360}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
DEADLINE=${DEADLINE:-500}
DEVICE_DIR=$REPO/.device
SDIST=$DEVICE_DIR/llama_cpp_python-0.3.36-slim.tar.gz
META=$DEVICE_DIR/qwen2.5-coder-1.5b-meta.json.gz
SITE=$WORK/site
SRC=$WORK/src/llama_cpp_python-0.3.36
MODEL_F16=$WORK/synthetic-$SCALE-f16.gguf
MODEL=$WORK/synthetic-$SCALE-q4_k_m.gguf

mkdir -p "$OUT" "$WORK"
exec > >(tee -a "$OUT/gpu_llm_check.log") 2>&1
START=$(date +%s)
log() { printf '[%s +%3ss] %s\n' "$(date +%H:%M:%S)" "$(( $(date +%s) - START ))" "$*"; }
elapsed() { echo $(( $(date +%s) - $1 )); }
STEPS=$OUT/steps.tsv
: >"$STEPS"
step() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$STEPS"; log "step $1: $2 (${3}s)"; }

[ -f "$META" ] || { log "missing $META: run from the repository root with .device carried"; exit 2; }

# -- (a) the machine ---------------------------------------------------------
log "gpu_llm_check: repo $REPO, OUT $OUT, WORK $WORK, scale $SCALE, runs: $RUNS"
{
    echo "## nvidia-smi"; timeout 30 nvidia-smi 2>&1 || echo "(no nvidia-smi)"
    echo "## nvidia-smi query"
    timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader \
        2>/dev/null | tee "$OUT/gpu.csv" || true
    echo "## python"; "$PY" -c 'import sys, numpy; print(sys.version); print("numpy", numpy.__version__)' 2>&1
    echo "## tools"
    (command -v nvcc >/dev/null && nvcc --version | tail -2) || ls -d /usr/local/cuda*/bin/nvcc 2>&1
    cmake --version 2>&1 | head -1; echo "ninja $(ninja --version 2>&1)"
    "$PY" -m pip --version 2>&1
    "$PY" -c 'import scikit_build_core; print("scikit-build-core", scikit_build_core.__version__)' 2>&1 | tail -1
    echo "## cpu"; echo "nproc $NPROC"; (lscpu 2>/dev/null | grep -E '^Model name|^Socket|^Core|^Thread') || true
    free -g 2>/dev/null | head -2; df -h "$WORK" 2>/dev/null | tail -1
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

# -- the sdist (its gguf-py also serves synth_gguf.py) -----------------------
t=$(date +%s)
rm -rf "$WORK/src" && mkdir -p "$WORK/src"
if [ -f "$SDIST" ]; then
    tar xzf "$SDIST" -C "$WORK/src" || { log "cannot unpack $SDIST"; exit 2; }
fi
step unpack "$SDIST" "$(elapsed $t)"
GGUF_PY=$SRC/vendor/llama.cpp/gguf-py
[ -d "$GGUF_PY" ] || GGUF_PY=${GGUF_PY_FALLBACK:-}
export GGUF_PY

# -- (c, first half) the F16 model, written while llama.cpp compiles ---------
if [ -s "$MODEL" ]; then
    log "reusing $MODEL"
else
    t_make=$(date +%s)
    (nice -n 5 "$PY" "$REPO/scripts/device/synth_gguf.py" make "$META" "$MODEL_F16" --scale "$SCALE" --seed 0 \
        >"$OUT/synth_make.log" 2>&1; echo $? >"$WORK/make.rc") &
    MAKE_PID=$!
fi

# -- (b) llama-cpp-python with CUDA --------------------------------------------
BUILD_OK=skipped
if [ "${SKIP_BUILD:-0}" = 1 ]; then
    log "SKIP_BUILD=1: using $PY's own llama_cpp"
else
    t=$(date +%s)
    rm -rf "$SITE" && mkdir -p "$SITE"
    if ! command -v nvcc >/dev/null; then
        for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
            [ -x "$d/nvcc" ] && { export PATH="$d:$PATH"; break; }
        done
    fi
    export CUDACXX=${CUDACXX:-$(command -v nvcc || true)}
    export CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=90-real -DGGML_NATIVE=OFF -DGGML_CUDA_FA=OFF -DGGML_CUDA_NCCL=OFF -DGGML_CCACHE=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF ${EXTRA_CMAKE_ARGS:-}"
    export CMAKE_BUILD_PARALLEL_LEVEL=$BUILD_JOBS FORCE_CMAKE=1
    log "building llama-cpp-python 0.3.36 (CMAKE_ARGS=$CMAKE_ARGS, $BUILD_JOBS jobs, limit ${BUILD_TIMEOUT}s)"
    BUILD_PYTHONPATH=
    if ! "$PY" -c 'import scikit_build_core' 2>/dev/null; then
        log "scikit-build-core missing: using the carried wheels"
        BUILD_PYTHONPATH=$WORK/buildsite
        "$PY" - "$DEVICE_DIR/wheels" "$BUILD_PYTHONPATH" <<'EOF'
import glob, os, sys, zipfile
for name in ("scikit_build_core", "pathspec", "packaging"):
    for wheel in glob.glob(os.path.join(sys.argv[1], name + "-*.whl")):
        zipfile.ZipFile(wheel).extractall(sys.argv[2])
EOF
    fi
    ( while sleep 30; do
        line=$(grep -aoE '\[[0-9]+/[0-9]+\] [^ ]+ [^ ]*' "$OUT/build.log" 2>/dev/null | tail -1)
        log "  building: ${line:-configuring}"
      done ) &
    WATCH_PID=$!
    if "$PY" -m pip --version >/dev/null 2>&1; then
        BUILD_HOW="pip install --no-build-isolation --no-deps --no-index --target"
        PYTHONPATH=$BUILD_PYTHONPATH timeout "$BUILD_TIMEOUT" "$PY" -m pip install -v --no-build-isolation \
            --no-deps --no-index --target "$SITE" "$SRC" >"$OUT/build.log" 2>&1
        rc=$?
    else  # no pip: the same CMake project, configured and installed by hand
        BUILD_HOW="cmake (no pip)"
        # shellcheck disable=SC2086
        timeout "$BUILD_TIMEOUT" bash -c "cmake -S '$SRC' -B '$WORK/build' -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DSKBUILD_PLATLIB_DIR='$SITE' $CMAKE_ARGS && cmake --build '$WORK/build' -j $BUILD_JOBS \
            && cmake --install '$WORK/build' && cp -r '$SRC/llama_cpp' '$SITE/'" >"$OUT/build.log" 2>&1
        rc=$?
    fi
    kill "$WATCH_PID" 2>/dev/null; wait "$WATCH_PID" 2>/dev/null
    BUILD_SECONDS=$(elapsed $t)
    if [ $rc -eq 0 ]; then BUILD_OK=ok; elif [ $rc -eq 124 ]; then BUILD_OK=timeout; else BUILD_OK="failed rc=$rc"; fi
    step build "$BUILD_OK via $BUILD_HOW" "$BUILD_SECONDS"
    grep -aE 'CUDA Toolkit found|Using CMAKE_CUDA_ARCH|CMake Error|error:|Error ' "$OUT/build.log" | head -20
    [ "$BUILD_OK" = ok ] || tail -25 "$OUT/build.log"
    tail -80 "$OUT/build.log" >"$OUT/build_tail.txt"; gzip -f "$OUT/build.log"  # the full log, compressed
    # runtime deps llama-cpp-python needs and the machine may lack (pure-python wheels)
    "$PY" - "$DEVICE_DIR/wheels" "$SITE" <<'EOF'
import glob, importlib.util, os, sys, zipfile
for module, wheel in (("diskcache", "diskcache"), ("jinja2", "jinja2"), ("markupsafe", "markupsafe"),
                      ("typing_extensions", "typing_extensions")):
    if importlib.util.find_spec(module) is None:
        for path in glob.glob(os.path.join(sys.argv[1], wheel + "-*.whl")):
            zipfile.ZipFile(path).extractall(sys.argv[2])
            print("carried", os.path.basename(path))
EOF
    export PYTHONPATH=$SITE${PYTHONPATH:+:$PYTHONPATH}
    for d in /usr/local/cuda /usr/local/cuda-*; do  # in case cuBLAS is not on the loader's path
        for lib in "$d/lib64" "$d/targets/x86_64-linux/lib"; do
            [ -d "$lib" ] && LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$lib
        done
    done
    export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
fi
"$PY" - <<'EOF' 2>&1 | tee "$OUT/llama_cpp_info.txt"
try:
    import llama_cpp
    print("llama_cpp", llama_cpp.__version__, llama_cpp.__file__)
    print("gpu offload supported:", bool(llama_cpp.llama_supports_gpu_offload()))
    print(llama_cpp.llama_print_system_info().decode())
except Exception as error:
    print("llama_cpp import failed:", repr(error))
EOF

# -- (c) the synthetic model: wait for F16, quantize to Q4_K_M ----------------
if [ -n "${MAKE_PID:-}" ]; then
    wait "$MAKE_PID"
    cat "$OUT/synth_make.log"
    step make_f16 "rc=$(cat "$WORK/make.rc" 2>/dev/null)" "$(elapsed $t_make)"
    t=$(date +%s)
    "$PY" "$REPO/scripts/device/synth_gguf.py" quantize "$MODEL_F16" "$MODEL.part" --ftype Q4_K_M \
        --threads "$NPROC" >"$OUT/synth_quantize.log" 2>&1 && mv "$MODEL.part" "$MODEL"
    rc=$?
    tail -3 "$OUT/synth_quantize.log"
    step quantize "rc=$rc" "$(elapsed $t)"
    [ $rc -eq 0 ] && rm -f "$MODEL_F16"
fi
t=$(date +%s)
"$PY" "$REPO/scripts/device/synth_gguf.py" inspect "$MODEL" --meta "$META" >"$OUT/synth_inspect.json" 2>"$OUT/synth_inspect.err"
step inspect "rc=$?" "$(elapsed $t)"
grep -E '"(bytes|layers|parameters|same_tensor_names_and_shapes|same_tensor_types)"' "$OUT/synth_inspect.json"

# -- (d) the measurements --------------------------------------------------------
cat >"$WORK/measure.py" <<'EOF'
"""One measurement: load through llm.load (the project's code) and time prompt and generation."""
import argparse, ctypes, json, os, random, re, subprocess, sys, time, types
from pathlib import Path

p = argparse.ArgumentParser()
p.add_argument("--model", required=True); p.add_argument("--label", required=True)
p.add_argument("--repo", required=True); p.add_argument("--out", required=True)
p.add_argument("--gpu-layers", type=int, required=True); p.add_argument("--threads", type=int, required=True)
p.add_argument("--context", type=int, default=4096); p.add_argument("--prompt-tokens", type=int, default=1500)
p.add_argument("--gen-tokens", type=int, default=128); p.add_argument("--repeats", type=int, default=2)
p.add_argument("--ask", action="store_true"); p.add_argument("--ask-timeout", type=float, default=30)
a = p.parse_args()
T0 = time.monotonic()
result = {"label": a.label, "gpu_layers_asked": a.gpu_layers, "threads": a.threads, "context": a.context}


def log(message):
    print(f"[{time.strftime('%H:%M:%S')} {a.label} +{time.monotonic() - T0:5.1f}s] {message}", flush=True)


def save():
    Path(a.out).write_text(json.dumps(result, indent=1))


def gpu_memory():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout.split()
        return int(out[0]) if out else None
    except Exception:
        return None


t = time.monotonic()
import llama_cpp
result["import_s"] = round(time.monotonic() - t, 3)
lines = []


@llama_cpp.llama_log_callback
def _collect(level, text, user_data):  # llama.cpp's log, even with verbose=False
    lines.append(text.decode("utf-8", "replace"))


llama_cpp.llama_log_set(_collect, ctypes.c_void_p(0))
result["gpu_offload_supported"] = bool(llama_cpp.llama_supports_gpu_offload())
result["gpu_memory_before_mib"] = gpu_memory()

# Load exactly as the project does: llm.load(LlmConfig(...)) builds llama_cpp.Llama(model_path,
# n_ctx, n_threads, n_threads_batch, n_gpu_layers, seed=0, verbose=False).
sys.path.insert(0, a.repo)
t = time.monotonic()
try:
    import llm
    from llm.runtime import LlmConfig
    config = LlmConfig(model=a.model, data_dir=Path(a.out).parent, threads=a.threads,
                       gpu_layers=a.gpu_layers, context=a.context)
    model = llm.load(config)
    result["loader"] = "llm.load"
except (ImportError, TypeError, AttributeError) as error:  # mirror llm/runtime.py's call
    log(f"llm not importable ({error!r}): mirroring llm/runtime.py")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    model = types.SimpleNamespace(llama=llama_cpp.Llama(
        model_path=a.model, n_ctx=a.context, n_threads=a.threads, n_threads_batch=a.threads,
        n_gpu_layers=a.gpu_layers, seed=0, verbose=False))
    model.create_chat_completion = model.llama.create_chat_completion
    result["loader"] = "mirror of llm/runtime.py"
result["load_s"] = round(time.monotonic() - t, 3)
log_text = "".join(lines)
Path(a.out).with_suffix(".llama.log").write_text(log_text)
if model is None:
    result["error"] = "llm.load returned None (see the log)"
    save(); log(result["error"]); sys.exit(1)
llama = model.llama
result["gpu_memory_after_load_mib"] = gpu_memory()
m = re.search(r"offloaded (\d+)/(\d+) layers to GPU", log_text)
result["layers_offloaded"] = f"{m.group(1)}/{m.group(2)}" if m else None
result["n_layer"] = llama_cpp.llama_model_n_layer(llama.model)
result["n_params"] = llama_cpp.llama_model_n_params(llama.model)
result["model_bytes"] = llama_cpp.llama_model_size(llama.model)
result["n_batch"], result["n_ubatch"] = llama.n_batch, llama.context_params.n_ubatch
result["flash_attn_type"] = llama.context_params.flash_attn_type
result["log_lines"] = [l.strip() for l in log_text.splitlines()
                       if re.search(r"offload|CUDA|using device|buffer size|n_ctx|flash|model type|file type", l)][:40]
log(f"loaded in {result['load_s']} s via {result['loader']}; layers offloaded {result['layers_offloaded']}"
    f" (n_layer {result['n_layer']})")

# The prompt, built like the chat synthesis prompt (chat/synthesis.py's build_messages).
try:
    import chat.synthesis as synthesis
except ImportError:  # no Django here: build_messages needs no settings
    django = types.ModuleType("django"); conf = types.ModuleType("django.conf")
    conf.settings = types.SimpleNamespace(); django.conf = conf
    if sys.modules.get("django") is None:
        sys.modules["django"] = django
    sys.modules["django.conf"] = conf
    import chat.synthesis as synthesis
words = ("the of and to in a is that for it as was with be by on not he this are or his from at which but "
         "have an they you were her she there been one all we their has would when if so no will more can "
         "who out said about other into what some time only could them these two may first then do any like "
         "my now over such our man me even most made after also did many before must through back years where "
         "much your way well down should because each just those people how too little state good very make "
         "world still own see men work long get here between both life being under never day same another know "
         "while last might us great old year off come since against go came right used take three library "
         "chapter section index catalogue reader volume edition press history science theory method river city "
         "king church war water light system language law figure table page notes sources letters").split()
rng = random.Random(0)


def sentence():
    text = " ".join(rng.choice(words) for _ in range(rng.randint(8, 22)))
    return text[0].upper() + text[1:] + rng.choice([".", ".", ".", ";", ","])


cards = [{"book_title": f"A History of Volume {n}", "breadcrumb": [f"Part {n % 4 + 1}", f"Chapter {n + 2}", f"Section {n}.{n % 3 + 1}"],
          "printed_start": str(10 + 7 * n), "printed_end": str(12 + 7 * n), "page_start": 22 + 7 * n, "page_end": 24 + 7 * n,
          "excerpt": " ".join(sentence() for _ in range(8))} for n in range(200)]
question = "Where does the book explain how the river changed the history of the old city?"
formatter = llama_cpp.llama_chat_format.Jinja2ChatFormatter(
    template=llama.metadata["tokenizer.chat_template"], eos_token="<|im_end|>", bos_token="<|endoftext|>")


def prompt_tokens(messages):
    text = formatter(messages=messages).prompt
    return llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)


result["synthesis_prompt_tokens_default"] = len(prompt_tokens(synthesis.build_messages(question, cards, nonce="0a1b2c3d4e5f")))
default_cards = synthesis.CARDS_IN_PROMPT
for n in range(1, len(cards) + 1):
    synthesis.CARDS_IN_PROMPT = n
    messages = synthesis.build_messages(question, cards, nonce="0a1b2c3d4e5f")
    tokens = prompt_tokens(messages)
    if len(tokens) >= a.prompt_tokens:
        break
synthesis.CARDS_IN_PROMPT = default_cards
result["prompt"] = {"cards": n, "tokens": len(tokens), "cards_in_synthesis": default_cards}
log(f"prompt: {n} cards, {len(tokens)} tokens (the synthesis default, {default_cards} cards: "
    f"{result['synthesis_prompt_tokens_default']} tokens)")


def perf():
    data = llama_cpp.llama_perf_context(llama.ctx)
    return {"prompt_ms": round(data.t_p_eval_ms, 2), "prompt_n": data.n_p_eval,
            "eval_ms": round(data.t_eval_ms, 2), "eval_n": data.n_eval}


def run(tokens, n_gen):
    """Greedy: prompt evaluation (first token), then n_gen more tokens, EOS ignored."""
    llama.reset()
    llama_cpp.llama_perf_context_reset(llama.ctx)
    started = time.perf_counter()
    first = None
    for i, token in enumerate(llama.generate(tokens, temp=0.0, reset=True)):
        if i == 0:
            first = time.perf_counter()
        if i == n_gen:
            break
    end = time.perf_counter()
    counters = perf()
    return {"prompt_tokens": len(tokens), "first_token_s": round(first - started, 4),
            "prompt_tok_s": round(len(tokens) / (first - started), 1),
            "gen_tokens": n_gen, "gen_s": round(end - first, 4),
            "gen_tok_s": round(n_gen / (end - first), 1),
            "llama_perf": counters,
            "llama_prompt_tok_s": round(1000 * counters["prompt_n"] / counters["prompt_ms"], 1) if counters["prompt_ms"] else None,
            "llama_gen_tok_s": round(1000 * counters["eval_n"] / counters["eval_ms"], 1) if counters["eval_ms"] else None}


t = time.monotonic()
run(tokens[:16], 4)
result["warmup_s"] = round(time.monotonic() - t, 3)
result["runs"] = []
for i in range(a.repeats):
    r = run(tokens, a.gen_tokens)
    result["runs"].append(r); save()
    log(f"run {i + 1}: prompt {r['prompt_tokens']} tokens in {r['first_token_s']} s = {r['prompt_tok_s']} tok/s; "
        f"{r['gen_tokens']} tokens generated at {r['gen_tok_s']} tok/s")
best = lambda key: max(r[key] for r in result["runs"])
result["prompt_tok_s"], result["gen_tok_s"] = best("prompt_tok_s"), best("gen_tok_s")
result["first_token_s"] = min(r["first_token_s"] for r in result["runs"])
save()

# The app's own call: a streamed chat completion like chat/synthesis.py's (may stop early at EOS).
llama.reset()
started = time.perf_counter(); first = None; pieces = 0
stream = model.create_chat_completion(messages=messages, max_tokens=a.gen_tokens, temperature=0.2, stream=True)
for chunk in stream:
    if first is None:
        first = time.perf_counter()
    if chunk["choices"][0].get("delta", {}).get("content"):
        pieces += 1
end = time.perf_counter()
close = getattr(stream, "close", None)
close and close()
result["chat_stream"] = {"first_chunk_s": round(first - started, 4), "content_chunks": pieces,
                         "total_s": round(end - started, 4),
                         "chunks_per_s_after_first": round(pieces / (end - first), 1) if end > first else None}
save()
log(f"chat stream: first chunk {result['chat_stream']['first_chunk_s']} s, {pieces} chunks in {result['chat_stream']['total_s']} s")

if a.ask:  # the verify stage's call: llm.ask with a JSON schema (grammar-constrained sampling)
    try:
        from indexing.agent import ask as agent
        system, schema = agent.SYSTEM, agent.schema([41, 42, 43], list(range(1, 25)))
        result["ask_from"] = "indexing.agent.ask"
    except Exception as error:
        log(f"indexing.agent.ask not importable ({error!r}): a schema of the same shape")
        system = "You find where a heading is printed. Answer in JSON."
        schema = {"type": "object", "properties": {"found": {"type": "boolean"},
                  "page": {"anyOf": [{"enum": [41, 42, 43]}, {"type": "null"}]},
                  "line": {"anyOf": [{"enum": list(range(1, 25))}, {"type": "null"}]},
                  "reason": {"type": "string", "maxLength": 100}},
                  "required": ["found", "page", "line", "reason"]}
        result["ask_from"] = "mirror"
    body = ["Heading: The river and the old city", "Level in the contents: 2",
            "Printed page in the contents: 41", "<pages>"]
    label = 0
    for page in (41, 42, 43):
        body.append(f'<page number="{page}">')
        for _ in range(8):
            label += 1
            body.append(f"[{label}] {sentence()[:70]}")
        body.append("</page>")
    body += ["</pages>", "On which page and line is the heading printed?"]
    ask_messages = [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(body)}]
    llama.reset()
    try:
        reply = llm.ask(model, ask_messages, schema, max_tokens=160, timeout=a.ask_timeout)
        result["ask"] = {"prompt_tokens": reply.prompt_tokens, "answer_tokens": reply.answer_tokens,
                         "seconds": round(reply.seconds, 3), "text": reply.text[:200]}
        try:
            llm.parse_json(reply.text); result["ask"]["json_ok"] = True
        except Exception as error:
            result["ask"]["json_ok"] = str(error)
    except Exception as error:
        result["ask"] = {"error": repr(error)}
    log(f"llm.ask: {result['ask']}")

result["total_s"] = round(time.monotonic() - T0, 2)
result["gpu_memory_end_mib"] = gpu_memory()
save()
log(f"done in {result['total_s']} s")
EOF

measure() {  # label gpu_layers threads prompt_tokens gen_tokens [--ask]
    local label=$1 t left limit
    t=$(date +%s)
    left=$(( DEADLINE - (t - START) ))
    if [ "$left" -lt 45 ]; then
        log "skipping $label: ${left}s left before DEADLINE=${DEADLINE}s"; step "run_$label" skipped 0; return
    fi
    limit=$(( left < RUN_TIMEOUT ? left : RUN_TIMEOUT ))
    log "measuring $label: n_gpu_layers=$2 threads=$3 prompt ~$4 tokens, $5 generated (limit ${limit}s)"
    timeout "$limit" "$PY" "$WORK/measure.py" --model "$MODEL" --label "$label" --repo "$REPO" \
        --out "$OUT/run_$label.json" --gpu-layers "$2" --threads "$3" --context "$CONTEXT" \
        --prompt-tokens "$4" --gen-tokens "$5" ${6:-} 2>&1 | tee "$OUT/run_$label.log"
    step "run_$label" "rc=${PIPESTATUS[0]}" "$(elapsed $t)"
}
if [ -s "$MODEL" ]; then
    for run in $RUNS; do
        case $run in
            gpu) measure gpu "$GPU_LAYERS" "$GPU_THREADS" "${GPU_PROMPT_TOKENS:-1500}" "${GPU_GEN_TOKENS:-128}" --ask ;;
            cpu) measure cpu 0 "$CPU_THREADS" "${CPU_PROMPT_TOKENS:-300}" "${CPU_GEN_TOKENS:-64}" ;;
        esac
    done
else
    log "no model at $MODEL: no measurement"
fi

# -- the figures ------------------------------------------------------------------
BUILD_OK=$BUILD_OK SCALE=$SCALE START=$START "$PY" - "$OUT" <<'EOF'
import json, os, sys, time
from pathlib import Path
out = Path(sys.argv[1])
def read(name):
    try:
        return json.loads((out / name).read_text())
    except Exception as error:
        return {"missing": f"{name}: {error}"}
env = (out / "env.txt").read_text(errors="replace") if (out / "env.txt").exists() else ""
steps = [line.split("\t") for line in (out / "steps.tsv").read_text().splitlines() if line]
figures = {
    "scale": os.environ["SCALE"], "build": os.environ["BUILD_OK"],
    "steps": {name: {"status": status, "seconds": int(seconds)} for name, status, seconds in steps},
    "llama_cpp": (out / "llama_cpp_info.txt").read_text(errors="replace").splitlines()[:3] if (out / "llama_cpp_info.txt").exists() else None,
    "gpu": (out / "gpu.csv").read_text().strip() if (out / "gpu.csv").exists() else None,
    "model": read("synth_inspect.json"),
    "runs": {},
}
for name in ("gpu", "cpu"):
    run = read(f"run_{name}.json")
    if "missing" in run and not (out / f"run_{name}.log").exists():
        continue
    figures["runs"][name] = run
g, c = figures["runs"].get("gpu", {}), figures["runs"].get("cpu", {})
summary = {"gpu": figures["gpu"], "build": figures["build"],
           "build_s": figures["steps"].get("build", {}).get("seconds"),
           "model_same_shapes_as_real": figures["model"].get("same_tensor_names_and_shapes"),
           "model_tensor_types": figures["model"].get("tensor_types")}
summary.update({k: g.get(k) for k in ("load_s", "layers_offloaded", "first_token_s", "prompt_tok_s", "gen_tok_s",
                                      "gpu_memory_after_load_mib")})
summary["chat_stream_first_chunk_s"] = (g.get("chat_stream") or {}).get("first_chunk_s")
summary["prompt_tokens"] = (g.get("prompt") or {}).get("tokens")
summary["gpu_ask_s"] = (g.get("ask") or {}).get("seconds")
summary["cpu"] = {k: c.get(k) for k in ("load_s", "threads", "first_token_s", "prompt_tok_s", "gen_tok_s")}
summary["cpu"]["prompt_tokens"] = (c.get("prompt") or {}).get("tokens")
if g.get("prompt_tok_s") and c.get("prompt_tok_s"):
    summary["speedup_prompt"] = round(g["prompt_tok_s"] / c["prompt_tok_s"], 1)
if g.get("gen_tok_s") and c.get("gen_tok_s"):
    summary["speedup_gen"] = round(g["gen_tok_s"] / c["gen_tok_s"], 1)
figures["summary"] = summary
figures["total_s"] = int(time.time()) - int(os.environ["START"])
figures["runs"].get("cpu", {}).pop("log_lines", None)
(out / "gpu_llm.json").write_text(json.dumps(figures, indent=1))
print(json.dumps(summary, indent=1))
EOF
log "figures in $OUT/gpu_llm.json; total $(elapsed "$START") s"
sleep 1  # let tee write the last lines
