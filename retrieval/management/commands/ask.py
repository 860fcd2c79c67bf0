import json

from django.core.management.base import BaseCommand, CommandError

import retrieval
from books.models import Book
from retrieval.results import answer_json


class Command(BaseCommand):
    help = ("Answer a question with the places in the books that answer it: the book to read "
            "first, the places with their pages and the sentence that answers.")

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--book", type=int, action="append", dest="books",
                            help="Search only this book (id); may be given more than once.")
        parser.add_argument("--limit", type=int, default=10)
        parser.add_argument("--json", action="store_true", help="Print the answer as JSON.")

    def handle(self, question, books, limit, json, **options):
        if books and Book.objects.filter(pk__in=books).count() != len(set(books)):
            raise CommandError("No such book: see the ids on the shelf (manage.py addbook prints them).")
        answer, refined, written = retrieval.answered(question, book_ids=books,
                                                      limit=max(1, limit))
        payload = answer_json(answer, written, refined)
        if json:
            self.stdout.write(_dumps(payload))
            return
        self._print(answer, payload)

    def _print(self, answer, payload):
        if answer.guide:
            self.stdout.write(answer.guide + "\n")
        if answer.suggested:
            self.stdout.write("Also searched for the local model's terms: "
                              + ", ".join(answer.suggested) + "\n")
        for number, result in enumerate(payload["results"], 1):
            pages = f"pp. {result['page_start']}–{result['page_end']} of the PDF"
            if result["printed_start"]:
                pages += f", printed {result['printed_start']}–{result['printed_end'] or '?'}"
            self.stdout.write(f"[{number}] {result['book_title']}: {' > '.join(result['breadcrumb'])}")
            self.stdout.write(f"    {pages}; score {result['score']:.3f}")
            self.stdout.write(f"    {(result['quote'] or result['excerpt'])[:200]}")
        refined = payload["refined"]
        if refined and refined["place"]:
            place = refined["place"]
            self.stdout.write(f"Searched again with the local model's terms "
                              f"({', '.join(refined['terms'])}), this comes first: "
                              f"{place['book_title']}: {' > '.join(place['breadcrumb'])}, "
                              f"pp. {place['physical']['start']}–{place['physical']['end']} "
                              "of the PDF")
        if payload["unavailable"]:
            self.stdout.write("The model server did not answer (" + ", ".join(
                payload["unavailable"]) + "): this answer was found without it.")
        for line in (payload["note"], payload["answer_note"]):
            if line:
                self.stdout.write(line)
        if payload["answer"]:
            self.stdout.write("\n" + payload["answer"])


def _dumps(payload) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2)
