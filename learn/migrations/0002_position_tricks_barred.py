from django.db import migrations, models


def fill_from_data(apps, schema_editor):
    """Work the new columns out of each stored position. learn.core.positions is pure code
    (the rules and the record format), so this reads the data as the loader does."""
    from learn.core.positions import AnalysedPosition as Core
    from learn.core.positions import PositionError

    Position = apps.get_model("learn", "Position")
    for row in Position.objects.all().iterator():
        try:
            core = Core.from_json(row.data)
        except PositionError:
            continue  # unreadable now: it keeps the defaults and is served as before
        row.tricks, row.barred = core.tricks_done, core.barred
        row.save(update_fields=["tricks", "barred"])


class Migration(migrations.Migration):
    dependencies = [
        ("learn", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="position",
            name="barred",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="position",
            name="tricks",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(fill_from_data, migrations.RunPython.noop),
    ]
