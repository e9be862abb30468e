"""A match's page but its frame, written in Python from rows: what the template
``scoring/match_detail.html`` wrote for a visitor who can neither change the match nor
see its disputes (anyone but its organisers and its seated players), byte for byte,
without model instances or template nodes. As a template over model instances the
page cost about 5 ms of a worker and four queries (``docs/performance.md``, "The
match page from rows"); it is now one query and its text.

The match, its game and club, its seats with their players, its events and the
published lists that counted it come in one row (:data:`MATCH_SQL`). What the page
shows of the record (standings, moves, deals, the board's geometry) is still computed
by ``scoring.web.display`` and ``scoring.web.boards``, over the row's light objects
(:class:`PageMatch`); only the board's picture keeps its template
(``scoring/_board.html``), rendered alone. Every value is escaped as ``{{ value }}``
escapes it; a ``translate`` tag's text is written unescaped (a literal's translation
is safe), a ``blocktranslate`` escapes its values, not its text.

The organisers' page (forms, POST, refused corrections), a seated player's (disputes,
the contest form) and SQLite keep the template (``scoring.web.matches.match_page``).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext

from core.prepared import prepared_cursor
from federation.models import Club, public_display_name
from federation.permissions import can_write_for_club
from federation.players import player_of
from quotient.player_page import url_text
from scoring.models import MatchEvent, Status, Verification
from scoring.templatetags.results import linker, shown_text
from scoring.web.display import match_display

MATCH_SQL = """
SELECT m.played_on, m.game_number, m.status, m.version, m.verification, m.finished,
       m.late, m.counted_month, m.record, m.result, m.analysis, m.analysis_state,
       g.key, g.name, c.id, c.name,
       (SELECT json_agg(json_build_array(s.seat, s.score, s.rank, s.points, s.deduction,
                                         s.details, p.id, p.handle, p.display_name,
                                         p.public_name) ORDER BY s.seat)::text
        FROM scoring_matchseat s JOIN federation_player p ON p.id = s.player_id
        WHERE s.match_id = m.id),
       (SELECT json_agg(json_build_array(e.at, e.action, e.version, e.reason)
                        ORDER BY e.at, e.id)::text
        FROM scoring_matchevent e WHERE e.match_id = m.id),
       (SELECT json_agg(json_build_array(r.month, r.revision, last.version)
                        ORDER BY r.month, r.revision)::text
        FROM ratings_rankinglist r
        CROSS JOIN LATERAL (
            SELECT e.action, e.version FROM scoring_matchevent e
            WHERE e.match_id = m.id AND e.at <= r.published_at
            ORDER BY e.at DESC, e.id DESC LIMIT 1
        ) last
        WHERE r.game_id = m.game_id AND r.month >= m.counted_month
          AND r.month <= (date_trunc('month', m.played_on)
                          + (%s - 1) * interval '1 month')::date
          AND last.action <> 'withdrawn')
FROM scoring_match m
JOIN federation_game g ON g.id = m.game_id
JOIN federation_club c ON c.id = m.club_id
WHERE m.id = %s
"""


@dataclass(frozen=True, slots=True)
class PagePlayer:
    """A seat's player as ``scoring.web.display`` reads one."""

    pk: int
    handle: str
    public_display_name: str


@dataclass(frozen=True, slots=True)
class PageSeat:
    """A seat as ``scoring.web.display`` reads one."""

    seat: int
    score: int | None
    rank: int | None
    points: int | None
    deduction: int | None
    details: Any
    player: PagePlayer


@dataclass(frozen=True, slots=True)
class Seats:
    """``match.seats``: what ``.all()`` gives."""

    rows: tuple[PageSeat, ...]

    def all(self) -> tuple[PageSeat, ...]:
        return self.rows


@dataclass(frozen=True, slots=True)
class PageGame:
    key: str
    name: str


@dataclass(frozen=True, slots=True)
class PageEvent:
    at: dt.datetime
    action: str
    version: int
    reason: str


@dataclass(slots=True)
class PageMatch:
    """A match as its page reads it (and as ``scoring.web.display`` and
    ``scoring.web.boards`` read a ``Match``), from :data:`MATCH_SQL`'s row."""

    pk: int
    played_on: dt.date
    game_number: int
    status: str
    version: int
    verification: str
    finished: bool
    late: bool
    counted_month: dt.date | None
    record: Any
    result: Any
    analysis: Any
    analysis_state: str
    game: PageGame
    club_id: int
    club_name: str
    seats: Seats
    events: list[PageEvent] = field(default_factory=list)
    counted_in: list[tuple[dt.date, int, int]] = field(default_factory=list)


def _json(value: Any) -> Any:
    """A JSON column as the database sends it (text on PostgreSQL; ``JSONField``
    decodes it), or already decoded."""
    return json.loads(value) if isinstance(value, str) else value


