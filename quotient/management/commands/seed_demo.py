"""``seed_demo``: the demo federation, through the same services as the API.

``make run`` passes ``--if-empty --later astronomy``: every game but Astronomy is
seeded before the server starts; then a process of its own, while the site already
serves, publishes the past months' rankings, records Astronomy's matches (each one's
decisive-mistake analysis takes the endgame solver a few seconds) and publishes
Astronomy's months, printing its progress lines as it goes. ``--if-empty`` skips a game that has
matches already, so later runs (and demo databases from 0.1) are left as they are.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from quotient.demo import publish_demo_rankings, seed_demo
from scoring.engine import available_games


def _games(text: str) -> list[str]:
    return [g for g in text.split(",") if g]


class Command(BaseCommand):
    help = "Create demo clubs, players and matches (through the same services as the API)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=60, help="matches per game")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="seed only the games without any match yet",
        )
        parser.add_argument(
            "--games", type=_games, default=None, help="only these games (comma-separated)"
        )
        parser.add_argument(
            "--later",
            type=_games,
            default=[],
            help="seed these games (and publish the rankings) in a process of their own, "
            "after this command returns",
        )
        parser.add_argument(
            "--publish-first", action="store_true", help="publish the rankings before seeding"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"] or list(available_games())
        now_games = [g for g in games if g not in options["later"]]
        later = [g for g in games if g in options["later"]]
        self.stdout.write(f"Seeding the demo federation (clubs, players, {', '.join(now_games)})…")
        if options["publish_first"]:
            self._publish()
        self._seed(now_games, options, publish=not later)
        if later:
            self._seed_later(later, options)
        self.stdout.write(
            self.style.SUCCESS("Demo data ready. Logins: admin/admin, organiser/organiser")
        )

    def _seed(self, games: list[str], options: dict[str, Any], *, publish: bool) -> None:
        created = seed_demo(
            matches_per_game=options["matches"],
            seed=options["seed"],
            today=timezone.localdate(),
            games=games,
            missing_only=options["if_empty"],
            progress=self.stdout.write,
        )
        for game, count in created.items():
            self.stdout.write(f"{game}: {count} matches")
        if created and publish:
            self._publish()

    def _publish(self) -> None:
        self.stdout.write("Publishing the past months' world rankings…")
        lists = publish_demo_rankings(today=timezone.localdate())
        self.stdout.write(f"{lists} monthly ranking lists published")

    def _seed_later(self, games: list[str], options: dict[str, Any]) -> None:
        """Start ``seed_demo --games …`` in the background; it prints as it goes."""
        command = [sys.executable, sys.argv[0], "seed_demo", "--games", ",".join(games)]
        command += ["--matches", str(options["matches"]), "--seed", str(options["seed"])]
        command.append("--publish-first")
        if options["if_empty"]:
            command.append("--if-empty")
        subprocess.Popen(command, stdout=sys.stdout, stderr=sys.stderr)
        self.stdout.write(
            f"The rankings and {', '.join(games)}: in the background while the site "
            "starts (the progress follows below)."
        )
