"""QR codes of the tournament's pages (segno): a standalone SVG document, with its
namespace, so that an ``<img>`` shows it (segno's inline SVG leaves the namespace out
and an ``<img>`` stays blank)."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as a standalone SVG document."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
    return out.getvalue()
