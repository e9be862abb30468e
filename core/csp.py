"""django-csp's middleware with its policies built once a process.

``csp.middleware.CSPMiddleware`` builds both headers (the policy and the report-only
one) from the settings at every response: two ``build_policy`` calls and their
``asdict``, about a tenth of a bare request's cost. A response that changes nothing
(no ``csp_update``/``csp_replace``/``csp_exempt`` decorator, no nonce asked for: every
page of this project but the embeds) gets the same strings every time, so they are
kept, by the settings they were built from (a test's ``override_settings`` builds them
anew). Any other response is the base class's.
"""

from __future__ import annotations

from http import HTTPStatus

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

#: what a decorator sets on a response, or the view on the request, to change its policy
_CUSTOM = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
    "_csp_exempt",
    "_csp_exempt_ro",
)
#: (header, setting, report only)
_HEADERS = (
    (HEADER, "CONTENT_SECURITY_POLICY", False),
    (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
)


class CSPMiddleware(BaseCSPMiddleware):
    """The base class's headers, the plain responses' built once (see the module)."""

    #: by report-only: (the setting's value it was built from, the policy)
    _kept: dict[bool, tuple[object, str]] = {}

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not self._plain(request, response):
            return super().process_response(request, response)
        for header, setting, report_only in _HEADERS:
            policy = self._policy(setting, report_only)
            if policy and header not in response and not self._excluded(request, setting):
                response[header] = policy
        # as the base class: the nonce may no longer be asked for once the header is out
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response

    @staticmethod
    def _plain(request: HttpRequest, response: HttpResponseBase) -> bool:
        """Whether the response has the settings' policies as they are."""
        if getattr(request, "_csp_nonce", None) is not None:
            return False
        if any(getattr(response, name, None) is not None for name in _CUSTOM):
            return False
        debug_page = response.status_code in (HTTPStatus.INTERNAL_SERVER_ERROR, 404)
        return not (debug_page and settings.DEBUG)

    def _policy(self, setting: str, report_only: bool) -> str:
        config = getattr(settings, setting, None)
        kept = self._kept.get(report_only)
        if kept is None or kept[0] is not config:
            kept = (config, build_policy(report_only=report_only))
            self._kept[report_only] = kept
        return kept[1]

    @staticmethod
    def _excluded(request: HttpRequest, setting: str) -> bool:
        prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
        return request.path_info.startswith(tuple(prefixes))
