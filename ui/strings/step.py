"""The step-by-step player (back / next / play) of ui/controls.stepper."""

STRINGS: dict[str, dict[str, str]] = {
    "step.reset": {"en": "Back to the first step", "zh": "回到第一步"},
    "step.back": {"en": "One step back", "zh": "后退一步"},
    "step.next": {"en": "Next token ▶", "zh": "下一个词元 ▶"},
    "step.play": {"en": "Play", "zh": "自动播放"},
    "step.play_help": {"en": "Advance one step every 0.8 s until the end.", "zh": "每 0.8 秒前进一步，直到结束。"},
}