def page_match(pk: int) -> PageMatch:
    """The match ``pk`` with everything its page shows; ``Http404`` when there is
    none (as ``get_object_or_404`` says it)."""
    window = int(getattr(settings, "RANKING_PARAMS", {}).get("window", 12))
    with prepared_cursor() as cursor:
        cursor.execute(MATCH_SQL, [window, pk])
        row = cursor.fetchone()
    if row is None:
        raise Http404("No Match matches the given query.")
    (played_on, number, status, version, verification, finished, late, counted_month) = row[:8]
    record, result, analysis, analysis_state, key, name, club_id, club_name = row[8:16]
    seats, events, lists = (json.loads(text) if text else [] for text in row[16:19])
    return PageMatch(
        pk=pk,
        played_on=played_on,
        game_number=number,
        status=status,
        version=version,
        verification=verification,
        finished=finished,
        late=late,
        counted_month=counted_month,
        record=_json(record),
        result=_json(result),
        analysis=_json(analysis),
        analysis_state=analysis_state,
        game=PageGame(key, name),
        club_id=club_id,
        club_name=club_name,
        seats=Seats(tuple(_seat(*seat) for seat in seats)),
        events=[
            PageEvent(dt.datetime.fromisoformat(at), action, version, reason)
            for at, action, version, reason in events
        ],
        counted_in=(
            [
                (dt.date.fromisoformat(month), revision, version)
                for month, revision, version in lists
            ]
            if counted_month is not None
            else []
        ),
    )


def _seat(
    seat: int,
    score: int | None,
    rank: int | None,
    points: int | None,
    deduction: int | None,
    details: Any,
    player: int,
    handle: str,
    name: str,
    public: bool,
) -> PageSeat:
    shown = PagePlayer(player, handle, public_display_name(handle, name, public))
    return PageSeat(seat, score, rank, points, deduction, details, shown)


def match_html(request: HttpRequest, pk: int) -> tuple[str, str] | None:
    """The page's title and its content for ``request``'s visitor; None when the
    visitor sees more than anyone (the match's organisers and seated players: the
    template's page)."""
    match = page_match(pk)
    if not _plain_visitor(request, match):
        return None
    title = f"{gettext(match.game.name)} {match.played_on.isoformat()}"
    return title, _content(match)


def _plain_visitor(request: HttpRequest, match: PageMatch) -> bool:
    """Neither an organiser of the match's club (or an admin) nor one of its players:
    the page has no form, no dispute and no author of its events."""
    user = request.user
    if not user.is_authenticated:
        return True
    if can_write_for_club(user, Club(pk=match.club_id)):
        return False
    player = player_of(user)
    return player is None or all(seat.player.pk != player.pk for seat in match.seats.rows)


def _content(match: PageMatch) -> str:
    shown = match_display(match)  # type: ignore[arg-type]  # a Match as the page reads one
    parts = [
        _head(match),
        _standings(match, shown),
        _board(shown["board"]),
        _analysis(match, shown["mistake"]),
        _deals(shown["deals"]),
        _moves(match, shown["move_heads"], shown["move_rows"]),
        _lists(match),
        _history(match.events),
        "\n\n",
    ]
    return "".join(parts)


def _head(match: PageMatch) -> str:
    """The title, the status, the club and how the result was checked."""
    label = escape(gettext(match.game.name))
    number = ""
    if match.game_number > 1:
        number = " (" + gettext("game %(number)s") % {"number": shown_text(match.game_number)} + ")"
    status = ""
    if match.status == Status.WITHDRAWN:
        status = (
            '\n<p class="error" role="status"><span class="badge withdrawn">'
            f"{gettext('withdrawn')}</span> "
            + gettext(
                "This match was withdrawn: it is kept with its history but no longer "
                "counts in the ranking."
            )
            + "</p>\n"
        )
    elif match.status == Status.CORRECTED:
        text = gettext(
            "Corrected: this is version %(version)s of the record; the earlier versions "
            "are kept in the history below."
        )
        status = (
            f'\n<p role="status"><span class="badge corrected">{gettext("corrected")}</span> '
            f"{text % {'version': shown_text(match.version)}}</p>\n"
        )
    verification = dict(Verification.choices).get(match.verification, match.verification)
    summary = late = unfinished = ""
    if match.verification == "summary":
        summary = "<br>" + gettext(
            "Entered as a summary: the engine checked the final figures only, not the moves."
        )
    if match.late:
        late = f'<br><span class="badge">{gettext("late")}</span> ' + _late(match.counted_month)
    if not match.finished:
        unfinished = f'<br><span class="badge">{gettext("unfinished")}</span> ' + gettext(
            "The record stops before the end of the game: no standings."
        )
    return (
        f"\n<h1>{label} — {match.played_on.isoformat()}{number}</h1>\n"
        f"{status}"
        f"\n<p>{escape(match.club_name)} · "
        f'<span class="badge {escape(match.verification)}">{escape(verification)}</span>'
        f"\n{summary}\n{late}\n{unfinished}\n</p>\n"
    )


