#!/usr/bin/env bash
# Installs llama-cpp-python into the given Python from a wheel cache outside the
# repository, building the wheel from source once when it is missing.
#
# Why: PyPI ships only the source of llama-cpp-python, a build takes 15-25
# minutes on two cores, and the default -march=native build dies with SIGILL
# (an AMX instruction) on these CPUs. The cache directory is keyed by version
# and build flags so that a wheel built with other flags is never reused.
set -euo pipefail

python=${1:?usage: install-llama.sh PYTHON}
version=${LLAMA_CPP_VERSION:-0.3.36}
flags=${LLAMA_CMAKE_ARGS:--DGGML_NATIVE=OFF}
cache_root=${LIBRARIAN_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/librarian/wheels}
key=$(printf '%s|%s|%s' "$version" "$flags" "$("$python" -c 'import sys; print(sys.implementation.cache_tag)')" | sha256sum | cut -c1-16)
cache="$cache_root/llama-cpp-python-$version-$key"

if "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('llama_cpp_python') != '$version')" 2>/dev/null; then
    exit 0
fi

if ! ls "$cache"/llama_cpp_python-*.whl >/dev/null 2>&1; then
    echo "Building llama-cpp-python $version (CMAKE_ARGS=$flags) once into $cache; this takes 15-25 minutes." >&2
    tmp=$(mktemp -d "$cache_root.tmp.XXXXXX" 2>/dev/null || { mkdir -p "$cache_root"; mktemp -d "$cache_root.tmp.XXXXXX"; })
    trap 'rm -rf "$tmp"' EXIT
    CMAKE_ARGS="$flags" FORCE_CMAKE=1 "$python" -m pip wheel --no-deps --no-binary llama-cpp-python \
        "llama-cpp-python==$version" -w "$tmp"
    mkdir -p "$cache_root"
    rm -rf "$cache" && mv "$tmp" "$cache"
    printf 'version=%s\nCMAKE_ARGS=%s\n' "$version" "$flags" >"$cache/BUILD_FLAGS"
fi
"$python" -m pip install --no-deps --no-index --find-links "$cache" "llama-cpp-python==$version"
