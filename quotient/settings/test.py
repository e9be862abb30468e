"""Settings for the test suite: PostgreSQL and Redis, as in production."""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "test-secret-key")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/quotient")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
# The suite runs in parallel processes (pytest-xdist: PYTEST_XDIST_WORKER is gw0,
# gw1, ...). Each has its own test database (pytest-django names it), its own cache
# keys (the prefix below) and, on the suite's Redis, its own broker database, so that
# each process's Celery worker takes only its own tasks. Set here, in the environment,
# so that the commands and workers the tests start inherit it.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
XDIST_BROKER_DATABASES = (14, 15, 10, 9, 8, 7, 6, 5)
if XDIST_WORKER.startswith("gw") and os.environ["CELERY_BROKER_URL"].endswith("/14"):
    _number = int(XDIST_WORKER[2:]) % len(XDIST_BROKER_DATABASES)
    os.environ["CELERY_BROKER_URL"] = (
        os.environ["CELERY_BROKER_URL"].rpartition("/")[0] + f"/{XDIST_BROKER_DATABASES[_number]}"
    )
# webhooks to the tests' own servers on 127.0.0.1, retried at once (the worker too)
os.environ.setdefault("WEBHOOK_ALLOW_PRIVATE", "1")
os.environ.setdefault("WEBHOOK_FIRST_RETRY_SECONDS", "0.2")
os.environ.setdefault("SITE_URL", "https://quotient.test")

from quotient.settings.base import *  # noqa: E402, F403 - after the environment above

ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
# Off unless a test turns it on (the two-factor tests do): the suite's many admin
# sessions are made with force_login, which verifies no second factor.
REQUIRE_2FA = env_bool("REQUIRE_2FA", default=False)  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
# Generous general rates so the suite's many requests are not throttled; the login
# scope stays strict (its own tests), and conftest clears the cache between tests.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min", "login": "10/min"},
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True  # serve from the finders; no collectstatic in tests
# The real Redis cache, its keys prefixed with the database's name so that test runs
# on other databases (and the suite's parallel processes) share Redis database 13
# safely (conftest clears only ours).
CACHES = {
    "default": {
        **CACHES["default"],  # noqa: F405
        "BACKEND": "core.caches.SafeRedisCache",
        "LOCATION": os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/13"),
        "KEY_PREFIX": "-".join(
            filter(None, ("test", os.environ["DATABASE_URL"].rpartition("/")[2], XDIST_WORKER))
        ),
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}
# The suite's tables are filled within each test and never analysed: the planner guesses
# their sizes, and PostgreSQL's JIT then compiles even small queries (about a second
# each). A federation's database is analysed, where these queries are far too cheap for
# the JIT (checked on the benchmark federation): off for the suite only.
DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
DATABASES["default"]["OPTIONS"]["options"] = "-c jit=off"  # noqa: F405
