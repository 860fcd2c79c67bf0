"""multipart/form-data bodies for raw HTTP requests, written the way browsers write them."""

import secrets


def form_data(filename: str, content: bytes, name: str = "file",
              content_type: str = "application/pdf") -> tuple[str, bytes]:
    """Return (the Content-Type header, the body) of a form that sends one file.

    The boundary is random and long, as a browser's is. A short fixed one
    turns up inside binary files (about one noise PDF of 2 MB in six holds
    "--b"), and the server then rightly reads a broken form: RFC 2046 has the
    sender choose a boundary that the data lacks.
    """
    boundary = "----LibrarianFormBoundary" + secrets.token_hex(16)
    assert boundary.encode() not in content
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n').encode()
    return (f"multipart/form-data; boundary={boundary}",
            head + content + f"\r\n--{boundary}--\r\n".encode())
