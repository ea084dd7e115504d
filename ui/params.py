"""Every URL parameter of the app in one table: name (= widget key), default, how to parse it.

One table, read before any page runs, so a shared link restores page controls too (a page's
own widgets do not exist yet when the link is first read).
"""

from __future__ import annotations

import functools
import os
import re

import models
from models.core import precision
from models.published import checkpoints, hub
from models.teaching import catalog
from models.variants import RECIPES

from .compare_params import compare_params
from .url import BOOL, MAX_SENTENCES_CHARS, MAX_WORD_CHARS, TEXT, Param, choice, int_in, text

LANGUAGES = {"en": "English", "zh": "简体中文"}
WEIGHTS = ("trained", "random")
DEFAULT_PROMPT = "the cats that the dog sees are happy ."
# The prompt a session opens on when neither the student nor the URL gave one: the toy models are bilingual, so a
# Chinese interface opens on Chinese text (one of the decoder's examples, ui/shell.py EXAMPLES). PARAMS["prompt"]
# keeps the English one: guided lessons and their checks are written for it.
DEFAULT_PROMPTS = {"en": DEFAULT_PROMPT, "zh": "小明说小红喜欢苹果。小明说小红喜欢"}
# Where the Generate page starts while the prompt is still the app's own default (ui/toy_words.generate_start), for a
# toy decoder. The English default ends a sentence, and after " ." the toy decoder always writes a lone space first
# (p = 1.00: its training sentences were joined by one). Without its last words the first greedy token is "␣are"
# (p = 0.95), agreeing with "cats" across "the dog sees" (issue 39). The Chinese default continues already: 苹 (0.14),
# the start of 苹果 copied from the first sentence.
GENERATE_STARTS = {DEFAULT_PROMPT: "the cats that the dog sees"}


# The Masks page's replacement word, one token of the toy vocabulary in each language: the English "dog" is three
# letters to the toy tokenizer after a Chinese token (no leading space), and replaced 说 with "d" (issue 39).
DEFAULT_WORDS = {"en": "dog", "zh": "猫"}


def default_prompt(lang: str) -> str:
    return DEFAULT_PROMPTS.get(lang, DEFAULT_PROMPT)


ATTENTION_KINDS = ("encoder.self", "decoder.self", "decoder.cross")
VIEWS = ("heatmap", "grid", "lines")
AGGREGATES = ("head", "mean", "rollout")
WEIGHTINGS = ("raw", "norm")  # attention weights, or value-weighted α‖f(x)‖ (Kobayashi et al. 2020)
MAX_LAYERS_OR_HEADS = 64
MAX_PAD = 8
# rank lesson
DTYPES = ("float64", "float32")
TOLERANCES = ("auto", "1e-2", "1e-4", "1e-6", "1e-8", "1e-10", "1e-12", "1e-14")
SWEEP_INPUTS = ("random", "text")
TOY_MASKS = ("causal", "bidirectional")
PIT_SIGMAS = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
# positional lesson
PE_DIMS = (4, 8, 16, 32, 64, 128, 256, 512)
PE_BASES = (10, 100, 1000, 10000, 100000)
# softmax lesson
SIGMAS = (0.25, 0.5, 1.0, 2.0)
DKS = tuple(2**i for i in range(11))  # 1 .. 1024
LOG2_SCALE = (-8.0, 0.0)  # the one-row demo's scale s = 2^x
LIVE_FACTORS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)  # × the model's own 1/sqrt(d_k)
# generation, translation, masked tokens
DECODING = ("greedy", "sample")
MAX_NEW = 64
RECIPE_RULES = ("bernoulli", "exact")  # MLM: each token with p = 0.15 (this app's training) | BERT's exact count
# a published T5's task prefixes (Raffel et al. 2020, Appendix D: its translation tasks); "none": the text as typed
T5_TASKS = {"de": "translate English to German: ", "fr": "translate English to French: ",
            "ro": "translate English to Romanian: ", "none": ""}  # fmt: skip


