from django.contrib import admin

from indexing.models import StageRun


@admin.register(StageRun)
class StageRunAdmin(admin.ModelAdmin):
    list_display = ["book", "stage", "status", "attempts", "done", "total", "seconds", "claimed_by"]
    list_filter = ["stage", "status"]
    list_select_related = ["book"]
    raw_id_fields = ["book"]
