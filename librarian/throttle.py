"""What a locked-out sign-in is told (django-axes counts the failures).

After ``LIBRARIAN_LOGIN_FAILURES`` failed sign-ins for one account from one
address, that account is refused from there for ``LIBRARIAN_LOGIN_LOCKOUT_MINUTES``,
on the login page and through the API's HTTP Basic alike; no password is
checked meanwhile, so a guess costs nothing. The answer says so: 429, with
when to try again.
"""

from django.contrib.auth.forms import AuthenticationForm
from django.http import JsonResponse
from django.shortcuts import render

from librarian.config import setting


def lockout_message() -> str:
    minutes = setting("LOGIN_LOCKOUT_MINUTES")
    return (f"Too many failed sign-ins for this account from here. Try again in "
            f"{minutes} minute{'s' if minutes != 1 else ''}, or ask an administrator.")


def lockout(request, original_response=None, credentials=None):
    """Return the answer to a sign-in attempt while it is locked out (AXES_LOCKOUT_CALLABLE)."""
    retry_after = str(setting("LOGIN_LOCKOUT_MINUTES") * 60)
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "locked_out", "detail": lockout_message()}, status=429)
    else:
        form = AuthenticationForm(request, data=request.POST or None)
        response = render(request, "registration/login.html",
                          {"form": form, "locked_out": lockout_message()}, status=429)
    response["Retry-After"] = retry_after
    return response
