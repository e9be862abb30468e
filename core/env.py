"""Small typed readers for settings taken from the environment.

Each reader fails loudly (``ImproperlyConfigured``) on a malformed value rather
than guessing. A variable ``NAME_FILE`` may hold the path of a file containing the
value (for secrets mounted as files).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable's text, or the content of the file named by ``NAME_FILE``."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={path!r} cannot be read: {exc}") from exc
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = env_str(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false)")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from exc


def env_float(name: str, default: float) -> float:
    value = env_str(name)
    if value is None or value.strip() == "":
        return default
    try:
        return float(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from exc


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices`` (case-insensitive); ``default`` when unset or blank."""
    value = (env_str(name) or "").strip().lower()
    if not value:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


def env_json(name: str, default: dict) -> dict:
    """A JSON object (e.g. '{"window": 18}'); ``default`` when unset or blank."""
    value = env_str(name)
    if value is None or value.strip() == "":
        return default
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not valid JSON: {exc}") from exc
    if not isinstance(parsed, dict):
        raise ImproperlyConfigured(f"{name}={value!r} is not a JSON object")
    return parsed


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_str(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(url: str, *, base_dir: Path) -> dict:
    """A Django ``DATABASES`` entry from ``postgres://`` or ``sqlite:///`` URLs."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # the path is what follows "sqlite:///": sqlite:///var/db.sqlite3 is relative to
        # the project, sqlite:////srv/db.sqlite3 absolute
        raw = unquote(parts.path)[1:]
        if parts.netloc or not raw:
            raise ImproperlyConfigured(
                f"DATABASE_URL {url!r}: use sqlite:///relative/path or sqlite:////absolute/path"
            )
        path = Path(raw)
        if not path.is_absolute():
            path = base_dir / path
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        options = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        return {
            # Django's backend, its health check without a round trip on a quiet
            # connection (core/postgresql/base.py)
            "ENGINE": "core.postgresql",
            "NAME": unquote(parts.path.lstrip("/")) or "quotient",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite:///)"
    )


def require_secret_key() -> None:
    """Refuse to start a serving process without a secret key when DEBUG is off."""
    from django.conf import settings

    if settings.DEBUG:
        return
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django's own refusal of an empty key, in vaguer words
        key = ""
    if not key:
        raise ImproperlyConfigured("SECRET_KEY (or SECRET_KEY_FILE) is required when DEBUG is off")
