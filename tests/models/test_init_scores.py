"""What lab.scale_help states about the scores' variance, measured: 1/√d_head makes var(q·k/√d_head) = 1
only when q's and k's entries have variance 1 (Vaswani et al. 2017, footnote 4). At this app's
initialisation they are much smaller, so the scaled scores start with a variance far below 1; training
makes them grow. The numbers in the help text are these measurements."""

import numpy as np
import pytest

import models
from lessons.lab_controls import lab_config
from ui.params import DEFAULT_PROMPT, LAB_DEFAULTS

TARGET = "one thousand two hundred"


def score_variance(m: models.LiveModel) -> dict[str, float]:
    """Variance of the scaled scores q·k·scale over every layer, head and unmasked (query, key) pair."""
    tr = m.run("1234", target=TARGET) if m.config.arch == "encoder-decoder" else m.run(DEFAULT_PROMPT)
    return {k: float(np.var(s[np.isfinite(s)])) for k, s in tr.scores.items()}


@pytest.mark.parametrize("side", ["a", "b"])
def test_lab_defaults_at_init(side):
    """Help text: 'about 0.0006 for the default A and B'."""
    tok = models.load("decoder").tokenizer
    cfg = lab_config(LAB_DEFAULTS[side], tok.vocab_size)
    (v,) = score_variance(models.build(cfg, tok)).values()
    assert 0.0004 < v < 0.0009, v


@pytest.mark.parametrize("name", models.SHIPPED)
def test_shipped_configurations_at_init_and_trained(name):
    """Help text: '0.001 to 0.003 for the shipped models' configurations (20 to 340 once trained)'."""
    trained = models.load(name)
    for v in score_variance(models.build(trained.config, trained.tokenizer)).values():
        assert 0.0008 < v < 0.003, v
    for v in score_variance(trained).values():
        assert 15 < v < 400, v
