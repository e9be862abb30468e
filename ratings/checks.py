"""System checks of the ranking settings (``manage.py check``, migrate, runserver)."""

from __future__ import annotations

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from ratings.close import ranking_params


@checks.register()
def ranking_parameters(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """``settings.RANKING_PARAMS`` must make valid ranking parameters."""
    try:
        ranking_params()
    except ImproperlyConfigured as exc:
        hint = "See RANKING_PARAMS in quotient/settings/base.py and docs/ranking.md."
        return [checks.Error(str(exc), hint=hint, id="ratings.E001")]
    return []
