import pytest
from django.core.management import call_command
from django.utils import timezone

from federation.models import Club, Player
from scoring.engine import available_games
from scoring.models import Match, MatchSeat


@pytest.mark.django_db
def test_seed_demo_fills_every_supported_game_through_the_services(games):
    call_command("seed_demo", "--matches", "3")
    assert Club.objects.count() == 3 and Player.objects.count() == 24
    per_game = {g: Match.objects.filter(game__key=g).count() for g in available_games()}
    assert set(per_game) == {"divisor", "astronomy", "9tka", "trimorp", "dominyam"}
    assert all(count == 3 for count in per_game.values()), per_game
    # every stored match is a replayed record with its seats
    for match in Match.objects.all():
        assert match.result["valid"] and match.seats.count() == len(match.record["players"])
    assert MatchSeat.objects.filter(player__isnull=True).count() == 0
    assert Match.objects.filter(played_on__gt=timezone.localdate()).count() == 0


@pytest.mark.django_db
def test_seed_demo_twice_adds_nothing_twice(games):
    call_command("seed_demo", "--matches", "2")
    first = Match.objects.count()
    call_command("seed_demo", "--matches", "2")
    assert Match.objects.count() == first  # same seed, same records: duplicates refused
