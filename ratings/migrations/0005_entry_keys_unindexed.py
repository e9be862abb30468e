"""Drop the entries' indexes of ``ranking_id`` alone and ``player_id`` alone: the
unique constraints lead with ``ranking_id`` and the (player, ranking) index with
``player_id``, and every index slows the month close's write of 100,000 entries.

Only the two indexes are dropped: ``AlterField`` would also drop and re-add (and so
re-validate over the whole table) both foreign keys.
"""

import django.db.models.deletion
from django.db import migrations, models

COLUMNS = ("player_id", "ranking_id")


def _index_names(schema_editor, table):
    # the names Django gave them (``_create_index_name``, as for any db_index field)
    return [(schema_editor._create_index_name(table, [c]), c) for c in COLUMNS]


def drop_key_indexes(apps, schema_editor):
    table = apps.get_model("ratings", "RankingEntry")._meta.db_table
    for name, _ in _index_names(schema_editor, table):
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create_key_indexes(apps, schema_editor):
    table = apps.get_model("ratings", "RankingEntry")._meta.db_table
    q = schema_editor.quote_name
    for name, column in _index_names(schema_editor, table):
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {q(name)} ON {q(table)} ({q(column)})")


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0005_player_search_name"),
        ("ratings", "0004_fill_list_counts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(drop_key_indexes, create_key_indexes)],
            state_operations=[
                migrations.AlterField(
                    model_name="rankingentry",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ranking_entries",
                        to="federation.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="rankingentry",
                    name="ranking",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="ratings.rankinglist",
                    ),
                ),
            ],
        )
    ]
