"""Every tensor a model forward creates is on the input's device (issue 30 §2): a static scan of the forward/run code.

A published model runs on the GPU when there is one (models/core/device.py), so a torch factory call in the code a
forward
or a trace runs that omits device= makes a CPU tensor and fails (or copies) beside CUDA inputs. The scan lists every
call of the factories below in FORWARD_FILES; each passes device=, or sits in a function on ALLOWED with the reason it
may stay on the CPU. models/core/linear_attention.py is being rewritten (issue 30 §2 report lists its lines)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "models"
FACTORIES = {"zeros", "ones", "arange", "eye", "tensor", "full", "empty", "as_tensor", "linspace", "randn", "rand"}
FORWARD_FILES = (
    "core/transformer.py", "core/blocks.py", "core/attention.py", "core/norm_layers.py", "core/moe.py",
    "core/positional.py", "live.py", "core/long_trace.py", "core/lazy.py", "core/trace_fill.py",
    "inspection/softcap.py", "core/encoder_parts.py", "core/value_norms.py", "core/sampling.py",
    "core/progressive.py", "published/checkpoints.py", "published/families/common.py", "core/linear_attention.py",
    # what pages run on a loaded (maybe published, maybe GPU) model beside its trace
    "inspection/interventions.py", "inspection/qk_map.py", "inspection/neuron_view.py", "inspection/experiments.py",
    "inspection/probes.py", "teaching/norms.py", "electra.py",
)  # fmt: skip
# (file, function) -> why its factory calls may make CPU tensors
ALLOWED = {
    ("core/transformer.py", "Transformer.__init__"): "built on the CPU or the meta device; load_folder moves it",
    ("core/transformer.py", "Transformer._init"): "random init of a toy model, always on the CPU",
    ("core/norm_layers.py", "RMSNorm.__init__"): "a parameter at construction (the meta device when loading)",
    ("core/linear_attention.py", "GatedDeltaNet.__init__"): "parameters at construction (the meta device when loading)",
    ("core/positional.py", "rope_inv_freq"): "at build time; rebuild_fixed moves it to the weights' device",
    ("core/moe.py", "aux_loss"): "training's load-balancing loss of a dense model (0): toy models train on the CPU",
    ("inspection/probes.py", "agreement_accuracy"): "a softmax of a trace's numpy logits (already on the CPU)",
    ("teaching/norms.py", "padded_batch"): "the Norms page runs the shipped toy decoder (always on the CPU)",
    ("teaching/norms.py", "xavier_"): "random init of a toy model, always on the CPU",
    ("electra.py", "detect"): "the shipped toy ELECTRA (always on the CPU)",
}


def _calls(path: Path):
    """(qualified function name, line, factory, has device=) of every torch.<factory>(...) call in path."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                f = child.func
                if isinstance(f.value, ast.Name) and f.value.id == "torch" and f.attr in FACTORIES:
                    has = any(k.arg == "device" for k in child.keywords)
                    out.append((".".join(scope) or "<module>", child.lineno, f.attr, has))
            visit(child, scope)

    visit(tree, [])
    return out


def test_the_scan_sees_factory_calls():
    """The scan itself: it finds the calls it should (a scan that sees nothing passes anything)."""
    found = {(fn, name) for fn, _, name, _ in _calls(ROOT / "core/attention.py")}
    assert ("causal", "arange") in found and ("bidirectional", "ones") in found
    assert all(has for fn, _, _, has in _calls(ROOT / "core/attention.py") if fn == "causal")


def test_every_forward_factory_call_passes_a_device():
    missing = []
    for rel in FORWARD_FILES:
        path = ROOT / rel
        assert path.is_file(), f"models/{rel} is listed but missing: update the list"
        for fn, line, name, has in _calls(path):
            if has or (rel, fn) in ALLOWED:
                continue
            missing.append(f"models/{rel}:{line} torch.{name}(...) in {fn} has no device=")
    assert not missing, "\n".join(missing)


def test_allowed_entries_are_live():
    """An allow-list entry whose function no longer makes a CPU tensor is dropped, not kept as a blanket pass."""
    stale = []
    for (rel, fn), _why in ALLOWED.items():
        path = ROOT / rel
        assert path.is_file(), f"models/{rel} is listed but missing: update the list"
        if not any(f == fn and not has for f, _, _, has in _calls(path)):
            stale.append(f"{rel}:{fn}")
    assert not stale, stale


def test_forward_results_come_back_through_cpu():
    """Every `.numpy()` in the trace-making code is on a tensor brought to the CPU (`.cpu().numpy()`) or goes
    through the _np helpers, which do."""
    bad = []
    for rel in ("live.py", "core/long_trace.py", "core/lazy.py", "core/trace_fill.py", "core/value_norms.py"):
        path = ROOT / rel
        assert path.is_file(), f"models/{rel} is listed but missing: update the list"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "numpy":
                inner = node.func.value
                ok = isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "cpu"
                if not ok:
                    bad.append(f"models/{rel}:{node.lineno} .numpy() without .cpu()")
    assert not bad, "\n".join(bad)
