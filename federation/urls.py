from django.urls import path

from federation import views, views_notifications, views_players

urlpatterns = [
    path("players/", views.player_search, name="player-search"),
    path("organiser/players/new/", views.player_register, name="player-register"),
    path("account/player/", views_players.player_claim, name="player-claim"),
    path("organiser/invitations/new/", views_players.invitation_new, name="invitation-new"),
    path(
        "account/invitation/<str:token>/",
        views_players.invitation_accept_page,
        name="invitation-accept",
    ),
    path(
        "account/notifications/",
        views_notifications.notification_settings,
        name="notification-settings",
    ),
    path(
        "account/notifications/unsubscribe/<str:token>/",
        views_notifications.unsubscribe,
        name="notification-unsubscribe",
    ),
    path("organiser/claims/", views_players.claim_list, name="claim-list"),
    path("organiser/claims/<int:pk>/", views_players.claim_decision, name="claim-decision"),
]
