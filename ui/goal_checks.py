"""The fixed registry of goal checks a lesson file may name: `[steps.goal] check = "head_role"` with its args.
A file only names a check and gives arguments (validated when the file is read); the code that runs is here.

Each check reads the live app state (st.session_state: the URL parameters' names, layer and head 0-based)
and computes with the same cached loaders the pages use, so on the rerun path it costs what the page costs.
Loaders are imported inside the checks: the lesson parser (ui/guide_format.py) imports this module too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from models.inspection.heads import ROLE_THRESHOLDS, ROLES

from .params import ATTENTION_KINDS, DTYPES, PARAMS, SIDES, canonical

CHANGE_MASKS = ("causal", "bidirectional")  # the Masks page's change-one-word demo draws these two
RANK_MASKS = ("causal", "bidirectional")  # the Rank page's two spectra
MOVED = 1e-6  # an output "moved" when its largest component changed by more (the Masks page's own count)


@dataclass(frozen=True)
class Outcome:
    reached: bool
    detail: str  # already translated, e.g. "L1H2: previous-token 0.62 (≥ 0.50 needed)"


@dataclass(frozen=True)
class Check:
    args: dict[str, tuple[Callable[[object], object], object]]  # name -> (validator, default; REQUIRED = none)
    run: Callable[[dict, Mapping[str, object]], Outcome]


REQUIRED = object()


def _number(lo: float, hi: float) -> Callable[[object], float]:
    def check(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{value!r} is not a number")
        if not lo <= value <= hi:
            raise ValueError(f"{value!r} is not between {lo:g} and {hi:g}")
        return float(value)

    return check


def _count(lo: int, hi: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"{value!r} is not a whole number from {lo} to {hi}")
        return value

    return check


def _one_of(*options: str) -> Callable[[object], str]:
    def check(value: object) -> str:
        if value not in options:
            raise ValueError(f"{value!r} is not one of {', '.join(options)}")
        return str(value)

    return check


def _param_name(value: object) -> str:
    name = canonical(value) if isinstance(value, str) else None
    if name not in PARAMS or name in ("lang", "present", "tables", "guide", "gstep"):
        raise ValueError(f"{value!r} is not a parameter of the app")
    return name


def _token(value: object) -> str:
    if not isinstance(value, str) or not _word(value) or len(value) > 64:
        raise ValueError(f'{value!r} is not a token\'s text (a word as typed, e.g. "cats")')
    return value


def _any(value: object) -> object:
    if not isinstance(value, str | int | float | bool) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{value!r} must be a text, a number or true/false")
    return value


def _t(key: str, **kw) -> str:
    from .i18n import t

    return t(key, **kw)


def _state(state: Mapping[str, object], name: str) -> object:
    value = state.get(name)
    return PARAMS[name].default if value is None else value


# ----------------------------------------------------------------- the checks


def head_role(args: dict, state: Mapping[str, object]) -> Outcome:
    """The selected head's score for a role (models.head_scores, as the Heads page shows it) is ≥ min."""
    from .head_loaders import head_roles

    name, weights = _state(state, "model"), _state(state, "weights")
    layer, head = int(_state(state, "layer")), int(_state(state, "head"))
    scores = head_roles(name, weights)[args["role"]]
    n_layers, n_heads = scores.shape
    layer, head = min(max(layer, 0), n_layers - 1), min(max(head, 0), n_heads - 1)  # as the pages clamp them
    score = float(scores[layer, head])
    detail = _t("guides.goal.head_role", layer=layer + 1, head=head + 1, role=_t(f"guides.role.{args['role']}"),
                score=f"{score:.2f}", min=f"{args['min']:.2f}")  # fmt: skip
    return Outcome(score >= args["min"], detail)


