from django.urls import path

from scoring import views

urlpatterns = [
    path("matches/", views.match_index, name="match-list"),
    path("matches/submit/", views.match_submit, name="match-submit"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
]
