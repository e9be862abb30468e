"""Fill the part sizes and page marks of the lists published before they were stored
(``ratings.publication.list_parts_store`` does it at publication since)."""

from django.db import migrations

STEP = 100  # ratings.services.MARK_STEP when this migration was written


def fill_list_counts(apps, schema_editor):
    RankingList = apps.get_model("ratings", "RankingList")
    RankingEntry = apps.get_model("ratings", "RankingEntry")
    for ranking in RankingList.objects.filter(page_marks__isnull=True).iterator():
        rows = RankingEntry.objects.filter(ranking=ranking).order_by("position")
        parts: dict[bool, list[int]] = {False: [], True: []}
        for position, provisional in rows.values_list("position", "provisional").iterator():
            parts[provisional].append(position)
        ranking.ranked_count = len(parts[False])
        ranking.provisional_count = len(parts[True])
        ranking.page_marks = {
            "step": STEP,
            "ranked": parts[False][::STEP],
            "provisional": parts[True][::STEP],
        }
        ranking.save(update_fields=["ranked_count", "provisional_count", "page_marks"])


class Migration(migrations.Migration):
    dependencies = [("ratings", "0003_list_counts_and_part_index")]

    operations = [migrations.RunPython(fill_list_counts, migrations.RunPython.noop)]
