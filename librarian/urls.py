from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from django.views.decorators.cache import cache_control

from librarian.api import api


@cache_control(max_age=86400)
def favicon(request):
    """Send browsers that ask for /favicon.ico (the admin and API docs pages) to the icon."""
    return redirect(static("favicon.svg"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switch
    # Not cached: it changes with the language the switch sets, which no Vary header names.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("books.review.urls")),
    path("", include("books.urls")),
    path("", include("indexing.urls")),
    path("", include("chat.urls")),
]
