"""Attention Lab's model layer: pure PyTorch + tokenizers, no Streamlit, no plotting.

Pages and tests use only what is exported here (see docs/architecture.md).
"""

from . import analysis, data
from .config import ModelConfig
from .core.attention import attention, bidirectional, causal, make_mask, padding, prefix
from .core.positional import apply_rope, sinusoidal_table
from .errors import WeightsError
from .live import LiveModel, Step, Trace
from .loading import AVAILABLE, PRETRAINED, SHIPPED, TRAIN_COMMAND, build, load

__all__ = [
    "AVAILABLE",
    "PRETRAINED",
    "SHIPPED",
    "TRAIN_COMMAND",
    "LiveModel",
    "ModelConfig",
    "Step",
    "Trace",
    "WeightsError",
    "analysis",
    "apply_rope",
    "attention",
    "bidirectional",
    "build",
    "causal",
    "data",
    "load",
    "make_mask",
    "padding",
    "prefix",
    "sinusoidal_table",
]
from .inspection import attribution, circuits, compare, patching  # issues 42, 43 and 44 (two models side by side)
from .inspection.heads import ROLE_THRESHOLDS, head_scores, label_heads  # issue 17: the field guide to heads

__all__ += ["ROLE_THRESHOLDS", "head_scores", "label_heads"]
__all__ += ["attribution", "circuits", "compare", "patching"]
