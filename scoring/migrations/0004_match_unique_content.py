# The same content is stored once per game among the matches that are not withdrawn
# (the fingerprint covers the date and game number only for sheets and summaries).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0003_canonical_fingerprints'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='match',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'withdrawn'), _negated=True), fields=('game', 'fingerprint'), name='match_unique_content'),
        ),
    ]
