"""A published list as CSV (``?format=csv`` of ``GET /api/v1/rankings/{game}/{YYYY-MM}/``):
``rank,player,name,club,country,fladub,mu,sigma,results_counted,movement``, ranked
players by position, then provisional ones without a rank. Streamed, and kept whole in
the server-side cache once streamed to the end (``core.http_cache``)."""

from __future__ import annotations

from collections.abc import Iterator

from django.core.cache import cache
from django.http import HttpRequest, StreamingHttpResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer

from core.csv_writer import SafeWriter
from core.http_cache import LONG, may_fill
from federation.months import month_label
from ratings.models import RankingList
from ratings.selectors import ranking_rows


class CSVRenderer(BaseRenderer):
    """Lets ``?format=csv`` (or ``Accept: text/csv``) through content negotiation: the
    list itself is streamed by the view, and errors are answered in JSON."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return JSONRenderer().render(data)  # not reached: see RankingDetail.finalize_response


CSV_HEADER = [
    "rank",
    "player",
    "name",
    "club",
    "country",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "movement",
]

#: characters per chunk when a cached CSV is sent again
CHUNK = 256 * 1024


class _Lines:
    """A file-like object whose ``write`` hands the line back (csv.writer, streamed)."""

    def write(self, line: str) -> str:
        return line


def _csv_lines(ranking: RankingList) -> Iterator[str]:
    writer = SafeWriter(_Lines())  # formula-leading cells escaped (core.csv_writer)
    yield writer.writerow(CSV_HEADER)
    for entry in ranking_rows(ranking):
        player = entry.player
        yield writer.writerow(
            [
                "" if entry.rank is None else entry.rank,
                player.handle,
                player.public_display_name,
                player.club.slug if player.club else "",
                str(player.country),  # its code, or ""
                entry.fladub,
                repr(entry.mu),
                repr(entry.sigma),
                entry.results_counted,
                "" if entry.movement is None else entry.movement,
            ]
        )


def _kept(lines: Iterator[str], key: str) -> Iterator[str]:
    """``lines``, and once they are all sent, the whole text into the cache."""
    sent: list[str] = []
    for line in lines:
        sent.append(line)
        yield line
    cache.set(key, "".join(sent), LONG)


def _chunks(text: str) -> Iterator[str]:
    for start in range(0, len(text), CHUNK):
        yield text[start : start + CHUNK]


def ranking_csv(
    ranking: RankingList, key: str | None = None, *, by: HttpRequest | None = None
) -> StreamingHttpResponse:
    """The whole list as CSV, streamed (UTF-8, CRLF line ends as RFC 4180 has them);
    with ``key``, from the cache, or kept there once computed (if ``by``, the request,
    has cache fills left: ``core.http_cache.may_fill``)."""
    text = cache.get(key) if key else None
    if text is not None:
        body: Iterator[str] = _chunks(text)
    elif key is not None and may_fill(by):
        body = _kept(_csv_lines(ranking), key)
    else:
        body = _csv_lines(ranking)
    response = StreamingHttpResponse(body, content_type="text/csv; charset=utf-8")
    name = f"ranking-{ranking.game.key}-{month_label(ranking.month)}-r{ranking.revision}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
