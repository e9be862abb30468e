"""``/embed/tournaments/<slug>/standings/``: a public tournament's standings for other
sites to frame (a private one is a 404, whoever asks: an embed is shown to anyone).
Kept rendered per language until the tournament, a match or a player changes (their
generations), and answered with a 304 from the cache alone while they have not."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string

from core.embed import embed_language, framable, in_embed_language
from core.generations import MATCHES, PLAYERS, TOURNAMENTS, changed_at, generations
from core.http_cache import LONG, Validators, cached, finish, not_modified
from core.site import absolute_url
from tournaments import pairing
from tournaments.models import Tournament


def _body(tournament: Tournament) -> str:
    after, lines = pairing.standings_after(tournament)
    context = {
        "tournament": tournament,
        "after": after,
        "lines": lines,
        "full": absolute_url("tournament-standings", tournament.slug),
    }
    return render_to_string("embed/standings.html", context)


@framable
@in_embed_language
def standings_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    gens = generations(TOURNAMENTS, MATCHES, PLAYERS)
    content = Validators.of(
        ["embed-standings", slug, embed_language(request), *gens.values()],
        changed_at(*gens.values()),
    )
    response = not_modified(request, content)
    if response is None:
        tournament = (
            Tournament.objects.select_related("game", "club").filter(slug=slug, public=True).first()
        )
        if tournament is None:
            raise Http404("no such tournament")
        body = cached(content.key, lambda: _body(tournament), LONG, by=request)
        response = render(request, "embed/frame.html", {"body": body, "title": tournament.name})
    return finish(response, content, immutable=False, private=False, vary=["Accept-Language"])
