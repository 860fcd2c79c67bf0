"""The same model in this process and behind llama-cpp-python's server: same answers? what cost?

Starts ``python -m llama_cpp.server`` on loopback with the GGUF the embedded model
uses (same context, one thread, as ``LlmConfig``'s defaults) and puts the same
calls, with the project's own prompts, to the model loaded here (``llm.load``) and
to the server (``llm.served``), one after the other, at temperature 0:

- verify: the verify agent's question about a heading code placed (its placement
  hidden, as ``scripts/agent_eval.py`` asks), JSON in the agent's schema;
- terms: the index terms for a natural lookup (``retrieval.question.suggest``);
- answer: the short answer over the question's first cards (``synthesis``'s prompt);

and prints whether each answer is the same text, and the seconds each took. Then
``--overhead`` tiny calls (one token) each way give the cost of the HTTP hop.
``--memory`` starts three processes (a web process and two workers) that each
load the model and answer one call, and three that ask the server instead, and
prints their RSS and PSS (the model file is mapped, so its pages are shared
between processes: PSS counts them once) with the server's.

Usage, in a data directory whose books ran the pipeline (bookbench's):
  LIBRARIAN_DATA_DIR=~/.cache/served-bench/born .venv/bin/python scripts/served_eval.py \\
      --model DATA/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf --verify 2 --terms 4 \\
      --answers 2 --overhead 10 --memory --json /tmp/served_eval.json
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

import django  # noqa: E402

django.setup()

import llm  # noqa: E402
from tests.model_server import Server  # noqa: E402

TRUTH = Path(os.environ.get("BOOKBENCH_TRUTH", ROOT.parent / "shared" / "bookbench"))
CHILD = """
import os, sys, time, json
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")
import django; django.setup()
import llm
model = llm.load()
llm.ask(model, [{{"role": "user", "content": "Name one knot."}}], None, max_tokens=8,
        timeout=600)
def field(name):
    for path in ("/proc/self/status", "/proc/self/smaps_rollup"):
        for line in open(path):
            if line.startswith(name + ":"):
                return int(line.split()[1]) // 1024
print(json.dumps({{"rss_mb": field("VmRSS")}}), flush=True)
sys.stdin.readline()  # held until every process of the set is measured
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--verify", type=int, default=2)
    parser.add_argument("--terms", type=int, default=4)
    parser.add_argument("--answers", type=int, default=2)
    parser.add_argument("--overhead", type=int, default=10)
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    figures = {"load": os.getloadavg()}
    server = Server(args.model, Path("/tmp/served_eval_server.log"), context=4096)
    try:
        here = llm.load(llm.LlmConfig(model=str(args.model), threads=1, context=4096))
        there = llm.load(llm.LlmConfig(url=server.url, idle_seconds=900, concurrency=1))
        calls = verify_calls(args.verify) + term_calls(args.terms) + answer_calls(args.answers)
        figures["calls"] = [compare(here, there, call, n) for n, call in enumerate(calls)]
        figures["overhead"] = overhead(here, there, args.overhead)
        print(json.dumps(figures["overhead"]), flush=True)
        if args.memory:
            del here
            llm.runtime._close_loaded()
            figures["memory"] = memory(args.model, server)
    finally:
        server.stop()
    report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False))


def verify_calls(count: int) -> list[dict]:
    """Return the verify agent's questions about headings code placed, one per call."""
    from books.models import Book
    from indexing.agent.ask import labelled, messages, schema
    from indexing.contract import StageContext
    from indexing.stages.verify import HEADING_FIELDS, _Agent

    calls = []
    for book in Book.objects.order_by("pk") if count else ():
        headings = list(book.headings.order_by("position").values(*HEADING_FIELDS))
        exact = [i for i, h in enumerate(headings) if h["status"] == "exact"]
        for index in random.Random(book.pk).sample(exact, min(len(exact), 8)):
            hidden = [dict(h) for h in headings]
            hidden[index].update(page=None, status="unresolved")
            question, _ = _Agent(StageContext.from_settings().llm, None, book, hidden) \
                .question(index)
            if question is not None:
                calls.append({"kind": "verify", "messages": messages([question]),
                              "schema": schema([question], list(labelled([question]))),
                              "max_tokens": 160})
                break
        if len(calls) >= count:
            return calls
    return calls


