#!/usr/bin/env bash
# Makes .device/ (git-ignored), what scripts/device/gpu_llm_check.sh needs on a
# GPU machine that has no network; about 7 MB in all:
#   llama_cpp_python-0.3.36-slim.tar.gz   the pinned sdist less .git, docs, examples,
#                                         tests, test models, tools the build skips and
#                                         unused ggml backends (still configures with CMake)
#   qwen2.5-coder-1.5b-meta.json.gz       `synth_gguf.py extract` of the real model
#   wheels/                               diskcache, jinja2, markupsafe (cp312), typing-extensions,
#                                         scikit-build-core, pathspec, packaging for Python 3.12
# Then, with the device tool: `run` with carry [".device"] and command
# `bash scripts/device/gpu_llm_check.sh`.
#
# Run from anywhere on a machine with network (pip reaches PyPI) and the real model.
# Output is reproducible: same inputs, same bytes (sorted tar, fixed owners and times,
# gzip without timestamps; the downloads are checked against pinned sha256 sums).
#
# Environment (all optional):
#   CARRY_DIR=.device     where to write (relative to the repository root); only the three
#                         entries above are replaced, via a staging directory
#   SDIST=PATH            llama_cpp_python-0.3.36.tar.gz already at hand (else pip downloads it)
#   MODEL=PATH            the real GGUF (else asked of the project: llm.model_path(...))
#   PYTHON=.venv/bin/python  with numpy; runs synth_gguf.py and the Django look-up
#   PIP="$PYTHON -m pip"
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO"
CARRY_DIR=${CARRY_DIR:-.device}
case $CARRY_DIR in /*) ;; *) CARRY_DIR=$REPO/$CARRY_DIR ;; esac
if [ -z "${PYTHON:-}" ]; then
    if [ -x "$REPO/.venv/bin/python" ]; then PYTHON=$REPO/.venv/bin/python; else PYTHON=python3; fi
fi
PIP=${PIP:-$PYTHON -m pip}

VERSION=0.3.36
NAME=llama_cpp_python-$VERSION
SDIST_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
SLIM=$NAME-slim.tar.gz
META=qwen2.5-coder-1.5b-meta.json.gz

# Removed from the sdist, relative to $NAME/: whole directories, or files.
REMOVE=(
    .git .github docker docs examples tests
    vendor/llama.cpp/.devops vendor/llama.cpp/.git vendor/llama.cpp/.github
    vendor/llama.cpp/app vendor/llama.cpp/benches vendor/llama.cpp/build-xcframework.sh
    vendor/llama.cpp/ci vendor/llama.cpp/conversion vendor/llama.cpp/docs
    vendor/llama.cpp/examples vendor/llama.cpp/media vendor/llama.cpp/models
    vendor/llama.cpp/pocs vendor/llama.cpp/requirements vendor/llama.cpp/scripts
    vendor/llama.cpp/skills vendor/llama.cpp/tests
    vendor/llama.cpp/tools/llama-bench vendor/llama.cpp/tools/perplexity
    vendor/llama.cpp/tools/server vendor/llama.cpp/tools/ui
)
for backend in cann et hexagon metal opencl openvino sycl virtgpu vulkan webgpu zdnn zendnn; do
    REMOVE+=("vendor/llama.cpp/ggml/src/ggml-$backend")
done  # kept: ggml-cpu, ggml-cuda, ggml-blas, ggml-hip, ggml-musa, ggml-rpc

# name==version sha256, as they lie in .device/wheels
WHEELS=(
    "diskcache==5.6.3 5e31b2d5fbad117cc363ebaf6b689474db18a1f6438bc82358b024abd4c2ca19"
    "jinja2==3.1.6 85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"
    "markupsafe==3.0.3 d6dd0be5b5b189d31db7cda48b91d7e0a9795f31430b7f271219ab30f1d3ac9d"
    "packaging==26.4 81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2"
    "pathspec==1.1.1 a00ce642f577bf7f473932318056212bc4f8bfdf53128c78bbd5af0b9b20b189"
    "scikit-build-core==1.1.2 7f4f959a467692db50bdd1ea7ce1507f2c7972e6023b753ee302d169bc4cec85"
    "typing-extensions==4.15.0 f0fa19c6845758ab08074a0cfa8b7aecb71c999ca73d62883bc25cc018c4e548"
)

log() { printf '[%s] prepare_carry: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/prepare_carry.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
STAGE=$TMP/stage
mkdir -p "$STAGE/wheels" "$TMP/src"

# -- the sdist, slimmed ----------------------------------------------------------
if [ -n "${SDIST:-}" ]; then
    [ -f "$SDIST" ] || die "SDIST=$SDIST is not a file"
    log "sdist: $SDIST"
else
    log "downloading the $NAME sdist"
    $PIP download --quiet --no-deps --no-binary :all: --dest "$TMP/dl" "llama-cpp-python==$VERSION"
    SDIST=$(ls "$TMP"/dl/llama_cpp_python-"$VERSION".tar.gz)
fi
echo "$SDIST_SHA256  $SDIST" | sha256sum --check --quiet - || die "$SDIST: not the sdist this list was made for"
tar xzf "$SDIST" -C "$TMP/src" --no-same-owner --preserve-permissions
SRC=$TMP/src/$NAME
for path in "${REMOVE[@]}"; do
    [ -e "$SRC/$path" ] || die "$NAME/$path is not in the sdist"
    rm -rf "${SRC:?}/$path"
done
[ -f "$SRC/CMakeLists.txt" ] && [ -d "$SRC/vendor/llama.cpp/gguf-py/gguf" ] \
    && [ -d "$SRC/vendor/llama.cpp/ggml/src/ggml-cuda" ] || die "the slim tree lacks what the build needs"
# Times: the sdist's own (directories, made by unpacking, clamped to its newest file).
newest=$(find "$SRC" -type f -printf '%T@\n' | sort -n | tail -1)
tar --create --format=gnu --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@${newest%.*}" --clamp-mtime -C "$TMP/src" "$NAME" | gzip -9 -n >"$STAGE/$SLIM"
log "$SLIM: $(tar tzf "$STAGE/$SLIM" | wc -l) entries, $(du -h "$STAGE/$SLIM" | cut -f1)"

# -- the real model's metadata -------------------------------------------------------
if [ -z "${MODEL:-}" ]; then
    MODEL=$(DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-librarian.settings} "$PYTHON" -c '
import django; django.setup(); import llm
print(llm.model_path(llm.LlmConfig.from_settings()) or "")' | tail -1) \
        || die "cannot ask the project for the model: set MODEL=PATH"
fi
[ -f "$MODEL" ] || die "no model at '$MODEL' (LIBRARIAN_LLM_MODEL disabled?): set MODEL=PATH"
log "extracting metadata of $MODEL"
"$PYTHON" "$REPO/scripts/device/synth_gguf.py" --gguf-py "$SRC/vendor/llama.cpp/gguf-py" \
    extract "$MODEL" "$TMP/meta.json.gz"
# the same JSON, re-gzipped without the time and name in the header
"$PYTHON" - "$TMP/meta.json.gz" "$STAGE/$META" <<'EOF'
import gzip, shutil, sys
with gzip.open(sys.argv[1], "rb") as source, open(sys.argv[2], "wb") as raw, \
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as target:
    shutil.copyfileobj(source, target)
EOF

# -- wheels for Python 3.12 on x86_64 Linux --------------------------------------------
for line in "${WHEELS[@]}"; do
    echo "${line% *} --hash=sha256:${line#* }"
done >"$TMP/wheels.txt"
log "downloading ${#WHEELS[@]} wheels"
$PIP download --quiet --no-deps --only-binary=:all: --require-hashes \
    --python-version 3.12 --implementation cp --abi cp312 --platform manylinux2014_x86_64 \
    --dest "$STAGE/wheels" -r "$TMP/wheels.txt"
[ "$(ls "$STAGE/wheels" | wc -l)" -eq "${#WHEELS[@]}" ] || die "expected ${#WHEELS[@]} wheels in $STAGE/wheels"

# -- into place ---------------------------------------------------------------------------
mkdir -p "$CARRY_DIR"
rm -rf "${CARRY_DIR:?}/$SLIM" "${CARRY_DIR:?}/$META" "${CARRY_DIR:?}/wheels"
mv "$STAGE/$SLIM" "$STAGE/$META" "$STAGE/wheels" "$CARRY_DIR/"
log "done: $CARRY_DIR ($(du -sh "$CARRY_DIR" | cut -f1))"
(cd "$CARRY_DIR" && ls -l "$SLIM" "$META" wheels/)