def prompt_changes_position(args: dict, state: Mapping[str, object]) -> Outcome:
    """The Masks page's demo: the word at `pos` replaced by `word`; under `mask`, how many of the positions
    before it changed their last-layer output. Reached when that count is in [min_before, max_before] and the
    changed position is at least `min_pos` (so there is something before it)."""
    from .loaders import get_model, trace, trace_ids

    name, weights, text = _state(state, "model"), _state(state, "weights"), str(_state(state, "prompt"))
    model = get_model(name, weights)
    if not text.strip() or not model.tokenizer.encode(text):
        return Outcome(False, _t("guides.goal.no_prompt"))
    base = trace(name, weights, text)
    pos = min(int(_state(state, "pos")), len(base.tokens) - 1)
    if pos < args["min_pos"]:  # too early in the sentence: say where to change it, not a count
        return Outcome(False, _t("guides.goal.change_early", pos=pos, min_pos=args["min_pos"]))
    word = str(state.get("word") or "").strip()
    new = model.tokenizer.encode((" " if base.tokens[pos].startswith("␣") else "") + word) if word else []
    if not new or new[0] == base.ids[pos]:
        return Outcome(False, _t("guides.goal.change_none", pos=pos))
    changed = list(base.ids)
    changed[pos] = new[0]
    stream = "decoder" if model.config.arch == "decoder" else "encoder"  # as lessons/masks.py
    before = trace_ids(name, weights, tuple(base.ids), args["mask"]).hidden[stream][-1]
    after = trace_ids(name, weights, tuple(changed), args["mask"]).hidden[stream][-1]
    moved = int((abs(after - before).max(axis=-1)[:pos] > MOVED).sum())
    high = args["max_before"] if args["max_before"] is not None else pos
    reached = args["min_before"] <= moved <= high
    detail = _t("guides.goal.change", mask=_t(f"mask.{args['mask']}"), moved=moved, n=pos, pos=pos,
                want=_range(args["min_before"], args["max_before"]))  # fmt: skip
    return Outcome(reached, detail)


def rank_below_n(args: dict, state: Mapping[str, object]) -> Outcome:
    """The Rank page: the selected head's numerical rank at `precision` (and the page's tolerance) under
    `mask` is below n, the number of tokens, and the prompt has at least `min_tokens` tokens."""
    from .loaders import get_model, head_rank_report

    name, weights, text = _state(state, "model"), _state(state, "weights"), str(_state(state, "prompt"))
    model = get_model(name, weights)
    if not text.strip() or not model.tokenizer.encode(text):
        return Outcome(False, _t("guides.goal.no_prompt"))
    dtype = str(_state(state, "dtype"))
    cfg = model.config
    layer = min(max(int(_state(state, "layer")), 0), cfg.n_layers - 1)
    head = min(max(int(_state(state, "head")), 0), cfg.n_heads - 1)
    tol_name = str(_state(state, "tol"))
    tol = None if tol_name == "auto" else float(tol_name)
    report = head_rank_report(name, weights, text, args["mask"], layer, head, dtype, tol)
    reached = dtype == args["precision"] and report.numerical_rank < report.n and report.n >= args["min_tokens"]
    detail = _t("guides.goal.rank", layer=layer + 1, head=head + 1, mask=_t(f"mask.{args['mask']}"), dtype=dtype,
                rank=report.numerical_rank, n=report.n, precision=args["precision"])  # fmt: skip
    if report.n < args["min_tokens"]:
        detail += " " + _t("guides.goal.rank_short", k=args["min_tokens"])
    return Outcome(reached, detail)


def param_is(args: dict, state: Mapping[str, object]) -> Outcome:
    """A control of the app (a URL parameter) has a value, compared as the app parses it."""
    name, want = args["name"], args["value"]
    have = _state(state, name)
    return Outcome(have == want, _t("guides.goal.param", have=_shown(name, have), want=_shown(name, want)))


# Controls whose values the page shows by a name (the sidebar's "Decoder-only (GPT-style)", not "decoder")
VALUE_NAMES = {"model": "model", "view": "explorer.view", "agg": "explorer.agg", "weighting": "explorer.weighting",
               "qk_color": "heads.qk_color"}  # fmt: skip


def _shown(name: str, value: object) -> str:
    """A control's value as the page shows it; a typed text (a prompt) as typed."""
    from .i18n import STRINGS, md

    raw = PARAMS[name].dump(value)
    key = f"{VALUE_NAMES.get(name)}.{raw}"
    return _t(key) if name in VALUE_NAMES and key in STRINGS else md(raw)


def prompt_tokens(args: dict, state: Mapping[str, object]) -> Outcome:
    """The prompt's number of tokens under the selected model's tokenizer is in [min, max]."""
    from . import precision_keys
    from .loaders import get_model

    name = str(_state(state, "model"))  # in the session's precision: the model its pages run, not a second copy
    weights = precision_keys.key(name, str(_state(state, "weights")), str(_state(state, "precision")))
    model = get_model(name, weights)
    n = len(model.tokenizer.encode(str(_state(state, "prompt"))))
    reached = args["min"] <= n and (args["max"] is None or n <= args["max"])
    return Outcome(reached, _t("guides.goal.tokens", n=n, want=_range(args["min"], args["max"])))


