"""The tournament flow through its services: create, register, pair, swap, publish,
withdraw, late entries, results, completion, standings and crosstable."""

from __future__ import annotations

import datetime as dt

import pytest

from federation.models import Game, Player
from ratings.models import RankingEntry, RankingList
from tests.factories import PlayerFactory
from tests.tournaments.flow import PLAYED_ON, db_event, play_round, seated, table_record
from tournaments import engine, pairing
from tournaments.errors import TournamentError
from tournaments.models import Registration, Round, TableSeat, Tournament
from tournaments.services import (
    registration_add_late,
    registration_check_in,
    registration_withdraw,
    registrations_add,
    round_bye_grant,
    round_pair,
    round_publish,
    round_repair,
    round_swap,
    table_result_record,
    tournament_create,
)


def refused(code: str):
    """``pytest.raises`` for a TournamentError with ``code``."""

    class Check:
        def __enter__(self):
            self.raises = pytest.raises(TournamentError)
            self.info = self.raises.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self.raises.__exit__(*exc)
            assert self.info.value.code == code, self.info.value.code
            return handled

    return Check()


def create(club, game: str, sizes: list[int], fmt: str = "swiss", **extra) -> Tournament:
    return tournament_create(
        name=f"{game} {sizes}",
        game=Game.objects.get(key=game),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        format=fmt,
        table_sizes=sizes,
        rounds_planned=extra.pop("rounds", 3),
        **extra,
    )


# ---------------------------------------------------------------------------
# Creation and registrations


@pytest.mark.django_db
@pytest.mark.parametrize(
    "game, sizes, fmt, code",
    [
        ("divisor", [4, 3], "swiss", None),
        ("divisor", [9, 2], "swiss", None),
        ("divisor", [10], "swiss", "table-sizes-for-game"),
        ("astronomy", [2], "round-robin", None),
        ("astronomy", [3], "swiss", "table-sizes-for-game"),
        ("9tka", [4, 3], "swiss", None),
        ("9tka", [5], "swiss", "table-sizes-for-game"),
        ("trimorp", [3], "swiss", None),
        ("trimorp", [4, 3], "swiss", "table-sizes-for-game"),
        ("dominyam", [2], "knockout", None),
        ("dominyam", [1], "swiss", "table-sizes-for-game"),
        ("divisor", [4, 3], "knockout", "knockout-pairs-only"),
        ("divisor", [], "swiss", "no-table-sizes"),
        ("divisor", [3, 3], "swiss", "no-table-sizes"),
    ],
)
def test_table_sizes_are_checked_per_game_at_creation(club, game, sizes, fmt, code):
    if code is None:
        assert create(club, game, sizes, fmt).table_sizes == sizes
    else:
        with refused(code):
            create(club, game, sizes, fmt)
        assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_slugs_are_made_from_the_name_and_kept_unique(club):
    first = create(club, "divisor", [4, 3])
    second = create(club, "divisor", [4, 3])
    assert (first.slug, second.slug) == ("divisor-4-3", "divisor-4-3-2")
    with refused("slug-taken"):
        create(club, "divisor", [2], slug="divisor-4-3")
    with refused("slug-taken"):
        create(club, "divisor", [2], slug="new")  # the creation page's address


@pytest.mark.django_db
def test_a_pasted_list_with_unknown_handles_registers_nobody(night):
    tournament = create(night.club, "divisor", [4, 3])
    with refused("unknown-handles") as info:
        registrations_add(tournament=tournament, handles="p00, P01\nnobody ghost p02")
    assert info.value.params == {"handles": "nobody, ghost"}
    assert not tournament.registrations.exists()
    added = registrations_add(tournament=tournament, handles="p00, P01\n@p02 p00")
    assert [r.player.handle for r in added] == ["p00", "p01", "p02"]  # any case, once
    again = registrations_add(tournament=tournament, handles=["p02", "p03"])
    assert [r.player.handle for r in again] == ["p03"]  # the registered are kept as they are
    assert not any(r.checked_in for r in tournament.registrations.all())


