from django.db import migrations

GAMES = [
    ("divisor", "Divisor dominoes"),
    ("astronomy", "Astronomy Domino"),
    ("9tka", "9tka"),
    ("trimorp", "Trimorp"),
    ("dominyam", "Dominyam"),
]


def create_games(apps, schema_editor):
    Game = apps.get_model("federation", "Game")
    for key, name in GAMES:
        Game.objects.update_or_create(key=key, defaults={"name": name})


def delete_games(apps, schema_editor):
    apps.get_model("federation", "Game").objects.filter(key__in=[k for k, _ in GAMES]).delete()


class Migration(migrations.Migration):
    dependencies = [("federation", "0001_initial")]
    operations = [migrations.RunPython(create_games, delete_games)]
