"""Upload handling that refuses an oversized file as soon as it passes the limit."""

from functools import wraps

from django.core.files.uploadhandler import SkipFile, TemporaryFileUploadHandler
from django.http import JsonResponse

from books.registration import Limits
from librarian.inputs import UPLOAD_SLACK, megabytes


class LimitedUploadHandler(TemporaryFileUploadHandler):
    """Stream uploads to temporary files, skipping any file that grows past max_bytes.

    The names of skipped files are kept on ``request.oversized_uploads`` so the
    view can say which files were refused and why.
    """

    def __init__(self, request, max_bytes: int):
        super().__init__(request)
        self.max_bytes = max_bytes
        self.received = 0
        request.oversized_uploads = []

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > self.max_bytes:
            self.request.oversized_uploads.append(self.file_name)
            raise SkipFile()
        return super().receive_data_chunk(raw_data, start)


def install(request, max_bytes: int) -> None:
    """Use the limited handler for this request; call before request.POST is read."""
    request.upload_handlers = [LimitedUploadHandler(request, max_bytes)]


def limited_api_upload(run):
    """Wrap a django-ninja operation taking one file so that an oversized file is refused unread.

    A Content-Length over the limit is answered 413 at once; otherwise the
    limited handler skips the file as soon as it passes the limit, and the 422
    that a missing file would give becomes the same 413. Applied with
    ``ninja.decorators.decorate_view``, it runs before authentication, which
    may read the body (the CSRF check of a session request).
    """

    @wraps(run)
    def wrapper(request, *args, **kwargs):
        limit = Limits.from_settings().max_bytes
        if declared_length(request) > limit + UPLOAD_SLACK:
            return too_large(limit)
        install(request, limit)
        response = run(request, *args, **kwargs)
        if request.oversized_uploads and response.status_code not in (401, 403):
            return too_large(limit)
        return response

    return wrapper


def declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def too_large(limit: int) -> JsonResponse:
    detail = f"The file is larger than the limit of {megabytes(limit)}."
    return JsonResponse({"code": "too_large", "detail": detail}, status=413)
