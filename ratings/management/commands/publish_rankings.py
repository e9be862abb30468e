from django.core.management.base import BaseCommand, CommandError

from federation.models import Game
from federation.months import month_index
from ratings.services import month_date, ranking_publish, result_summary


class Command(BaseCommand):
    help = "Publish the world ranking of one game for one month (the month close, by hand)."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="game key, e.g. divisor (or 'all')")
        parser.add_argument("--month", required=True, help="YYYY-MM")
        parser.add_argument("--force", action="store_true", help="publish a new revision")

    def handle(self, *args, game: str, month: str, force: bool, **options):
        try:
            first_day = month_date(month_index(month))
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        games = Game.objects.all() if game == "all" else Game.objects.filter(key=game)
        if not games:
            raise CommandError(f"unknown game {game!r}")
        for each in games:
            run = ranking_publish(game=each, month=first_day, force=force)
            summary = result_summary(run)
            self.stdout.write(
                f"{summary['game']} {summary['month']}: {summary['status']}"
                f" (revision {summary['revision']}, {summary['players_total']} players)"
                + (f" — {summary['message']}" if summary["message"] else "")
            )
