"""Where a webhook may go: https to public addresses only, unless WEBHOOK_ALLOW_PRIVATE."""

from __future__ import annotations

import pytest

from hooks import transport
from hooks.addresses import is_public, url_check
from hooks.errors import HookError


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.216.34", True),
        ("2606:2800:220:1:248:1893:25c8:1946", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("172.16.0.9", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),  # a cloud's metadata service
        ("100.64.0.1", False),  # carrier-grade NAT
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("::1", False),
        ("fe80::1", False),
        ("fd00::1", False),
        ("::ffff:127.0.0.1", False),  # IPv4 inside IPv6
    ],
)
def test_only_global_unicast_addresses_are_public(address, public):
    assert is_public(address) is public


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://93.184.216.34/hook", "webhook-url-scheme"),
        ("ftp://93.184.216.34/hook", "webhook-url-scheme"),
        ("https://127.0.0.1/hook", "webhook-url-private"),
        ("https://localhost/hook", "webhook-url-private"),
        ("https://[::1]:8443/hook", "webhook-url-private"),
        ("https://169.254.169.254/latest/meta-data/", "webhook-url-private"),
        ("https://user:secret@93.184.216.34/hook", "webhook-url-invalid"),
        ("https:///hook", "webhook-url-invalid"),
        ("https://93.184.216.34:99999/hook", "webhook-url-invalid"),
        ("https://no-such-host.invalid/hook", "webhook-url-unresolvable"),
    ],
)
def test_registration_refuses_what_is_not_https_to_a_public_address(production, url, code):
    with pytest.raises(HookError) as refused:
        url_check(url)
    assert refused.value.code == code and refused.value.status == 400


def test_a_public_https_address_is_accepted(production):
    url_check("https://93.184.216.34/hook")  # an address: nothing to resolve


def test_private_addresses_and_http_are_allowed_when_the_setting_says_so(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    url_check("http://127.0.0.1:8000/hook")
    url_check("https://localhost/hook")


def test_an_attempt_checks_the_address_again_and_sends_nothing_there(production, receiver):
    answer = transport.post(receiver.url, b"{}", {})
    assert (answer.status, answer.error) == (None, "webhook-url-scheme")
    https = receiver.url.replace("http://", "https://")
    answer = transport.post(https, b"{}", {})
    assert (answer.status, answer.error) == (None, "webhook-url-private")
    assert answer.params == {"host": "127.0.0.1", "address": "127.0.0.1"}
    assert receiver.requests == []
