from django.core.management.base import BaseCommand
from django.utils import timezone

from quotient.demo import publish_demo_rankings, seed_demo


class Command(BaseCommand):
    help = "Create demo clubs, players and matches (through the same services as the API)."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=60, help="matches per game")
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, matches: int, seed: int, **options):
        created = seed_demo(matches_per_game=matches, seed=seed, today=timezone.localdate())
        for game, count in created.items():
            self.stdout.write(f"{game}: {count} matches")
        lists = publish_demo_rankings(today=timezone.localdate())
        self.stdout.write(f"{lists} monthly ranking lists published")
        self.stdout.write(
            self.style.SUCCESS("Demo data ready. Logins: admin/admin, organiser/organiser")
        )
