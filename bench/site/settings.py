"""Settings of the load benchmark (``bench/pages.py``): production settings from the
environment, plus one trivial view, ``/bench/bare/``, that measures the floor every
request pays (middleware, routing, gunicorn) so endpoints can be compared with it.

The bare view exists only under these settings: production URLs are unchanged.
"""

from quotient.settings.base import *  # noqa: F403

ROOT_URLCONF = "bench.site.urls"