def _word(text: str) -> str:
    """A token as a teacher types it: without the space marker ␣ or WordPiece's ##, in lower case."""
    return text.strip().removeprefix("␣").removeprefix("##").strip().lower()


def attention_at(args: dict, state: Mapping[str, object]) -> Outcome:
    """The Explorer: the attention weight (the raw softmax weight, not the value-weighted view) from a query
    token to a key token of the current prompt, on the selected model, weights, layer, head and attention kind
    (self or cross, encoder-decoder only), is ≥ min. Tokens are named as typed, e.g. query = "cats": the
    argument and each token are compared without the space marker ␣ (or WordPiece's ##) and case, so "cats"
    and "␣cats" both name the token the heatmap labels ␣cats. A word that is several tokens names none; when
    the word appears more than once, the largest weight among its (query, key) pairs counts."""
    from .controls import axis_tokens
    from .loaders import get_model, greedy_target, trace

    name, weights, text = _state(state, "model"), _state(state, "weights"), str(_state(state, "prompt"))
    model = get_model(name, weights)
    if not text.strip() or not model.tokenizer.encode(text):
        return Outcome(False, _t("guides.goal.no_prompt"))
    target = None
    if model.config.arch == "encoder-decoder":
        target = state.get("target") or greedy_target(name, weights, text)
    tr = trace(name, weights, text, target)
    kind = state.get("attn")
    if kind not in tr.attention:
        kind = next(iter(k for k in ATTENTION_KINDS if k in tr.attention))
    q_tokens, k_tokens = axis_tokens(tr, kind)
    att = tr.attention[kind]  # [L, H, Tq, Tk]
    layer = min(max(int(_state(state, "layer")), 0), att.shape[0] - 1)
    head = min(max(int(_state(state, "head")), 0), att.shape[1] - 1)
    rows = [i for i, tok in enumerate(q_tokens) if _word(tok) == _word(args["query"])]
    cols = [j for j, tok in enumerate(k_tokens) if _word(tok) == _word(args["key"])]
    if not rows or not cols:
        missing = args["query"] if not rows else args["key"]
        return Outcome(False, _t("guides.goal.no_token", token=_md(missing)))
    weight, i, j = max((float(att[layer, head, i, j]), i, j) for i in rows for j in cols)
    detail = _t("guides.goal.attention", layer=layer + 1, head=head + 1, query=_md(q_tokens[i]),
                to=_md(k_tokens[j]), weight=f"{weight:.2f}", min=f"{args['min']:.2f}")  # fmt: skip
    return Outcome(weight >= args["min"], detail)


def lab_trained(args: dict, state: Mapping[str, object]) -> Outcome:
    """The Architecture lab: side A or B, as its controls and the training recipe stand now, has weights
    trained here (in the server's registry of trained variants, loaders.training_jobs) and the app shows
    trained weights (the sidebar's weights switch), so the side's figures are the trained model's."""
    from models import variants

    from .lab_configs import lab_config, side_values
    from .loaders import shipped_tokenizer, training_jobs

    side = args["side"]
    cfg = lab_config(side_values(side, state), shipped_tokenizer().vocab_size)
    key = variants.variant_key(cfg, cfg.seed, recipe=str(_state(state, "lab_recipe")))
    jobs = training_jobs()
    job = jobs.jobs.get(key)
    side_name = _t(f"lab.side.{side}")
    if key in jobs.trained:
        shown = _state(state, "weights") == "trained"
        return Outcome(
            shown, _t("guides.goal.lab_trained" if shown else "guides.goal.lab_random_shown", side=side_name)
        )
    if job is not None and job.state == "running":
        return Outcome(False, _t("guides.goal.lab_training", side=side_name, percent=f"{job.progress:.0%}"))
    return Outcome(False, _t("guides.goal.lab_untrained", side=side_name))


def head_recovers(args: dict, state: Mapping[str, object]) -> Outcome:
    """The "What a head causes" page: the head picked under **Open a head on the Explorer** recovers at least `min`
    of the answer on the page's two prompts (ui/patch_goal.py)."""
    from .patch_goal import picked_share

    return Outcome(*picked_share(args["min"], state))


