"""Quotient settings, read from the environment (see README "Configuration").

Production behaviour is switched by variables, never by a separate code path.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from core.env import (
    database_from_url,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_json,
    env_list,
    env_str,
)
from core.sentry import sentry_init

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", default=False)
# Required when DEBUG is off: the processes that serve or run tasks (wsgi, asgi, the
# Celery app) refuse to start without it (``core.env.require_secret_key``), and
# Django refuses an empty key on first use. Offline commands (makemigrations, check)
# still run without one.
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
#: The site's public address: the absolute links of webhook payloads, calendar feeds,
#: tournament archives and mails sent by workers (``core.site``), never taken from a
#: request.
SITE_URL = env_str("SITE_URL") or "http://127.0.0.1:8000"

INSTALLED_APPS = [
    # the admin on a site that asks for the second factor (quotient.accounts.admin_site)
    "quotient.accounts.apps.QuotientAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_countries",
    "axes",
    "csp",
    "django_celery_beat",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "quotient",
    "quotient.accounts",
    "federation",
    "hooks",
    "scoring",
    "ratings",
    "tournaments",
]

MIDDLEWARE = [
    # first: every answer is counted and carries its request id, other middlewares' too
    "core.metrics.RequestMetricsMiddleware",
    "core.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # before the CSRF check, the first to read a form: the long forms' raised limits,
    # and a form refused for its size shown again (core.form_limits)
    "core.form_limits.FormSizeMiddleware",
    # after the raised limits (it reads the forms' fields), before the CSRF check
    "core.middleware.RejectUnsafeCharactersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "quotient.accounts.middleware.TwoFactorRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-csp's, its policies built once a process
    "core.csp.CSPMiddleware",
    "core.error_pages.RefusalPagesMiddleware",
    # last: it answers a locked-out login with 429 (django-axes)
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "quotient.urls"

# The long forms (URL names): a divisor score sheet posts 3 fields a row and promises
# 40 deals of up to 800 rows (96,000 fields). Every other form keeps Django's limits
# (1,000 fields, 2.5 MB); a form refused for its size is shown again (core.form_limits).
LARGE_FORMS = (
    "match-enter-sheet",
    "match-enter-summary",
    "tournament-table-result",
    "match-correct",
)
LARGE_FORM_FIELDS = 100_000
LARGE_FORM_BYTES = 8 * 1024 * 1024
WSGI_APPLICATION = "quotient.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL") or "sqlite:///var/quotient.sqlite3", base_dir=BASE_DIR
    )
}
# The hot plain-SQL selectors' queries as prepared statements on PostgreSQL, planned
# once per connection (core.prepared); 0 behind a transaction-pooling pgbouncer
DATABASE_PREPARED = env_bool("DATABASE_PREPARED", default=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en") or "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: The federation's time zone: submission deadlines and the month close use it.
TIME_ZONE = env_str("TIME_ZONE", "Europe/Berlin") or "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

AUTHENTICATION_BACKENDS = [
    # first: refuses a locked-out username/address before any password is checked
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
#: Login lockout (django-axes) on /accounts/login/ and /admin/login/: after
#: AXES_FAILURE_LIMIT failures for one username from one address, that pair is locked
#: for AXES_COOLOFF_MINUTES (answered 429); federation admins unlock in the admin.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "errors/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
# the one client-address rule of throttles and lockouts (core.clients, PROXY_COUNT)
AXES_CLIENT_IP_CALLABLE = "core.clients.client_address"
AXES_USERNAME_CALLABLE = "core.clients.login_username"
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)

# Mail (password resets): printed on the console unless an SMTP server is configured.
EMAIL_HOST = env_str("EMAIL_HOST") or ""
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "quotient@localhost"
#: At most this many password-reset mails per address asked for and per account
#: (``quotient.accounts.reset``); past it the page answers as usual and sends none.
PASSWORD_RESET_RATE = env_str("PASSWORD_RESET_RATE", "3/hour") or "3/hour"

#: Two-factor logins (``quotient.accounts.twofactor``): staff and federation admins
#: must log in with an authenticator app's code (on by default when DEBUG is off; the
#: quick start turns it off); organisers may. A code is asked only of accounts with a
#: device.
REQUIRE_2FA = env_bool("REQUIRE_2FA", default=not DEBUG)
OTP_TOTP_ISSUER = "Quotient"
#: API tokens (``quotient.accounts.tokens``) expire this many days after their creation.
TOKEN_LIFETIME_DAYS = env_int("TOKEN_LIFETIME_DAYS", 365)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

#: Reverse proxies in front of gunicorn that append to X-Forwarded-For (nginx: 1).
#: 0 (the default): the header is ignored and the client is the connection's peer.
#: Throttles, login lockouts and cache budgets all use this rule (``core.clients``).
PROXY_COUNT = env_int("PROXY_COUNT", 0)
THROTTLE = env_bool("THROTTLE", default=True)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # token first: an anonymous write gets 401 with a WWW-Authenticate header
        "quotient.accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.SafeJSONParser",
        "core.parsers.SafeFormParser",
        "core.parsers.SafeMultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
    # THROTTLE=0 turns DRF throttling off (load benchmarks); auth/token/ keeps its
    # own strict scope either way unless THROTTLE=0.
    "DEFAULT_THROTTLE_CLASSES": [
        # per client address (core.clients), per process while Redis is down
        "core.throttling.AnonThrottle",
        "core.throttling.UserThrottle",
    ]
    if THROTTLE
    else [],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("THROTTLE_ANON", "120/min"),
        "user": env_str("THROTTLE_USER", "600/min"),
        "login": env_str("THROTTLE_LOGIN", "10/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Quotient API",
    "DESCRIPTION": "Results, scoring and ranking of the domino federation and its clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the project's own static files: no CDN, works offline
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # the tournament archive's and the webhook messages' schemas (quotient.openapi)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "quotient.openapi.add_components",
    ],
}

# Content-Security-Policy (django-csp): scripts only from our own static files (no
# inline script anywhere, the API docs included); inline style attributes are allowed
# because the admin and ReDoc set some.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "worker-src": [SELF, "blob:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Celery: with no broker configured, tasks run in-process (quick start only).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or ""
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else None
)
CELERY_TIMEZONE = TIME_ZONE

# The cache (throttle counters, rendered ranking pages, CSV, player history;
# ``docs/ranking.md`` "Serving the lists"): ``CACHE_URL``, else the broker's Redis with
# the next database number (``/0`` -> ``/1``), else in-process (the quick start).
# Redis failures are misses, never errors (``core.caches.SafeRedisCache``).
_BROKER = env_str("CELERY_BROKER_URL") or ""
CACHE_URL = env_str("CACHE_URL") or ""
if not CACHE_URL and _BROKER.startswith("redis"):
    _BROKER_HOST, _SLASH, _BROKER_DB = _BROKER.rpartition("/")
    CACHE_URL = (
        f"{_BROKER_HOST}/{(int(_BROKER_DB) + 1) % 16}" if _BROKER_DB.isdigit() else f"{_BROKER}/1"
    )
CACHES = {
    "default": (
        {
            "BACKEND": "core.caches.SafeRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX") or "quotient",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
#: An anonymous client (``core.clients``) may add this many rendered pages or API
#: bodies to the cache per CACHE_FILL_WINDOW seconds; past that its pages are served
#: but not kept (``core.http_cache.cached``): the cache holds a bounded amount per client.
CACHE_FILLS_PER_CLIENT = env_int("CACHE_FILLS_PER_CLIENT", 200)
CACHE_FILL_WINDOW = env_int("CACHE_FILL_WINDOW", 600)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_TRACK_STARTED = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
#: The month close runs on the 1st of each month shortly after midnight (federation time).
CELERY_BEAT_SCHEDULE = {
    "rankings-month-close": {
        "task": "ratings.tasks.close_previous_month",
        "schedule": crontab(minute=15, hour=0, day_of_month=1),
    },
    # runs left queued more than 10 minutes (broker down when queued) are sent again
    "rankings-resend-stale-runs": {
        "task": "ratings.tasks.resend_stale_runs",
        "schedule": crontab(minute="*/5"),
    },
    # imports left queued more than 5 minutes (broker down at the upload) are sent again
    "imports-resend-stale": {
        "task": "scoring.tasks.resend_stale_imports",
        "schedule": crontab(minute="*/5"),
    },
    # analyses still pending 10 minutes after their match's last change (their task
    # lost: broker down at the commit, worker killed) are sent again
    "analyses-resend-stale": {
        "task": "scoring.tasks.resend_stale_analyses",
        "schedule": crontab(minute="*/10"),
    },
    # webhook deliveries whose task was lost (a worker stopped mid-attempt, a broker
    # restarted) are sent again; the first retry never waits for this
    "webhooks-sweep": {
        "task": "hooks.tasks.sweep",
        "schedule": crontab(minute="*"),
    },
    # idempotency keys past their 24 h lifetime are deleted once a day
    "idempotency-keys-purge": {
        "task": "federation.tasks.purge_idempotency_keys",
        "schedule": crontab(minute=40, hour=3),
    },
}

#: The world ranking's parameters (docs/ranking.md), stored with every published list:
#: ``window`` (a list counts the results of that many months; a result that reaches the
#: federation ``window`` months after its play month is never rated, see
#: ``federation.months``), ``plateau`` (months at full weight), ``min_results`` (to be
#: ranked), ``model`` ("PlackettLuce" or "BradleyTerryFull"); ``mu0``, ``sigma0``,
#: ``beta``, ``kappa`` and ``tau`` may be set too. A complete dict: the environment's
#: RANKING_PARAMS (a JSON object, e.g. '{"window": 18}') overrides single keys, and
#: ``manage.py check`` refuses values the ranking engine would.
RANKING_PARAMS: dict = {
    "window": 12,
    "plateau": 2,
    "min_results": 5,
    "model": "PlackettLuce",
    **env_json("RANKING_PARAMS", {}),
}
#: Results per chunk of a monthly batch (the list does not depend on it).
RANKING_CHUNK_SIZE = env_int("RANKING_CHUNK_SIZE", 20_000)
#: The month close computes a list in the process of its task; with RANKING_FAN_OUT=1
#: each monthly batch is fanned out to the Celery workers instead, as a chord of chunk
#: tasks (needs a result backend: Redis). Both publish the same list, bit for bit.
RANKING_FAN_OUT = env_bool("RANKING_FAN_OUT", default=False)

#: ``json`` (one JSON object a line, for the log collector: production's default) or
#: ``text`` (readable lines: the quick start's). Both carry the request id
#: (``core.request_id``), also in the log lines of the tasks a request queued.
LOG_FORMAT = env_choice("LOG_FORMAT", ("json", "text"), "text" if DEBUG else "json")
#: Webhooks (``hooks``): with WEBHOOK_ALLOW_PRIVATE=1 (the quick start, the tests) an
#: endpoint may be a plain-http URL on a private or loopback address; otherwise only
#: https to public addresses, checked at registration and again at every attempt. A
#: failed attempt is retried after WEBHOOK_FIRST_RETRY_SECONDS, then after four times
#: longer each time, for up to 24 hours after the first attempt.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", default=False)
WEBHOOK_FIRST_RETRY_SECONDS = env_float("WEBHOOK_FIRST_RETRY_SECONDS", 30.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "core.request_id.RequestIdFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(task_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO") or "INFO"},
}
# the worker logs through LOGGING too (JSON in production), not through Celery's format
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

#: ``/metrics`` (Prometheus) answers only ``Authorization: Bearer <METRICS_TOKEN>``;
#: unset, it is a 404 (``quotient.monitoring``).
METRICS_TOKEN = env_str("METRICS_TOKEN") or ""

#: Error reports to Sentry when set (``core.sentry``); off otherwise.
SENTRY_DSN = env_str("SENTRY_DSN") or ""
sentry_init(
    dsn=SENTRY_DSN,
    environment=env_str("SENTRY_ENVIRONMENT") or "production",
    traces_sample_rate=env_float("SENTRY_TRACES_SAMPLE_RATE", 0.0),
)

# HTTPS: on by default when DEBUG is off. Behind a proxy that terminates TLS (nginx
# sets X-Forwarded-Proto) keep them; for a local benchmark over plain HTTP set
# SECURE_SSL_REDIRECT=0 and SECURE_HSTS_SECONDS=0.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer's probe speaks plain HTTP
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=not DEBUG)
X_FRAME_OPTIONS = "DENY"
