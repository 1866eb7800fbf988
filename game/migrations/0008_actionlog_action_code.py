"""ActionLog.action: the game record's spelling of a move instead of the engine's int."""

from django.db import migrations, models

PASS = 54  # the engine's actions when this migration was written: cards 0-53, pass, bids
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _code(number: int) -> str:
    if number == PASS:
        return "pass"
    if number > PASS:
        return f"bid:{number - PASS}"
    if number >= 52:
        return f"J{number - 51}"
    return RANKS[number % 13] + "SHDC"[number // 13]


def _number(code: str) -> int:
    if code == "pass":
        return PASS
    if code.startswith("bid:"):
        return PASS + int(code[4:])
    return next(n for n in range(PASS) if _code(n) == code)


def to_codes(apps, schema_editor):
    ActionLog = apps.get_model("game", "ActionLog")
    for log in ActionLog.objects.all().only("pk", "action").iterator():
        if log.action.isdigit():
            ActionLog.objects.filter(pk=log.pk).update(action=_code(int(log.action)))


def to_numbers(apps, schema_editor):
    ActionLog = apps.get_model("game", "ActionLog")
    for log in ActionLog.objects.all().only("pk", "action").iterator():
        ActionLog.objects.filter(pk=log.pk).update(action=str(_number(log.action)))


class Migration(migrations.Migration):
    dependencies = [("game", "0007_table_status_closed")]

    operations = [
        migrations.AlterField(
            model_name="actionlog", name="action", field=models.CharField(max_length=6)
        ),
        migrations.RunPython(to_codes, to_numbers),
    ]