def _late(counted_month: dt.date | None) -> str:
    if counted_month is None:
        return gettext(
            "Received more than 12 months after it was played: it never counts in the ranking."
        )
    text = gettext("Received after the deadline; counts from the %(month)s ranking.")
    return text % {"month": f"{counted_month:%Y-%m}"}


def _cells(cells: list[dict[str, Any]]) -> str:
    """``<td class="{{ cell.css }}" data-label="…">{{ cell.text }}</td>`` each."""
    out = []
    for cell in cells:
        label = str(cell["label"]) if cell["label"] else ""
        labelled = f' data-label="{escape(label)}"' if label else ""
        out.append(f'<td class="{escape(cell["css"])}"{labelled}>{escape(cell["text"])}</td>')
    return "".join(out)


def _standings(match: PageMatch, shown: dict[str, Any]) -> str:
    key = match.game.key
    heads = shown["standing_heads"]
    last = len(heads) - 1
    numeric = ' class="num"'
    head_cells = "".join(
        f"<th{numeric if n < last or key != 'dominyam' else ''}>{escape(str(head))}</th>"
        for n, head in enumerate(heads)
    )
    link = linker("player-detail")
    rows = []
    for row in shown["standings"]:
        rank, player = row["rank"], row["seat"].player
        first = ' class="first"' if rank == 1 else ""
        rows.append(
            f"\n  <tr{first}>"
            f'<td class="num key">{"–" if rank is None else shown_text(rank)}</td>'
            f'<td class="lead"><a href="{link(player.handle)}">'
            f"{escape(player.public_display_name)}</a></td>"
            f"{_cells(row['cells'])}</tr>\n  "
        )
    return (
        f"<h2>{gettext('Standings')}</h2>\n"
        f'<div class="scroll"><table class="standings cards keyed standings-{escape(key)}">\n'
        f'  <thead><tr><th class="num">{gettext("Rank")}</th><th>{gettext("Player")}</th>'
        f"{head_cells}</tr></thead>\n"
        "  <tbody>\n"
        f"  {''.join(rows)}\n"
        "  </tbody>\n"
        "</table></div>\n"
    )


def _board(board: dict[str, Any] | None) -> str:
    """The board's picture: its template, rendered alone."""
    if not board:
        return "\n"
    title = gettext("Layout") if board["kind"] == "dominyam" else gettext("Board")
    picture = render_to_string("scoring/_board.html", {"board": board})
    return f"\n<h2>{title}</h2>\n{picture}\n\n"


def _add_one(value: Any) -> Any:
    """``value|add:1``."""
    try:
        return int(value) + 1
    except (ValueError, TypeError):
        try:
            return value + 1
        except Exception:  # what the filter does: anything else is ""
            return ""


def _analysis(match: PageMatch, mistake: dict[str, Any] | None) -> str:
    title = f"<h2>{gettext('Analysis')}</h2>\n"
    if match.analysis_state == "pending":
        text = gettext(
            "Analysis pending: it is being computed and appears here once stored (reload the page)."
        )
        return f'\n{title}<p class="analysis-state">{text}</p>\n\n'
    if match.analysis_state == "failed":
        text = gettext("Analysis failed: this game could not be analysed.")
        return f'\n{title}<p class="analysis-state">{text}</p>\n\n'
    if not match.analysis:
        return "\n"
    exhausted = ""
    if match.analysis_state == "exhausted":
        text = gettext(
            "Analysis budget exhausted: only the positions near the end could be solved "
            "exactly within the solver's budget."
        )
        exhausted = f'<p class="analysis-state">{text}</p>'
    return f"\n{title}{exhausted}\n<p>{_mistake(mistake)}</p>\n\n"


def _mistake(mistake: dict[str, Any] | None) -> str:
    if not mistake:
        return gettext(
            "No decisive mistake found: the loser never held a won position among the "
            "positions small enough to solve exactly."
        )
    values = {
        "number": shown_text(_add_one(mistake.get("move"))),
        "player": shown_text(mistake.get("name")),
    }
    if mistake.get("resign"):
        text = gettext(
            "Decisive mistake: %(player)s resigned at move %(number)s in a position they "
            "could still win (perfect play)."
        )
    else:
        text = gettext(
            "Decisive mistake: move %(number)s by %(player)s turned a position they could "
            "force a win from into one they could not (perfect play); it was their last "
            "such move."
        )
    return str(text % values)


