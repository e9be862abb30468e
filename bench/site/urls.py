"""URLs of the load benchmark (``bench.site.settings``): the project's, and a bare
view that does nothing, the floor each endpoint is compared with."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from quotient.urls import handler400, handler403, handler404, handler500, urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def bare(request: HttpRequest) -> HttpResponse:
    """As little as a view can do: what every request costs before its own work."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [*urlpatterns, path("bench/bare/", bare, name="bench-bare")]
