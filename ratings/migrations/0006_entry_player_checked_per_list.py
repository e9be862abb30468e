"""A ranking entry's player: no database foreign key (its check locked each of a list's
100,000 players one by one at the publishing commit), replaced by

* at publication, one set-based check of the new list's players under a lock that
  keeps the players table from deletions until the commit (``ratings.publication``);
* here, on PostgreSQL, a trigger that refuses to delete a player (or change its id)
  while a ranking list names it, whatever deletes it (the ORM's PROTECT refuses first).
"""

import django.db.models.deletion
from django.db import migrations, models

TRIGGER = """
CREATE OR REPLACE FUNCTION ratings_entry_player_kept() RETURNS trigger AS $$
BEGIN
    IF (TG_OP = 'DELETE' OR NEW.id <> OLD.id) AND EXISTS (
        SELECT 1 FROM ratings_rankingentry WHERE player_id = OLD.id
    ) THEN
        RAISE EXCEPTION 'player % is named by a ranking list', OLD.id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER ratings_entry_player_kept BEFORE DELETE OR UPDATE OF id
    ON federation_player FOR EACH ROW EXECUTE FUNCTION ratings_entry_player_kept();
"""
DROP = """
DROP TRIGGER IF EXISTS ratings_entry_player_kept ON federation_player;
DROP FUNCTION IF EXISTS ratings_entry_player_kept();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGER, params=None)  # "%" is plpgsql's, not a parameter


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0005_player_search_name"),
        ("ratings", "0005_entry_keys_unindexed"),
    ]

    operations = [
        migrations.AlterField(
            model_name="rankingentry",
            name="player",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ranking_entries",
                to="federation.player",
            ),
        ),
        migrations.RunPython(create_trigger, drop_trigger),
    ]
