"""Webhook pages: the endpoints a user runs, registering one (its secret shown once),
an endpoint's deliveries with their attempts, and sending one again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from hooks import selectors, services
from hooks.delivery import delivery_redeliver
from hooks.forms import EndpointCreateForm, EndpointEditForm
from hooks.permissions import endpoints_of


@login_required
def endpoint_list(request: HttpRequest) -> HttpResponse:
    endpoints = endpoints_of(request.user).order_by("club__name", "id")
    return render(request, "hooks/list.html", {"endpoints": endpoints})


@login_required
def endpoint_create(request: HttpRequest) -> HttpResponse:
    form = EndpointCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        with refused_onto(form):
            endpoint = services.endpoint_create(**form.cleaned_data, by=request.user)
            # the one time the secret is shown: this answer is not a redirect
            return render(request, "hooks/created.html", {"endpoint": endpoint})
    return render(request, "hooks/form.html", {"form": form, "creating": True})


@login_required
def endpoint_detail(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = selectors.endpoint_get(pk=pk, user=request.user)
    page = Paginator(selectors.delivery_list(endpoint), 25).get_page(request.GET.get("page"))
    return render(request, "hooks/detail.html", {"endpoint": endpoint, "page": page})


@login_required
def endpoint_edit(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = selectors.endpoint_get(pk=pk, user=request.user)
    initial = {
        "url": endpoint.url,
        "events": endpoint.events,
        "description": endpoint.description,
        "active": endpoint.active,
    }
    form = EndpointEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with refused_onto(form):
            services.endpoint_update(endpoint=endpoint, by=request.user, **form.cleaned_data)
            messages.success(request, _("The endpoint is saved."))
            return redirect("webhook-detail", pk=endpoint.pk)
    return render(request, "hooks/form.html", {"form": form, "endpoint": endpoint})


@login_required
@require_POST
def endpoint_delete(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = selectors.endpoint_get(pk=pk, user=request.user)
    services.endpoint_delete(endpoint=endpoint, by=request.user)
    messages.success(request, _("The endpoint is removed."))
    return redirect("webhook-list")


@login_required
@require_POST
def redeliver(request: HttpRequest, pk: int, delivery: int) -> HttpResponse:
    endpoint = selectors.endpoint_get(pk=pk, user=request.user)
    found = selectors.delivery_get(endpoint, delivery)
    with refused_onto(request=request) as refused:
        delivery_redeliver(delivery=found)
    if refused.exception is None:
        messages.success(request, _("The event is being sent again."))
    return redirect("webhook-detail", pk=endpoint.pk)