# architecture lab: two configurations, A and B; each field is a URL parameter a_<field> / b_<field>,
# named after the ModelConfig field it sets (attn_scale is a code here: sqrt, one or inv)
SIDES = ("a", "b")
LAB_FIELDS = ("arch", "n_layers", "d_model", "n_heads", "n_kv_heads", "d_ff", "norm_position", "norm", "activation",
              "positional", "attn_scale", "bias", "tie_embeddings", "seed", "n_experts", "experts_top_k")  # fmt: skip
LAB_LAYERS = (1, 2, 3, 4)
LAB_D_MODEL = (32, 64, 128, 256)
LAB_HEADS = (1, 2, 4, 8)
LAB_D_FF = (64, 128, 256, 512, 1024)
LAB_EXPERTS = (0, 4, 8)  # mixture of experts: 0 = the dense FFN (models/core/moe.py)
LAB_TOP_K = (1, 2)  # experts per token: 1 (Switch, Fedus et al. 2021), 2 (Mixtral, Jiang et al. 2024)
LAB_SCALES = ("sqrt", "one", "inv")  # 1/sqrt(d_head) (Vaswani), 1 (no scale), 1/d_head (muP)
LAB_PRESETS = {  # the families the notes compare, at the lab's small size
    "llama": dict(arch="decoder", norm_position="pre", norm="rmsnorm", activation="swiglu", positional="rope",
                  n_kv_heads=2, bias=False, tie_embeddings=False),
    "gpt2": dict(arch="decoder", norm_position="pre", norm="layernorm", activation="gelu", positional="learned",
                 n_kv_heads=4, bias=True, tie_embeddings=True),
    "bert": dict(arch="encoder", norm_position="post", norm="layernorm", activation="gelu", positional="learned",
                 n_kv_heads=4, bias=True, tie_embeddings=True),
    "vaswani": dict(arch="encoder-decoder", norm_position="post", norm="layernorm", activation="relu",
                    positional="sinusoidal", n_kv_heads=4, bias=True, tie_embeddings=True),
}  # fmt: skip
for _preset in LAB_PRESETS.values():  # a family preset is dense: it resets the experts the student chose
    _preset.update(n_experts=0, experts_top_k=2)
# Mixtral's block at the lab's size: Llama's, each FFN replaced by 8 experts, 2 per token (Jiang et al. 2024)
LAB_PRESETS["mixtral"] = dict(LAB_PRESETS["llama"], n_experts=8, experts_top_k=2)
LAB_DEFAULTS = {
    side: dict(LAB_PRESETS[preset], n_layers=2, d_model=64, n_heads=4, d_ff=256, attn_scale="sqrt", seed=0)
    for side, preset in (("a", "llama"), ("b", "gpt2"))
}
# The one configuration measured to grow an induction head within the lab's budget (models.variants.RECIPES):
# A with tied embeddings, trained by the induction-forming recipe, which picking this preset also picks.
LAB_PRESETS["induction"] = dict(LAB_DEFAULTS["a"], tie_embeddings=True)
LAB_PRESET_RECIPES = {"induction": "induction"}
# The lab's fields before they took ModelConfig's names: links and lesson files already shared use them.
_LAB_OLD_NAMES = {"layers": "n_layers", "d": "d_model", "heads": "n_heads", "kv": "n_kv_heads", "ff": "d_ff",
                  "scale": "attn_scale", "tie": "tie_embeddings"}  # fmt: skip
