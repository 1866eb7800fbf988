"""A progress bar's redraws reach a command's output as written, no line end added."""

from io import StringIO

from django.core.management.base import OutputWrapper
from tqdm import tqdm

from smearsite.kernel.console import Unended


def test_a_progress_bar_redraws_one_line_through_a_commands_output():
    captured = StringIO()
    bar = tqdm(total=3, desc="positions", file=Unended(OutputWrapper(captured)), mininterval=0)
    for _ in range(3):
        bar.update()
    bar.close()
    text = captured.getvalue()
    assert "\r" in text and "3/3" in text
    assert text.count("\n") <= 1  # redrawn in place, not one line a step
