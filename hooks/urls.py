"""Webhook pages, under ``/webhooks/``."""

from django.urls import path

from hooks import views

urlpatterns = [
    path("", views.endpoint_list, name="webhook-list"),
    path("new/", views.endpoint_create, name="webhook-create"),
    path("<int:pk>/", views.endpoint_detail, name="webhook-detail"),
    path("<int:pk>/edit/", views.endpoint_edit, name="webhook-edit"),
    path("<int:pk>/delete/", views.endpoint_delete, name="webhook-delete"),
    path(
        "<int:pk>/deliveries/<int:delivery>/redeliver/",
        views.redeliver,
        name="webhook-redeliver",
    ),
]