def _deals(deals: list[dict[str, Any]]) -> str:
    if not deals:
        return "\n"
    groups = []
    for deal in deals:
        head = gettext("Deal %(number)s") % {"number": shown_text(deal["number"])}
        players = "".join(
            f'\n  <tr><td>{shown_text(p["name"])}</td><td class="num">{shown_text(p["points"])}</td>'
            f'<td class="num">{shown_text(p["pips_left"])}</td>'
            f'<td class="num">{shown_text(p["score"])}</td></tr>\n  '
            for p in deal["players"]
        )
        groups.append(
            "\n  <tbody>\n"
            '  <tr class="deal-head"><th colspan="4" scope="rowgroup">'
            f"{head} <small>· {shown_text(deal['kind'])} · {shown_text(deal['ended'])}</small></th></tr>\n"
            f"  {players}\n"
            "  </tbody>\n  "
        )
    return (
        f"\n<h2>{gettext('Deals')}</h2>\n"
        '<div class="scroll"><table class="deals">\n'
        f'  <thead><tr><th>{gettext("Player")}</th><th class="num">{gettext("Points")}</th>'
        f'<th class="num">{gettext("Pips left")}</th><th class="num">{gettext("Score")}</th>'
        "</tr></thead>\n"
        f"  {''.join(groups)}\n"
        "</table></div>\n\n"
    )


def _moves(match: PageMatch, heads: Any, rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "\n"
    key = match.game.key
    if key == "divisor":
        title = gettext("Score sheet")
    elif key == "dominyam":
        title = gettext("Turns")
    else:
        title = gettext("Moves")
    head_cells = "".join(f"<th>{escape(str(head))}</th>" for head in heads)
    lines = []
    for row in rows:
        if row.get("deal"):
            lines.append(
                f'\n  <tr class="deal-head"><th colspan="{len(heads)}" scope="rowgroup">'
                f"{shown_text(row['deal'])}</th></tr>\n  \n  "
            )
        else:
            lines.append(
                f'\n  <tr class="{shown_text(row["kind"])}">{_cells(row["cells"])}</tr>\n  '
            )
    return (
        f"\n<h2>{title}</h2>\n"
        f'<div class="scroll"><table class="moves cards keyed moves-{escape(key)}">\n'
        f"  <thead><tr>{head_cells}</tr></thead>\n"
        "  <tbody>\n"
        f"  {''.join(lines)}\n"
        "  </tbody>\n"
        "</table></div>\n\n"
    )


def _lists(match: PageMatch) -> str:
    """The published lists that counted the match (and what a correction changes)."""
    if match.counted_in:
        items = "".join(_list_item(match.game.key, *row) for row in match.counted_in)
        text = gettext(
            "This match counted in these published lists (a published list never "
            "changes: each one counted the version the match had when it was published):"
        )
        shown = f"\n<p>{text}</p>\n<ul>\n{items}\n</ul>\n"
    else:
        shown = f"\n<p>{gettext('No published ranking list has counted this match yet.')}</p>\n"
    corrected = ""
    if match.status == Status.CORRECTED and match.counted_month:
        text = gettext(
            "A correction changes no published list: it counts from the next list on (a "
            "forced re-run of a month publishes a new revision with it). The match counts "
            "from the %(month)s list."
        )
        corrected = f"\n<p>{text % {'month': f'{match.counted_month:%Y-%m}'}}</p>\n"
    return f"<h2>{gettext('Ranking lists')}</h2>\n{shown}\n{corrected}\n"


def _list_item(game: str, month: dt.date, revision: int, version: int) -> str:
    label = f"{month:%Y-%m}"
    text = gettext("revision %(revision)s, version %(version)s of the record")
    text %= {"revision": shown_text(revision), "version": shown_text(version)}
    url = url_text("ranking-month", game, label)
    return f'\n  <li><a href="{url}">{label}</a> — {text}</li>\n'


def _history(events: list[PageEvent]) -> str:
    if not events:
        return "\n"
    actions = dict(MatchEvent.Action.choices)
    rows = "".join(
        f"\n  <tr><td>{timezone.localtime(e.at):%Y-%m-%d %H:%M}</td>"
        f"<td>{escape(actions.get(e.action, e.action))}</td>"
        f'<td class="num">{shown_text(e.version)}</td><td></td><td>{escape(e.reason)}</td></tr>\n  '
        for e in events
    )
    return (
        f"\n<h2>{gettext('History')}</h2>\n"
        '<div class="scroll"><table>\n'
        f"  <thead><tr><th>{gettext('When')}</th><th>{gettext('What')}</th>"
        f'<th class="num">{gettext("Version")}</th><th>{gettext("By")}</th>'
        f"<th>{gettext('Reason')}</th></tr></thead>\n"
        "  <tbody>\n"
        f"  {rows}\n"
        "  </tbody>\n"
        "</table></div>\n\n"
    )
