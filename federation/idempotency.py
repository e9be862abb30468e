"""``Idempotency-Key`` for creating POSTs: a retried request is answered, not repeated.

A client that timed out cannot know whether its match was stored; it sends the same
request again with the same ``Idempotency-Key`` header and gets the first answer
(same status, same body, the same match id) without a second row. The same key with
another body is refused with 422 ``idempotency-key-reused``.

The keys live in PostgreSQL (:class:`federation.models.IdempotencyKey`, unique per
user and key), not in a cache. The claim and the work share one transaction: a
concurrent retry's insert waits on the unique index until the first request commits,
then reads its stored answer. A request that fails with an exception stores nothing,
so it can be retried.

The organisers' HTML entry forms honour a key too (:func:`once`): the header, or the
hidden field ``idempotency_key`` their script fills on every submission. A form sent
twice with one key, such as a copy queued on a device without network and sent again
when the network returns, is recorded once; the second answer names the same match.
A refused form stores no key: the corrected form is a new submission.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_errors import refusal
from core.errors import CodedError
from federation.models import IdempotencyKey

HEADER = "Idempotency-Key"
#: the hidden field of an HTML form that carries the key (the header wins)
FORM_FIELD = "idempotency_key"
#: what a form's fingerprint leaves out: the CSRF token changes between two sendings
UNSIGNED_FIELDS = frozenset({"csrfmiddlewaretoken", FORM_FIELD})
LIFETIME = timedelta(hours=24)
MAX_KEY_LENGTH = 255

View = Callable[..., Response]


def idempotent(create: View) -> View:
    """Decorate a viewset's ``create``: honour ``Idempotency-Key`` when one is sent."""

    @functools.wraps(create)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return create(view, request, *args, **kwargs)
        if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
            return _refusal("idempotency-key-invalid", _("The Idempotency-Key is invalid."), 400)
        fingerprint = request_fingerprint(request)
        with transaction.atomic():
            stored = _claim(request.user, key, fingerprint)
            if stored is not None:
                return _replay(stored, fingerprint)
            try:
                response = create(view, request, *args, **kwargs)
            except CodedError as exc:
                response = refusal(exc)  # a refusal is an answer: a retry gets it again
            _store(request.user, key, fingerprint, response)
        return response

    return wrapper


def request_fingerprint(request: Request) -> str:
    """A hash of what the request asks: method, path and body (key order ignored),
    an uploaded file by its name, size and the SHA-256 of its bytes: the same key with
    another file is another request, refused, never a replay."""
    body = json.dumps(_plain(request.data), sort_keys=True, separators=(",", ":"), default=str)
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _plain(value: Any) -> Any:
    """``value`` as JSON can hash it: a form's every value, a file by its content."""
    if isinstance(value, UploadedFile):
        return {"file": value.name, "size": value.size, "sha256": _file_digest(value)}
    if isinstance(value, MultiValueDict):
        return {key: [_plain(item) for item in items] for key, items in value.lists()}
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _file_digest(upload: UploadedFile) -> str:
    """The SHA-256 of an upload's bytes, read in chunks; the file is rewound for the view."""
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return digest.hexdigest()


def _claim(user: Any, key: str, fingerprint: str) -> IdempotencyKey | None:
    """The stored answer for ``key``, or None once this request holds the key."""
    IdempotencyKey.objects.filter(
        user=user, key=key, created_at__lt=timezone.now() - LIFETIME
    ).delete()
    try:
        with transaction.atomic():
            IdempotencyKey.objects.create(
                user=user, key=key, request_hash=fingerprint, status_code=0, response={}
            )
    except IntegrityError:
        # another request with this key committed first (we waited for it): its answer
        return IdempotencyKey.objects.get(user=user, key=key)
    return None


def _store(user: Any, key: str, fingerprint: str, response: Response) -> None:
    IdempotencyKey.objects.filter(user=user, key=key).update(
        status_code=response.status_code, response=response.data
    )


def _replay(stored: IdempotencyKey, fingerprint: str) -> Response:
    if stored.request_hash != fingerprint:
        return _refusal(
            "idempotency-key-reused",
            _("This Idempotency-Key was already used with another request body."),
            422,
        )
    return Response(
        stored.response, status=stored.status_code, headers={"Idempotent-Replayed": "true"}
    )


def _refusal(code: str, message: str, status: int) -> Response:
    return Response({"detail": message, "error": {"code": code, "message": message}}, status)


class IdempotencyRefused(CodedError):
    """An HTML form's key that cannot be used: malformed (400) or already used with
    another form (422)."""

    STATUS_BY_CODE = {"idempotency-key-reused": 422}


def form_key(request: HttpRequest) -> str | None:
    """The ``Idempotency-Key`` of a form POST (the header, else the hidden field), or
    None when it carries none."""
    key = request.headers.get(HEADER) or request.POST.get(FORM_FIELD) or None
    if key is not None and (len(key) > MAX_KEY_LENGTH or not key.isprintable()):
        raise IdempotencyRefused("idempotency-key-invalid")
    return key


def form_fingerprint(request: HttpRequest) -> str:
    """A hash of what a form asks: its path and fields (not its CSRF token or key), and
    the names and sizes of its files."""
    fields = sorted(
        (name, value)
        for name in request.POST
        if name not in UNSIGNED_FIELDS
        for value in request.POST.getlist(name)
    )
    files = sorted(
        (name, f.name or "", f.size or 0)
        for name in request.FILES
        for f in request.FILES.getlist(name)
    )
    body = json.dumps([fields, files], separators=(",", ":"))
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def once(request: HttpRequest, work: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """Do a form's ``work`` once per key: its answer (JSON data, such as the match's
    id), and whether it is the answer of an earlier sending of the same form.

    Without a key the work is done. A refusal of the work (an exception) stores no
    key, so the same key may be sent again. The same key with other fields is refused
    (``idempotency-key-reused``)."""
    key = form_key(request)
    if key is None or not request.user.is_authenticated:
        return work(), False
    fingerprint = form_fingerprint(request)
    with transaction.atomic():
        stored = _claim(request.user, key, fingerprint)
        if stored is not None:
            if stored.request_hash != fingerprint:
                raise IdempotencyRefused("idempotency-key-reused")
            return stored.response, True
        answer = work()
        IdempotencyKey.objects.filter(user=request.user, key=key).update(
            status_code=200, response=answer
        )
    return answer, False


def purge_expired(now: Any = None) -> int:
    """Delete the keys older than :data:`LIFETIME`; returns how many."""
    cutoff = (now or timezone.now()) - LIFETIME
    deleted, _rows = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
