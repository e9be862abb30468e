"""A URLconf with a view that fails (the error-reporting tests)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path


class Boom(RuntimeError):
    """The failure a test expects to see reported."""


def boom(request: HttpRequest) -> HttpResponse:
    raise Boom("the view failed on purpose")


urlpatterns = [path("boom", boom, name="boom")]