def lookups(count: int) -> list[str]:
    rows = [json.loads(line) for line in (TRUTH / "questions" / "natural.jsonl").read_text()
            .splitlines() if line.strip()]
    picked = [row["query"] for row in rows if row["kind"] == "lookup"]
    return picked[::max(1, len(picked) // max(count, 1))][:count]


def term_calls(count: int) -> list[dict]:
    from retrieval.question import suggest

    calls = []
    for question in lookups(count):
        messages = [{"role": "system", "content": suggest.PROMPT}]
        for asked, answered in suggest.EXAMPLES:
            messages += [{"role": "user", "content": asked},
                         {"role": "assistant", "content": answered}]
        messages.append({"role": "user", "content": question})
        calls.append({"kind": "terms", "messages": messages, "schema": None,
                      "max_tokens": suggest.MAX_TOKENS})
    return calls


def answer_calls(count: int) -> list[dict]:
    from retrieval import pipeline
    from retrieval.answer import synthesis

    calls = []
    for question in lookups(count + 3)[3:]:
        answer = pipeline.ask(question, suggested=False)
        if answer.results:
            calls.append({"kind": "answer", "schema": None, "max_tokens": 120,
                          "messages": synthesis.build_messages(question, answer.results,
                                                               nonce="0123456789ab")})
    return calls


def compare(here, there, call: dict, n: int) -> dict:
    """Return the call's answer from each model, whether they are the same, and the time."""
    order = [("here", here), ("there", there)]
    out = {"kind": call["kind"]}
    for name, model in order if n % 2 == 0 else order[::-1]:  # neither always goes first
        started = time.monotonic()
        reply = llm.ask(model, call["messages"], call["schema"], max_tokens=call["max_tokens"],
                        timeout=900)
        out[name] = {"text": reply.text, "seconds": round(time.monotonic() - started, 2),
                     "answer_tokens": reply.answer_tokens}
    out["same"] = out["here"]["text"] == out["there"]["text"]
    print(f"{call['kind']:7} same={out['same']} here {out['here']['seconds']} s, there "
          f"{out['there']['seconds']} s: {out['here']['text'][:70]!r}", flush=True)
    return out


def overhead(here, there, count: int) -> dict:
    """Return the median seconds of a one-token call each way, and their difference."""
    times = {"here": [], "there": []}
    messages = [{"role": "user", "content": "Say yes."}]
    for n in range(count):
        for name, model in (("here", here), ("there", there))[:: 1 if n % 2 == 0 else -1]:
            started = time.monotonic()
            llm.ask(model, messages, None, max_tokens=1, timeout=300)
            times[name].append(time.monotonic() - started)
    medians = {name: round(statistics.median(values) * 1000, 1) for name, values in times.items()}
    return {**{f"{name}_ms": value for name, value in medians.items()},
            "difference_ms": round(medians["there"] - medians["here"], 1), "calls": count}


def memory(model: Path, server: Server) -> dict:
    """Return the RSS of three processes with the model in each, and of three asking the
    server, with the server's own; each set measured while all its processes live."""
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    in_each = measure(3, {**env, "LIBRARIAN_LLM_MODEL": str(model),
                          "LIBRARIAN_LLM_URL": ""})
    asking = measure(3, {**env, "LIBRARIAN_LLM_URL": server.url})
    return {"model_in_each": in_each, "asking_a_server": asking,
            "server": process_memory(server.process.pid)}


def measure(count: int, env: dict) -> list[dict]:
    children = [subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT))], env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for _ in range(count)]
    found = []
    for child in children:
        line = child.stdout.readline()
        if not line:
            raise RuntimeError("a measured process failed (its error is above)")
        found.append({**json.loads(line), **process_memory(child.pid)})
    for child in children:
        child.communicate("\n", timeout=60)
    return found


def process_memory(pid: int) -> dict:
    """Return a process's RSS and PSS in MB (/proc/PID/smaps_rollup)."""
    out = {}
    for line in open(f"/proc/{pid}/smaps_rollup"):
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss"):
            out[name.lower() + "_mb"] = int(rest.split()[0]) // 1024
    return out


def report(figures: dict) -> None:
    calls = figures["calls"]
    print(f"\nSame text in {sum(c['same'] for c in calls)} of {len(calls)} calls at temperature 0 "
          f"(load average {figures['load'][0]:.1f})")
    for kind in ("verify", "terms", "answer"):
        mine = [c for c in calls if c["kind"] == kind]
        if mine:
            here = statistics.median(c["here"]["seconds"] for c in mine)
            there = statistics.median(c["there"]["seconds"] for c in mine)
            print(f"  {kind:7} {sum(c['same'] for c in mine)}/{len(mine)} same; median "
                  f"{here:.1f} s in process, {there:.1f} s through the server")
    o = figures["overhead"]
    print(f"One-token call, median of {o['calls']}: {o['here_ms']} ms in process, "
          f"{o['there_ms']} ms through the server ({o['difference_ms']:+} ms)")
    if "memory" in figures:
        m = figures["memory"]
        for name in ("model_in_each", "asking_a_server"):
            rows = m[name]
            print(f"{name:16} RSS {[r['rss_mb'] for r in rows]} MB (sum "
                  f"{sum(r['rss_mb'] for r in rows)}), PSS sum {sum(r['pss_mb'] for r in rows)} MB")
        print(f"the server        RSS {m['server']['rss_mb']} MB, PSS {m['server']['pss_mb']} MB")


if __name__ == "__main__":
    main()
