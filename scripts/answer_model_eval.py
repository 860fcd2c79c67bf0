"""Is the local model's short answer worth showing? Measure it on the natural questions.

    .venv/bin/python scripts/answer_model_eval.py --data ~/.cache/librarian-bench/born \\
        --model ~/.cache/librarian-llm/models/<the gguf> --count 10

For each question (lookups, English and Japanese alternately) the places are
found as chat finds them, then the model writes its short answer from the
first cards. Printed per question and in total: seconds, whether the answer
passes the checks chat applies (every sentence cites a card it was given, the
question's language) and why not, whether it cites the card of the wanted
section, and whether it names a command or code that none of its cards holds
(an invented one). The guide composed by code is right about where by
construction; this says what the model adds.
"""

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT.parent / "shared" / "bookbench" / "questions" / "natural.jsonl"
_CODE = re.compile(r"\\[A-Za-z]+|`([^`]+)`|\b[a-z]+(?:-[a-z]+)+\b|\b[a-z_]+\(\)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--model", required=True, help="a GGUF file, or 'embedded'")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=180)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.update(DJANGO_SETTINGS_MODULE="librarian.settings",
                      LIBRARIAN_DATA_DIR=str(args.data.expanduser()),
                      LIBRARIAN_LLM_MODEL=str(args.model), LIBRARIAN_ANSWER_MODEL="on",
                      LIBRARIAN_ANSWER_SECONDS=str(args.seconds))
    import django

    django.setup()
    from books.models import Book
    from retrieval import ask
    from retrieval.answer import synthesis
    from bench.natural import matches

    ids = {b.original_filename.rsplit(".", 1)[0]: b.pk for b in Book.objects.all()}
    rows = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    english = [r for r in rows if r["kind"] == "lookup" and r["lang"] == "en"]
    japanese = [r for r in rows if r["kind"] == "lookup" and r["lang"] == "ja"]
    chosen = [q for pair in zip(english, japanese) for q in pair][:args.count]
    shown = cited_right = invented = 0
    for question in chosen:
        answer = ask(question["query"])
        cards = synthesis.cards_of(answer)
        started = time.perf_counter()
        status = {}
        text = synthesis.plain("".join(synthesis.stream_synthesis(
            question["query"], answer, status=status)))
        seconds = time.perf_counter() - started
        problem = status.get("reason") or synthesis.check(text, question["query"], len(cards))
        want = question["want"][0]
        right = {n for n, card in enumerate(cards, 1)
                 if matches(card, want, ids.get(want["book_id"]))}
        cites = {int(n) for group in re.findall(r"\[([\d, ]+)\]", text) for n in group.split(",")}
        known = " ".join(f"{c.excerpt} {c.quote} {' '.join(c.breadcrumb)}" for c in cards)
        made_up = [m.group() for m in _CODE.finditer(text) if m.group().strip("`") not in known]
        shown += not problem
        cited_right += bool(right & cites)
        invented += bool(made_up)
        print(json.dumps({"qid": question["qid"], "lang": question["lang"],
                          "seconds": round(seconds, 1), "passes": not problem,
                          "why_not": problem, "cites_the_right_card": bool(right & cites),
                          "right_card_given": bool(right), "invented": made_up[:5],
                          "text": text[:300]}, ensure_ascii=False), flush=True)
    total = len(chosen) or 1
    print(f"\n{len(chosen)} questions: passes the checks {shown}/{total}, cites the right card "
          f"{cited_right}/{total}, names code its cards do not hold {invented}/{total}")


if __name__ == "__main__":
    main()
