from librarian.auth import is_librarian


def roles(request):
    return {"is_librarian": is_librarian(request.user)}
