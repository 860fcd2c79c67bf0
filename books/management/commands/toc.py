import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from books.models import Book, Heading


class Command(BaseCommand):
    help = "Print a book's recovered table of contents, in reading order."

    def add_arguments(self, parser):
        parser.add_argument("book_id", type=int)
        parser.add_argument("--json", action="store_true", help="Print a JSON list.")

    def handle(self, book_id, json, **options):
        book = Book.objects.filter(pk=book_id).first()
        if book is None:
            raise CommandError(f"There is no book {book_id}.")
        # Rejected entries stay in the database with their history, never in the contents.
        headings = list(book.headings.exclude(status=Heading.Status.REJECTED).order_by("position"))
        if json:
            self.stdout.write(jsonlib.dumps([
                {"level": h.level, "title": h.title, "printed_page": h.printed_page or None,
                 "page": h.page, "page_end": h.page_end, "status": h.status,
                 "confidence": round(h.confidence, 3)}
                for h in headings
            ], ensure_ascii=False, indent=1))
            return
        if not headings:
            self.stdout.write(f"“{book}” has no recovered table of contents ({book.get_structure_display()}).")
        for h in headings:
            where = f"p. {h.page}" if h.page else (
                "not in the body" if h.status == Heading.Status.ABSENT else "not placed")
            printed = f" (printed {h.printed_page})" if h.printed_page else ""
            self.stdout.write(f"{'  ' * (h.level - 1)}{h.title} … {where}{printed} [{h.status}]")