ALIASES = {f"{side}_{old}": f"{side}_{new}" for side in SIDES for old, new in _LAB_OLD_NAMES.items()}
# scaling page
BUDGETS = tuple(round(18 + 0.01 * i, 2) for i in range(901))  # log10 of the training compute C in FLOPs: 1e18..1e27
KV_DTYPES = ("bfloat16", "float32", "int8")
# heads page
QK_COLORS = ("kind", "position")
MOE_EXPERTS = (1, 2, 4, 8, 16, 32, 64)  # the Model size page's mixture of experts: experts per layer ...
MOE_TOP_K = (1, 2, 4, 8)  # ... and experts per token, on Mixtral's block
TIMELINE_FACTORS = (2, 10, 100, 1000)  # the compute budget grows by this factor (exponents readout)


def lab_params() -> dict[str, Param]:
    """a_arch, a_n_layers, ... b_seed: every field of both lab configurations."""
    out = {}
    for side in SIDES:
        d = LAB_DEFAULTS[side]
        out |= {
            f"{side}_arch": Param(d["arch"], choice(*models.config.ARCHS)),
            f"{side}_n_layers": Param(d["n_layers"], number_in(LAB_LAYERS)),
            f"{side}_d_model": Param(d["d_model"], number_in(LAB_D_MODEL)),
            f"{side}_n_heads": Param(d["n_heads"], number_in(LAB_HEADS)),
            # clamped to a divisor of n_heads by the page
            f"{side}_n_kv_heads": Param(d["n_kv_heads"], number_in(LAB_HEADS)),
            f"{side}_d_ff": Param(d["d_ff"], number_in(LAB_D_FF)),
            f"{side}_norm_position": Param(d["norm_position"], choice(*models.config.NORM_POSITIONS)),
            f"{side}_norm": Param(d["norm"], choice(*models.config.NORMS)),
            f"{side}_activation": Param(d["activation"], choice(*models.config.ACTIVATIONS)),
            f"{side}_positional": Param(d["positional"], choice(*models.config.POSITIONALS)),
            f"{side}_attn_scale": Param(d["attn_scale"], choice(*LAB_SCALES)),
            f"{side}_bias": Param(d["bias"], **BOOL),
            f"{side}_tie_embeddings": Param(d["tie_embeddings"], **BOOL),
            f"{side}_seed": Param(d["seed"], int_in(0, 99)),
            f"{side}_n_experts": Param(d["n_experts"], number_in(LAB_EXPERTS)),
            f"{side}_experts_top_k": Param(d["experts_top_k"], number_in(LAB_TOP_K)),
        }
    return out


def canonical(name: str) -> str:
    """A parameter's current name: an old name from ALIASES becomes the new one, others stay."""
    return ALIASES.get(name, name)


def number_in(options) -> Param:
    """A number from a fixed list (sliders over powers of two, bases); the default is options' own."""

    def parse(raw: str):
        try:
            value = type(options[0])(float(raw))
        except OverflowError as e:  # "inf"
            raise ValueError(raw) from e
        if value not in options:
            raise ValueError(raw)
        return value

    return parse


def int_list(low: int, high: int, most: int = 8):
    """ "0,1,10" -> [0, 1, 10] (multiselect values), each in [low, high]."""

    def parse(raw: str) -> list[int]:
        values = [int_in(low, high)(v) for v in raw.split(",") if v != ""]  # "" is the empty list
        if len(values) > most:
            raise ValueError(raw)
        return values

    return parse


def one_based_list(raw: str) -> list[int]:
    """ "1,3" -> [0, 2]: heads are 1-based in the URL, as layer and head are."""
    return [h - 1 for h in int_list(1, MAX_LAYERS_OR_HEADS, MAX_LAYERS_OR_HEADS)(raw)]


def float_in(low: float, high: float):
    def parse(raw: str) -> float:
        value = float(raw)
        if not low <= value <= high:  # also rejects nan
            raise ValueError(raw)
        return value

    return parse