def _ranking(game: Game, month: dt.date, fladub: dict[Player, int]) -> None:
    ranking = RankingList.objects.create(
        game=game,
        month=month,
        published_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        inputs_hash="x",
        parameters={},
        engine_version="test",
    )
    for position, (player, value) in enumerate(fladub.items(), start=1):
        RankingEntry.objects.create(
            ranking=ranking,
            player=player,
            position=position,
            rank=position,
            fladub=value,
            mu=25,
            sigma=8,
            results_counted=5,
        )


@pytest.mark.django_db
def test_check_in_takes_the_latest_published_rating_and_seeds_round_one(night, organiser):
    divisor, players = night.game, {p.handle: p for p in Player.objects.all()}
    _ranking(divisor, dt.date(2026, 9, 1), {players["p10"]: 1400, players["p11"]: 1700})
    _ranking(divisor, dt.date(2026, 10, 1), {players["p11"]: 1900})
    _ranking(Game.objects.get(key="trimorp"), dt.date(2026, 10, 1), {players["p09"]: 2000})
    for reg in night.registrations.filter(player__handle__in=["p09", "p10", "p11"]):
        registration_check_in(registration=reg, by=organiser)
    ratings = dict(night.registrations.values_list("player__handle", "rating"))
    # p11: the newest list; p10: only on an older list; p09: no Divisor list
    assert (ratings["p11"], ratings["p10"], ratings["p09"]) == (1900, 1400, None)
    rnd = round_pair(tournament=night, by=organiser)
    # initial ranking: 1900, then the unrated (1500) in registration order, then 1400
    assert set(seated(rnd.tables.get(number=1))) == {"p11", "p00", "p01", "p02"}
    assert set(seated(rnd.tables.get(number=3))) == {"p07", "p08", "p09", "p10"}


# ---------------------------------------------------------------------------
# Pairing, re-pairing, swaps, publishing


