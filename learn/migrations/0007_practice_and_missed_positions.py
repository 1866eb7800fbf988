# The trainer's rows named for what they hold: a Position the trainer serves is a
# PracticePosition (learn.core.positions.AnalysedPosition is its analysis), a Review of a
# missed position a MissedPosition (the review of a player's round is a RoundReview).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("learn", "0006_position_preset_long_answer"),
    ]

    operations = [
        migrations.RenameModel(old_name="Position", new_name="PracticePosition"),
        migrations.RenameModel(old_name="Review", new_name="MissedPosition"),
        migrations.RenameIndex(
            model_name="practiceposition",
            new_name="learn_pract_phase_b8fa34_idx",
            old_name="learn_posit_phase_3f416d_idx",
        ),
        migrations.AlterField(
            model_name="missedposition",
            name="learner",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="missed", to="learn.learner"
            ),
        ),
        migrations.AlterField(
            model_name="missedposition",
            name="position",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="missed",
                to="learn.practiceposition",
            ),
        ),
    ]
