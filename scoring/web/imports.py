"""The bulk import pages (thin views): ``/matches/import/`` takes a file,
``/matches/import/<id>/`` follows its job (``static/quotient/import.js`` polls the
API's status URL) and shows its report once it is over."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.refusals import refused_onto
from federation.permissions import organised_clubs
from scoring.entry.files import MAX_FILE_BYTES, FileRefused, body_too_large
from scoring.imports import import_create, import_list, import_report
from scoring.models import ImportJob
from scoring.tasks import enqueue_import
from scoring.web.forms import ImportForm


@login_required
def match_import(request: HttpRequest) -> HttpResponse:
    """Upload a file of matches; its rows are stored by a background task."""
    if request.method == "POST" and body_too_large(request.META):  # before reading it
        raise FileRefused("import-too-large", limit_mb=MAX_FILE_BYTES >> 20)
    form = ImportForm(request.POST or None, request.FILES or None, user=request.user)
    error = None
    if request.method == "POST" and form.is_valid():
        data, upload = form.cleaned_data, form.cleaned_data["file"]
        with refused_onto(
            denied=_("You may only import matches for a club you organise.")
        ) as refused:
            job = import_create(
                club=data["club"],
                content=upload,
                file_name=upload.name or "",
                played_on=data["played_on"],
                submitted_by=request.user,
                enqueue=enqueue_import,
            )
            return redirect("match-import-detail", pk=job.pk)
        error = refused.error
    context = {"form": form, "error": error, "jobs": import_list(user=request.user)}
    return render(
        request,
        "scoring/import_form.html",
        context,
        status=400 if request.method == "POST" else 200,
    )


@login_required
def match_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An import's progress (the page's script follows it) and its report."""
    clubs = organised_clubs(request.user)
    job = get_object_or_404(
        ImportJob.objects.filter(club__in=clubs).select_related("club").defer("rows"), pk=pk
    )
    report = import_report(job)
    final = job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED)
    return render(
        request, "scoring/import_detail.html", {"job": job, "report": report, "final": final}
    )
