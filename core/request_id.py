"""Request ids: one id per request, in each of its log lines and in those of the Celery
tasks it queues.

Words used here:

* **request id** — the ``X-Request-ID`` that nginx sets (``$request_id``) or, when
  none came or it is not a plain token, one made here; the answer carries it back in
  the same header, so a user's report, the access log and the application's logs
  meet on it.
* **task header** — the ``request_id`` header put on every task message queued while
  a request (or a task) runs; the worker takes it back before the task starts, so the
  task's log lines carry the id of the request that queued it.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
TASK_HEADER = "request_id"
#: what an incoming id may look like (anything else is replaced: it goes into logs)
_PLAIN = re.compile(r"[A-Za-z0-9._:-]{8,64}")

current_request_id: ContextVar[str] = ContextVar("request_id", default="")
current_task_id: ContextVar[str] = ContextVar("task_id", default="")


def new_request_id() -> str:
    return uuid.uuid4().hex


def incoming_request_id(request: HttpRequest) -> str:
    """The proxy's id when it is a plain token, else a new one."""
    given = request.headers.get(HEADER, "")
    return given if _PLAIN.fullmatch(given) else new_request_id()


class RequestIdMiddleware:
    """Sets the request's id for its log lines, its tasks and Sentry, and answers it in
    ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = incoming_request_id(request)
        # kept until the answer is sent (``request_finished``): Django logs a 4xx or
        # 5xx after the middlewares returned, and that line carries the id too
        current_request_id.set(rid)
        _tag_error_reports(rid)
        response = self.get_response(request)
        response[HEADER] = rid
        return response


@receiver(request_finished)
def _request_finished(**kwargs: Any) -> None:
    current_request_id.set("")


def _tag_error_reports(rid: str) -> None:
    import sentry_sdk

    if sentry_sdk.get_client().is_active():
        sentry_sdk.set_tag("request_id", rid)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` and ``task_id`` to every log record ("-" when none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get() or "-"
        record.task_id = current_task_id.get() or "-"
        return True


# -- Celery: the id rides on the task message and comes back in the worker ------------

_task_tokens: dict[str, tuple[Token[str], Token[str]]] = {}


def _on_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    rid = current_request_id.get()
    if rid and headers is not None:
        headers.setdefault(TASK_HEADER, rid)


def task_request_id(task: Any) -> str:
    """The request id a task's message carries ("" when none: a beat job)."""
    request = getattr(task, "request", None)
    carried = getattr(request, TASK_HEADER, None) or (getattr(request, "headers", None) or {})
    if isinstance(carried, dict):
        carried = carried.get(TASK_HEADER)
    return carried if isinstance(carried, str) else ""


def _on_prerun(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    # an eager task runs inside its request and keeps that request's id
    rid = task_request_id(task) or current_request_id.get()
    _task_tokens[task_id] = (current_request_id.set(rid), current_task_id.set(task_id))


def _on_postrun(task_id: str = "", **kwargs: Any) -> None:
    tokens = _task_tokens.pop(task_id, None)
    if tokens is None:
        return
    try:
        current_request_id.reset(tokens[0])
        current_task_id.reset(tokens[1])
    except ValueError:  # ended in another context than it started (a thread pool)
        current_request_id.set("")
        current_task_id.set("")


def connect_celery() -> None:
    """Connect the task signals (``quotient.celery`` calls it once)."""
    from celery import signals

    signals.before_task_publish.connect(_on_publish, weak=False)
    signals.task_prerun.connect(_on_prerun, weak=False)
    signals.task_postrun.connect(_on_postrun, weak=False)