def _md(text: object) -> str:
    from .i18n import md

    return md(text)


def _range(lo: int, hi: int | None) -> str:
    """How many the goal wants, in words: "none", "at least 5", "exactly 2", "2 to 4"."""
    if hi is None:
        return _t("guides.want.at_least", lo=lo)
    if lo == hi:
        return _t("guides.want.none") if lo == 0 else _t("guides.want.exactly", lo=lo)
    return _t("guides.want.between", lo=lo, hi=hi)


def _param_value(args: dict) -> dict:
    """param_is: the value parsed as a URL value of that parameter (layer = 1 in a file is 0 in the state)."""
    value = args["value"]
    raw = ("1" if value else "0") if isinstance(value, bool) else str(value)
    try:
        args["value"] = PARAMS[args["name"]].parse(raw)
    except (ValueError, TypeError):
        raise ValueError(f"value = {value!r} is not a valid {args['name']}") from None
    return args


def _role_min(args: dict) -> dict:
    if args["min"] is None:
        args["min"] = ROLE_THRESHOLDS[args["role"]]
    return args


def _bounds(low: str, high: str) -> Callable[[dict], dict]:
    def check(args: dict) -> dict:
        if args[high] is not None and args[high] < args[low]:
            raise ValueError(f"{high} = {args[high]} is below {low} = {args[low]}")
        return args

    return check


def _optional(check: Callable[[object], object]) -> Callable[[object], object]:
    return lambda value: None if value is None else check(value)


CHECKS: dict[str, Check] = {
    "head_role": Check({"role": (_one_of(*ROLES), REQUIRED), "min": (_optional(_number(0, 1)), None)}, head_role),
    "prompt_changes_position": Check(
        {
            "mask": (_one_of(*CHANGE_MASKS), REQUIRED),
            "min_before": (_count(0, 255), 0),
            "max_before": (_optional(_count(0, 255)), None),
            "min_pos": (_count(0, 255), 1),
        },
        prompt_changes_position,
    ),
    "rank_below_n": Check(
        {
            "precision": (_one_of(*DTYPES), REQUIRED),
            "mask": (_one_of(*RANK_MASKS), "causal"),
            "min_tokens": (_count(1, 4096), 2),
        },
        rank_below_n,
    ),
    "param_is": Check({"name": (_param_name, REQUIRED), "value": (_any, REQUIRED)}, param_is),
    "prompt_tokens": Check({"min": (_count(1, 4096), 1), "max": (_optional(_count(1, 4096)), None)}, prompt_tokens),
    "attention_at": Check(
        {"query": (_token, REQUIRED), "key": (_token, REQUIRED), "min": (_number(0, 1), REQUIRED)}, attention_at
    ),
    "lab_trained": Check({"side": (_one_of(*SIDES), REQUIRED)}, lab_trained),
    "head_recovers": Check({"min": (_number(-2, 2), REQUIRED)}, head_recovers),
}
_AFTER = {
    "head_role": _role_min,
    "param_is": _param_value,
    "prompt_changes_position": _bounds("min_before", "max_before"),
    "prompt_tokens": _bounds("min", "max"),
}


def validate(name: str, args: dict) -> dict:
    """The args with defaults filled in and values checked; ValueError (its message for the file's reader)."""
    if name not in CHECKS:
        raise ValueError(f"{name!r} is not a check (there are {', '.join(CHECKS)})")
    spec = CHECKS[name].args
    extra = sorted(set(args) - set(spec))
    if extra:
        raise ValueError(f"no argument {', '.join(extra)} (it takes {', '.join(spec) or 'none'})")
    out = {}
    for arg, (check, default) in spec.items():
        if arg not in args:
            if default is REQUIRED:
                raise ValueError(f"needs {arg}")
            out[arg] = default
            continue
        try:
            out[arg] = check(args[arg])
        except ValueError as e:
            raise ValueError(f"{arg}: {e}") from None
    return _AFTER.get(name, lambda a: a)(out)


def evaluate(name: str, args: dict, state: Mapping[str, object]) -> Outcome:
    """Run a validated check on the app's state (st.session_state, or any mapping with the same keys)."""
    return CHECKS[name].run(args, state)
