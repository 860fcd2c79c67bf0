from django.contrib import admin

from books.models import Book, Collection, Heading, Page, ReviewFlag


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    """The app's Edit details page is the place for librarians; this is for administrators."""

    list_display = ["title", "authors", "year", "page_count", "languages", "added_by", "added_at"]
    list_filter = ["collections"]
    search_fields = ["title", "authors", "original_filename", "sha256"]
    filter_horizontal = ["collections"]
    # What the pipeline recorded is shown, not edited: the pipeline writes it again.
    readonly_fields = ["sha256", "original_filename", "size_bytes", "page_count", "added_at",
                       "structure", "toc_pages", "lot_pages", "anomalies", "details_from"]


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ["book", "number", "label", "source"]
    list_filter = ["source"]
    list_select_related = ["book"]
    raw_id_fields = ["book"]


@admin.register(Heading)
class HeadingAdmin(admin.ModelAdmin):
    list_display = ["title", "book", "level", "printed_page", "page", "status"]
    list_filter = ["status", "inferred"]
    list_select_related = ["book"]
    raw_id_fields = ["book", "parent"]


@admin.register(ReviewFlag)
class ReviewFlagAdmin(admin.ModelAdmin):
    list_display = ["heading", "reason", "severity", "created_at", "resolved_at"]
    raw_id_fields = ["heading"]