def guide_id(raw: str) -> str:
    """A guide's file name without .toml: letters, digits, '-', '_' and '.' only."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,80}", raw):
        raise ValueError(raw)
    return raw


def one_based(default: int = 0) -> Param:
    """Layers, heads and positions are 0-based in code and 1-based for people (and in the URL)."""
    return Param(default, lambda raw: int_in(1, MAX_LAYERS_OR_HEADS)(raw) - 1, lambda v: str(v + 1))


def local_models() -> dict[str, checkpoints.Entry]:
    """Published models this machine has: the folders of $ATTENTION_LAB_MODELS by folder name, and the Hugging Face
    cache's snapshots as `org/name` or `org/name@revision` (models/published/hub.py). Scanned once per value of
    models_key()
    (config.json and safetensors headers only); a shipped model's name is not shadowed."""
    return _scan(models_key())


_generation = [0]  # bumped by refresh_models() when a download from the page finishes


def models_key() -> str:
    """What the model list depends on: $ATTENTION_LAB_MODELS, the Hugging Face cache folder, the generation."""
    return f"{os.environ.get(checkpoints.MODELS_ENV, '')}\n{hub.cache_dir()}\n{_generation[0]}"


def refresh_models() -> None:
    """Scan again on the next call (a model was just downloaded): every session sees the new list."""
    _generation[0] += 1


@functools.cache
def _scan(key: str) -> dict[str, checkpoints.Entry]:
    roots = key.split("\n", 1)[0]
    found = [*checkpoints.scan(roots), *hub.cached()]
    return {e.name: e for e in found if e.name not in models.AVAILABLE}


def model_names() -> tuple[str, ...]:
    return (*models.AVAILABLE, *local_models())


def _model_name(raw: str) -> str:
    if raw not in model_names():
        raise ValueError(raw)
    return raw


