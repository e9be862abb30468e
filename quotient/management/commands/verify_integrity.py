from django.core.management.base import BaseCommand, CommandError

from quotient.integrity import verify_lists, verify_matches


class Command(BaseCommand):
    help = (
        "Replay every stored record, recompute every fingerprint and every game-month's "
        "latest ranking list, and report any mismatch (exit 1 when something is damaged)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--skip-lists", action="store_true", help="check the matches only")

    def handle(self, *args, skip_lists: bool, **options):
        damaged = 0
        checks = [("matches", verify_matches)]
        if not skip_lists:
            checks.append(("ranking lists", verify_lists))
        for label, check in checks:
            self.stdout.write(f"checking {label}…")
            for finding in check():
                style = self.style.ERROR if finding.damage else self.style.WARNING
                self.stdout.write(style(f"  {finding}"))
                damaged += finding.damage
        if damaged:
            raise CommandError(f"{damaged} mismatches: the data is damaged (see above)")
        self.stdout.write(self.style.SUCCESS("clean: every record, fingerprint and list checks"))
