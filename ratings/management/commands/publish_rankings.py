from django.core.management.base import BaseCommand, CommandError

from federation.models import Game
from federation.months import parse_month
from ratings.models import RankingRun
from ratings.services import MonthOpen, month_closed_check, ranking_publish, result_summary


class Command(BaseCommand):
    help = "Publish the world ranking of one game for one month (the month close, by hand)."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="game key, e.g. divisor (or 'all')")
        parser.add_argument("--month", required=True, help="YYYY-MM")
        parser.add_argument("--force", action="store_true", help="publish a new revision")

    def handle(self, *args, game: str, month: str, force: bool, **options):
        first_day = parse_month(month)
        if first_day is None:
            raise CommandError(f"--month must look like YYYY-MM, not {month!r}")
        games = Game.objects.all() if game == "all" else Game.objects.filter(key=game)
        if not games:
            raise CommandError(f"unknown game {game!r}")
        try:
            month_closed_check(first_day)
        except MonthOpen as exc:
            raise CommandError(f"refused: {exc}; nothing was written") from exc
        locked = []
        for each in games:
            run = ranking_publish(game=each, month=first_day, force=force)
            if run.status == RankingRun.Status.LOCKED:
                locked.append(each.key)
            summary = result_summary(run)
            self.stdout.write(
                f"{summary['game']} {summary['month']}: {summary['status']}"
                f" (revision {summary['revision']}, {summary['players_total']} players)"
                + (f" — {summary['message']}" if summary["message"] else "")
            )
        if locked:
            # exit 3: another run holds the month; try again when it has finished
            raise CommandError(f"locked: {', '.join(locked)}", returncode=3)
