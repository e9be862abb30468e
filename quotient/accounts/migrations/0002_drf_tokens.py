"""The tokens of DRF's ``authtoken`` (release 0.1 to this one) become API tokens.

Each keeps working with the same key, now stored as its SHA-256, named "API login"
and expiring ``TOKEN_LIFETIME_DAYS`` after this upgrade. DRF's table, which held
the keys in clear, is then dropped (with its migration records: the app is no longer
installed).
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def copy_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    expires = timezone.now() + timedelta(days=settings.TOKEN_LIFETIME_DAYS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TABLE}")
        rows = cursor.fetchall()
    ApiToken.objects.bulk_create(
        ApiToken(
            user_id=user_id,
            name="API login",
            digest=hashlib.sha256(key.encode()).hexdigest(),
            prefix=key[:6],
            created_at=created,
            expires_at=expires,
        )
        for key, user_id, created in rows
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {OLD_TABLE}")
        cursor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(copy_tokens, migrations.RunPython.noop)]
