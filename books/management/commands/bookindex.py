import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from books import bookindex
from books.models import Book


class Command(BaseCommand):
    help = "Print a book's back-of-book index as read: each entry with its pages."

    def add_arguments(self, parser):
        parser.add_argument("book_id", type=int)
        parser.add_argument(
            "--json", action="store_true",
            help='Print a JSON list of {"term", "parent", "pages" (physical, 1-based), '
                 '"labels" (printed), "see"}.')

    def handle(self, book_id, json, **options):
        book = Book.objects.filter(pk=book_id).first()
        if book is None:
            raise CommandError(f"There is no book {book_id}.")
        entries = bookindex.records(book)
        if json:
            self.stdout.write(jsonlib.dumps(entries, ensure_ascii=False, indent=1))
            return
        if not entries:
            self.stdout.write(f"“{book}” has no back-of-book index (or it is not read yet).")
        shown: list[str] = []  # the chain of terms printed last, to print a parent only once
        for entry in entries:
            chain = entry["parent"].split(" > ") if entry["parent"] else []
            for depth, parent in enumerate(chain):
                if shown[depth:depth + 1] != [parent]:  # a parent printed with no pages of its own
                    self.stdout.write(f"{'  ' * depth}{parent}")
                    shown = shown[:depth] + [parent]
            shown = chain + [entry["term"]]
            depth = len(chain)
            pages = ", ".join(entry["labels"])
            placed = ", ".join(str(page) for page in entry["pages"])
            see = f" → see {'; '.join(entry['see'])}" if entry["see"] else ""
            where = f" … {pages} (pp. {placed})" if pages else ""
            self.stdout.write(f"{'  ' * depth}{entry['term']}{where}{see}")
