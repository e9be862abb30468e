from django.core.management.base import BaseCommand
from django.utils import timezone

from quotient.demo import publish_demo_rankings, seed_demo
from scoring.models import Match


class Command(BaseCommand):
    help = "Create demo clubs, players and matches (through the same services as the API)."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=60, help="matches per game")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when matches are already stored"
        )

    def handle(self, *args, matches: int, seed: int, if_empty: bool, **options):
        if if_empty and Match.objects.exists():
            self.stdout.write("Demo data already there (seed_demo --if-empty): nothing to do.")
            return
        self.stdout.write("Seeding the demo federation (clubs, players, matches)…")
        created = seed_demo(
            matches_per_game=matches,
            seed=seed,
            today=timezone.localdate(),
            progress=self.stdout.write,
        )
        for game, count in created.items():
            self.stdout.write(f"{game}: {count} matches")
        self.stdout.write("Publishing the past months' world rankings…")
        lists = publish_demo_rankings(today=timezone.localdate())
        self.stdout.write(f"{lists} monthly ranking lists published")
        self.stdout.write(
            self.style.SUCCESS("Demo data ready. Logins: admin/admin, organiser/organiser")
        )
