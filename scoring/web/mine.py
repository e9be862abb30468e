"""An organiser's own work (a thin view): ``/matches/mine/`` lists the matches the
user submitted with what became of them, and their bulk imports with their progress
(``scoring.submissions``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.params import whole_number
from scoring.submissions import seat_name, submission_page, submitted_imports


@login_required
def my_submissions(request: HttpRequest) -> HttpResponse:
    """The user's submitted matches (keyset pages, newest first) and imports."""
    before = whole_number(request.GET.get("before"), parameter="before")
    page = submission_page(user=request.user, before=before)
    rows = [{"match": m, "players": [seat_name(s, m) for s in m.seats.all()]} for m in page.matches]
    context = {
        "rows": rows,
        "next_before": page.next_before,
        "first_page": before is None,
        "imports": submitted_imports(user=request.user) if before is None else [],
    }
    return render(request, "scoring/my_submissions.html", context)
