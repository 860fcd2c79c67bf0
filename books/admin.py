from django.contrib import admin

from books.models import Book, Heading, Page, ReviewFlag


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ["title", "page_count", "languages", "added_by", "added_at"]
    search_fields = ["title", "original_filename", "sha256"]
    readonly_fields = ["sha256", "original_filename", "size_bytes", "page_count", "added_at"]


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
