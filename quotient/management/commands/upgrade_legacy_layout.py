from django.core.management.base import BaseCommand

from quotient.legacy import upgrade


class Command(BaseCommand):
    help = (
        "Bring a release 0.1 database (before the one-way app graph) onto the rewritten "
        "migrations, in one transaction. Run it before `migrate`; a no-op on other databases."
    )

    def handle(self, *args, **options):
        done = upgrade()
        if not done.upgraded:
            self.stdout.write("Nothing to upgrade: this database does not have the 0.1 layout.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Upgraded the 0.1 layout ({done.tables_created} tournament tables created). "
                "Now run `manage.py migrate`."
            )
        )
