"""``/accounts/``: the two-step login, two-factor enrolment and API tokens (before
django.contrib.auth's own URLs: this login replaces its login)."""

from django.urls import path

from quotient.accounts import login, pages, reset

urlpatterns = [
    path("login/", login.PasswordStepView.as_view(), name="login"),
    path("login/code/", login.login_code, name="login-code"),
    path("two-factor/", pages.two_factor, name="two-factor"),
    path("two-factor/enrol/", pages.two_factor_enrol, name="two-factor-enrol"),
    path("two-factor/recovery-codes/", pages.recovery_codes_new, name="two-factor-recovery"),
    path("two-factor/off/", pages.two_factor_off, name="two-factor-off"),
    # Django's reset, at most PASSWORD_RESET_RATE mails per address and per account
    path("password_reset/", reset.password_reset, name="password_reset"),
    path("tokens/", pages.api_tokens, name="api-tokens"),
    path("tokens/<int:pk>/revoke/", pages.api_token_revoke, name="api-token-revoke"),
]
