"""Upload handling that refuses an oversized file as soon as it passes the limit."""

from django.core.files.uploadhandler import SkipFile, TemporaryFileUploadHandler


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
