from librarian.auth import is_librarian


def roles(request):
    # A request refused before authentication ran (a Host not allowed, too many fields read
    # by a middleware) has no user yet, and still gets the 400 page.
    user = getattr(request, "user", None)
    return {"is_librarian": user is not None and is_librarian(user)}