PARAMS: dict[str, Param] = {
    # shared (app.py)
    "lang": Param("en", choice(*LANGUAGES)),
    "model": Param("decoder", _model_name),
    "weights": Param("trained", choice(*WEIGHTS)),
    "present": Param(False, **BOOL),
    "tables": Param(False, **BOOL),
    "prompt": Param(DEFAULT_PROMPT, **TEXT),
    # a published model's precision in this session (issue 30; ui/precision_keys.py): the default is read when a
    # session starts, from $ATTENTION_LAB_PRECISION (state.default), not this import-time copy
    "precision": Param(precision.DEFAULT, choice(*precision.CHOICES)),
    # explorer and masks
    "layer": one_based(),
    "head": one_based(),
    "attn": Param(None, choice(*ATTENTION_KINDS)),
    "view": Param("heatmap", choice(*VIEWS)),
    "agg": Param("head", choice(*AGGREGATES)),
    "autoscale": Param(False, **BOOL),
    "sink_tables": Param(False, **BOOL),
    "weighting": Param("raw", choice(*WEIGHTINGS)),
    "target": Param("", **TEXT),
    "prefix": Param(3, int_in(1, 256)),
    "pad": Param(2, int_in(1, MAX_PAD)),
    "window": Param(3, int_in(1, 256)),
    "pos": Param(3, int_in(0, 255)),
    "word": Param("dog", **text(MAX_WORD_CHARS)),
    # rank
    "dtype": Param("float64", choice(*DTYPES)),
    "tol": Param("auto", choice(*TOLERANCES)),
    "sweep_in": Param("random", choice(*SWEEP_INPUTS)),
    "samples": Param(4, int_in(2, 16)),
    "toy_n": Param(4, int_in(2, 6)),
    "toy_mask": Param("causal", choice(*TOY_MASKS)),
    "toy_row": one_based(3),
    "toy_sharp": Param(1, int_in(1, 100)),
    "toy_seed": Param(0, int_in(0, 999)),
    "pit_n": Param(64, int_in(4, 256)),
    "pit_d": Param(8, int_in(1, 64)),
    "pit_sigma": Param(3.0, number_in(PIT_SIGMAS)),
    # positional
    "pe_d": Param(64, number_in(PE_DIMS)),
    "pe_base": Param(10000, number_in(PE_BASES)),
    "pe_n": Param(128, int_in(16, 512)),
    "pe_dims": Param([0, 1, 10, 30], int_list(0, 511), lambda v: ",".join(map(str, v))),
    "pe_k": Param(5, int_in(0, 64)),
    "pe_pos": Param(3, int_in(0, 256)),
    "pe_pair": Param(0, int_in(0, 255)),
    "rope_m": Param(2, int_in(0, 64)),
    "rope_n": Param(5, int_in(0, 64)),
    "shuf": Param(0, int_in(0, 999)),
    # softmax
    "sigma": Param(1.0, number_in(SIGMAS)),
    "dk": Param(64, number_in(DKS)),
    "sm_log2s": Param(None, float_in(*LOG2_SCALE)),  # None: 1/sqrt(d_k)
    "live_c": Param(1.0, number_in(LIVE_FACTORS)),
    "qk_angle": Param(60, int_in(0, 180)),
    "q_norm": Param(1.0, float_in(0.1, 4.0)),
    "k_norm": Param(2.0, float_in(0.1, 4.0)),
    # generate
    "decoding": Param("greedy", choice(*DECODING)),
    "temp": Param(1.0, float_in(0.05, 3.0)),
    "top_k": Param(0, int_in(0, 100)),  # 0: off
    "top_p": Param(1.0, float_in(0.05, 1.0)),  # 1: off
    "seed": Param(0, int_in(0, 9999)),
    "max_new": Param(24, int_in(1, MAX_NEW)),
    "step": Param(1, int_in(1, MAX_NEW)),
    # translate
    "source": Param("1234", **TEXT),
    "tr_step": Param(1, int_in(1, MAX_NEW)),
    "typed": Param(None, **TEXT),  # None: the model's own translation
    "t5_task": Param("de", choice(*T5_TASKS)),  # a published T5 only
    # masked tokens
    "picked": Param([2], int_list(0, 255), lambda v: ",".join(map(str, v))),  # 2: "cats" in the default prompt
    "focus_mask": Param(0, int_in(0, 255)),
    "sentences": Param(
        "A man is eating food.\nA man is eating a piece of bread.\nThe girl is carrying a baby.\n"
        "A man is riding a horse.\nA woman is playing the violin.",
        **text(MAX_SENTENCES_CHARS),
    ),
    "recipe_seed": Param(1, int_in(0, 9999)),  # 1: on the default prompt, one [MASK] and one random token
    "recipe_rule": Param("bernoulli", choice(*RECIPE_RULES)),
    # guided lessons: which one, and the step (1-based in the URL)
    "guide": Param(None, guide_id),
    "gstep": one_based(),
    # architecture lab (plus lab_params() below)
    "lab_anatomy": Param("a", choice(*SIDES)),
    "lab_tree": Param(False, **BOOL),
    "lab_recipe": Param("default", choice(*RECIPES)),
    "a_snap": Param(None, int_in(0, 1_000_000)),  # the training step a snapshot replays (None: the last)
    "b_snap": Param(None, int_in(0, 1_000_000)),
    # model size and scaling laws
    "cat": Param("Llama-3.1-8B", choice(*(p.name for p in catalog.CATALOG))),
    "kv_ctx": Param(8192, int_in(1, 1_000_000)),
    "kv_dtype": Param("bfloat16", choice(*KV_DTYPES)),
    "albert_v": Param(30000, int_in(1000, 300_000)),
    "albert_h": Param(768, int_in(64, 16384)),
    "albert_e": Param(128, int_in(8, 4096)),
    "budget": Param(23.77, number_in(BUDGETS)),  # log10 of 6 · 70B · 1.4T, Chinchilla's budget
    # heads
    "qk_color": Param("position", choice(*QK_COLORS)),
    "tl_factor": Param(10, number_in(TIMELINE_FACTORS)),
    "moe_n": Param(8, number_in(MOE_EXPERTS)),  # Mixtral's 8 experts, 2 per token
    "moe_k": Param(2, number_in(MOE_TOP_K)),
}
PARAMS |= lab_params()
# logit lens and knock-out (lessons/lens.py): heads 1-based in the URL, as layer and head are
PARAMS |= {
    "lens_from": Param(0, int_in(0, 1_000_000)),  # first position shown in the lens table
    "ko_layer": one_based(1),  # layer 2: where the toy decoder's induction heads are
    "ko_heads": Param([0], one_based_list, lambda v: ",".join(str(h + 1) for h in v)),
    "ko_mode": Param("zero", choice("zero", "uniform")),
    "tok_step": Param(1_000_000, int_in(0, 1_000_000)),  # BPE replay step (clamped to the prompt's last step)
}
# what a head causes (lessons/patch.py): the template, the two prompts and the two words (None: the template's or the
# proposed ones), the by-position map's layer (layer 2: the toy decoder's induction heads), the batch of eight shown
PATCH_TEMPLATES = ("repeat", "names_en", "names_zh")  # ui/patch_pairs.TEMPLATES
PARAMS |= {
    "pt_template": Param("repeat", choice(*PATCH_TEMPLATES)),
    "pt_clean": Param(None, **TEXT),
    "pt_corrupt": Param(None, **TEXT),
    "pt_answer": Param(None, **text(MAX_WORD_CHARS)),
    "pt_wrong": Param(None, **text(MAX_WORD_CHARS)),
    "pt_layer": one_based(1),
    "pt_batch": Param(False, **BOOL),
    "pt_head": Param(None, int_in(0, MAX_LAYERS_OR_HEADS**2 - 1)),  # the head picked to open: layer × n_heads + head
}
# circuits between heads (lessons/circuits.py): the head and cell whose score is split (layer 2, head 1: the toy
# decoder's induction head; -1: the last token, and where an induction head looks), the path-patching sender (None:
# the field guide's best previous-token head, layer × n_heads + head) and the receiver's input
PARAMS |= {
    "cc_layer": one_based(1),
    "cc_head": one_based(0),
    "cc_query": Param(-1, int_in(-1, 100_000)),
    "cc_key": Param(-1, int_in(-1, 100_000)),
    "cc_sender": Param(None, int_in(0, MAX_LAYERS_OR_HEADS**2 - 1)),
    "cc_input": Param("k", choice("q", "k", "v")),
    # knocking out an edge: query and key (-1: as in the first section), every copy of the key's token, where
    "cc_ko_q": Param(-1, int_in(-1, 100_000)),
    "cc_ko_k": Param(-1, int_in(-1, 100_000)),
    "cc_ko_word": Param(False, **BOOL),
    "cc_ko_layers": Param([1], one_based_list, lambda v: ",".join(str(i + 1) for i in v)),
    "cc_ko_heads": Param([0], one_based_list, lambda v: ",".join(str(h + 1) for h in v)),
}
# pretraining objectives (lessons/objectives.py)
PARAMS |= {"obj_seed": Param(1, int_in(0, 9999))}
# the Explorer's neuron view (lessons/explorer_neuron.py): shown or not, its query and key (-1: the last token,
# and the query's highest-weight key; not None, which a selectbox shows as an untranslated "Choose an option")
PARAMS |= {"neuron": Param(False, **BOOL), "nv_q": Param(-1, int_in(-1, 100_000)),
           "nv_k": Param(-1, int_in(-1, 100_000))}  # fmt: skip
# its ELECTRA section with a published discriminator: the words replaced (0-based; 4: "dog" in the default prompt)
PARAMS |= {"electra_words": Param([4], int_list(0, 255), lambda v: ",".join(map(str, v))),
           "electra_with": Param("car", **text(MAX_WORD_CHARS))}  # fmt: skip
PARAMS |= compare_params(one_based)  # the Explorer's second model (issue 44): compare, c_layer, c_head, c_same
SHARED = ["lang", "model", "weights", "present", "prompt", "tables", "precision"]