@pytest.mark.django_db
def test_pairing_the_next_round_is_one_click(night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    assert (rnd.number, rnd.status) == (1, Round.Status.PAIRED)
    assert [len(seated(t)) for t in rnd.tables.all()] == [4, 4, 4]
    assert not rnd.byes.exists() and rnd.diagnostics["repeats"] == 0
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    with refused("round-pending"):  # unpublished: publish or re-pair first
        round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    with refused("round-incomplete"):
        round_pair(tournament=night, by=organiser)
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_an_unpublished_round_is_paired_again_and_a_published_one_is_not(night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    late = night.registrations.get(player__handle="p11")
    registration_withdraw(registration=late, by=organiser)  # from round 1: not yet published
    with refused("seated-withdrawn"):
        round_publish(round=rnd, by=organiser)
    round_repair(round=rnd, by=organiser)
    assert sorted(len(seated(t)) for t in rnd.tables.all()) == [3, 4, 4]
    assert not TableSeat.objects.filter(player__handle="p11").exists()
    round_publish(round=rnd, by=organiser)
    with refused("round-published"):
        round_repair(round=rnd, by=organiser)


def _second_round(night, organiser) -> Round:
    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    return round_pair(tournament=night, by=organiser)


@pytest.mark.django_db
def test_a_swap_warns_of_a_rematch_and_of_a_seat_streak(night, organiser):
    rnd = _second_round(night, organiser)
    first = night.rounds.get(number=1)
    before = {
        s.player.handle: (s.table.number, s.seat)
        for s in TableSeat.objects.filter(table__round=first)
    }
    now = {
        s.player.handle: (s.table.number, s.seat)
        for s in TableSeat.objects.filter(table__round=rnd)
    }
    # y takes x's seat: same seat index as y's round 1, at a table with a round-1 partner of y
    x, y = next(
        (x, y)
        for y in now
        for x in now
        if now[x][0] != now[y][0]
        and now[x][1] == before[y][1]
        and any(before[o][0] == before[y][0] for o in now if now[o][0] == now[x][0] and o != x)
    )
    warnings = round_swap(
        round=rnd,
        first=Player.objects.get(handle=x),
        second=Player.objects.get(handle=y),
        by=organiser,
    )
    codes = {(w.code, w.params.get("player")) for w in warnings}
    assert ("seat-streak", y) in codes
    assert any(w.code == "rematch" and y in w.players for w in warnings)
    assert {w.code for w in warnings} <= {"rematch", "seat-streak"}
    swapped = {
        s.player.handle: (s.table.number, s.seat)
        for s in TableSeat.objects.filter(table__round=rnd)
    }
    assert (swapped[x], swapped[y]) == (now[y], now[x])
    # the round's warnings on the manage page hold the same ones
    page = {(w.code, w.players) for w in pairing.round_warnings(rnd)}
    assert {(w.code, w.players) for w in warnings} <= page


@pytest.mark.django_db
def test_a_swap_with_the_bye_warns_of_a_second_bye(federation, organiser, evening):
    club, handles = federation
    tournament = create(club, "divisor", [4], rounds=2)
    registrations_add(tournament=tournament, handles=handles[:9], check_in=True)
    first = round_pair(tournament=tournament, by=organiser)
    had_bye = first.byes.get().player
    play_round(first, seed=3, by=organiser)
    second = round_pair(tournament=tournament, by=organiser)
    bye = second.byes.get().player
    assert bye != had_bye  # the engine gives it to someone else
    warnings = round_swap(round=second, first=bye, second=had_bye, by=organiser)
    assert [(w.code, w.params) for w in warnings if w.code == "second-bye"] == [
        ("second-bye", {"player": had_bye.handle, "count": 2})
    ]
    assert second.byes.get().player == had_bye
    assert TableSeat.objects.filter(table__round=second, player=bye).exists()
    with refused("swap-same"):
        round_swap(round=second, first=bye, second=bye, by=organiser)
    round_publish(round=second, by=organiser)
    with refused("round-published"):
        round_swap(round=second, first=bye, second=had_bye, by=organiser)


# ---------------------------------------------------------------------------
# Withdrawals and late entries


@pytest.mark.django_db
def test_a_withdrawn_player_keeps_the_points_earned_and_is_not_paired_again(night, organiser):
    first = round_pair(tournament=night, by=organiser)
    play_round(first, seed=1, by=organiser)
    reg = night.registrations.get(player__handle="p05")
    with refused("withdraw-published"):
        registration_withdraw(registration=reg, from_round=1, by=organiser)
    registration_withdraw(registration=reg, by=organiser)
    assert Registration.objects.get(pk=reg.pk).withdrawn_from_round == 2
    second = round_pair(tournament=night, by=organiser)
    assert not TableSeat.objects.filter(table__round=second, player__handle="p05").exists()
    assert sorted(len(seated(t)) for t in second.tables.all()) == [3, 4, 4]
    after, lines = pairing.standings_after(night)
    line = next(line for line in lines if line.player.handle == "p05")
    assert after == 1 and line.withdrawn and line.points == _points(night, "p05", 1)


def _points(tournament, handle: str, after: int):
    lines = engine.standings(db_event(tournament, after=after))["standings"]
    return next(line["points"] for line in lines if line["player"] == handle)


@pytest.mark.django_db
@pytest.mark.parametrize("granted", [False, True])
def test_a_late_entrant_misses_a_round_unless_a_bye_is_granted(night, organiser, granted):
    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    newcomer = PlayerFactory(handle="p12", club=night.club)
    reg = registration_add_late(tournament=night, player=newcomer, by=organiser)
    assert (reg.joins_round, reg.checked_in) == (2, True)
    with refused("already-registered"):
        registration_add_late(tournament=night, player=newcomer, by=organiser)
    with refused("tournament-started"):
        registrations_add(tournament=night, handles=["p12"])
    first = night.rounds.get(number=1)
    if granted:
        bye = round_bye_grant(round=first, player=newcomer, by=organiser)
        assert bye.granted
        with refused("bye-exists"):
            round_bye_grant(round=first, player=newcomer, by=organiser)
    _after, lines = pairing.standings_after(night)
    points = {line.player.handle: line.points for line in lines}
    assert points["p12"] == (1.5 if granted else 0)  # the bye's default at tables of 4/3
    second = round_pair(tournament=night, by=organiser)
    assert TableSeat.objects.filter(table__round=second, player=newcomer).exists()
    assert sorted(len(seated(t)) for t in second.tables.all()) == [3, 3, 3, 4]
    with refused("bye-not-missed"):
        round_bye_grant(round=second, player=newcomer, by=organiser)
    play_round(second, seed=2, by=organiser)
    _after, lines = pairing.standings_after(night)
    earned = _points(night, "p12", 2)
    assert {line.player.handle: line.points for line in lines}["p12"] == earned
    assert earned >= (1.5 if granted else 0)


# ---------------------------------------------------------------------------
# Completion, standings, crosstable


@pytest.mark.django_db
def test_a_round_is_complete_when_every_table_has_its_match(night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    tables = list(rnd.tables.order_by("number"))
    for k, table in enumerate(tables):
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.PUBLISHED
        table_result_record(
            table=table,
            played_on=PLAYED_ON,
            record=table_record(seated(table), k),
            submitted_by=organiser,
        )
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE
    assert all(t.match.club == night.club for t in rnd.tables.select_related("match"))


@pytest.mark.django_db
def test_standings_after_each_round_are_the_engines_on_the_stored_matches(night, organiser):
    for number in (1, 2, 3):
        play_round(round_pair(tournament=night, by=organiser), seed=number, by=organiser)
        after, lines = pairing.standings_after(night)
        expected = engine.standings(db_event(night, after=number))["standings"]
        assert after == number
        assert [
            {
                "player": line.player.handle,
                "rank": line.rank,
                "points": line.points,
                "buchholz": line.buchholz,
                "sonneborn_berger": line.sonneborn_berger,
                "score": line.score,
            }
            for line in lines
        ] == expected
    # earlier rounds stay readable
    assert pairing.standings_after(night, 1)[1][0].points == max(
        line["points"] for line in engine.standings(db_event(night, after=1))["standings"]
    )
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    with refused("tournament-finished"):
        round_pair(tournament=night, by=organiser)


@pytest.mark.django_db
def test_the_crosstable_shows_each_round_and_adds_up(night, organiser):
    for number in (1, 2):
        play_round(round_pair(tournament=night, by=organiser), seed=number, by=organiser)
    numbers, rows = pairing.crosstable(night)
    assert numbers == [1, 2] and len(rows) == 12
    ranks = {row.line.player.handle: row.line.rank for row in rows}
    for row in rows:
        assert abs(sum(cell.points for cell in row.cells) - row.line.points) < 1e-9
        for number, cell in zip(numbers, row.cells, strict=True):
            table = night.rounds.get(number=number).tables.get(number=cell.table)
            handles = seated(table)
            me = row.line.player.handle
            assert cell.seat == handles.index(me) + 1
            assert [p.handle for _rank, p in cell.opponents] == [h for h in handles if h != me]
            assert [rank for rank, _p in cell.opponents] == [ranks[h] for h in handles if h != me]
            assert cell.place == table.match.seats.get(player__handle=me).rank


@pytest.mark.django_db
def test_a_knockout_ends_when_the_engine_says_it_is_over(federation, organiser, evening):
    club, handles = federation
    tournament = create(club, "divisor", [2], "knockout", rounds=5)
    registrations_add(tournament=tournament, handles=handles[:5], check_in=True)
    first = round_pair(tournament=tournament, by=organiser)
    # five players in a bracket of eight: seeds 1-3 wait, 4 plays 5
    assert [len(seated(t)) for t in first.tables.all()] == [2]
    assert first.byes.count() == 3
    play_round(first, seed=1, by=organiser)
    for number in (2, 3):
        play_round(round_pair(tournament=tournament, by=organiser), seed=number, by=organiser)
    with refused("tournament-over"):
        round_pair(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.rounds.count() == 3
    _after, lines = pairing.standings_after(tournament)
    assert lines[0].rank == 1 and len(lines) == 5
