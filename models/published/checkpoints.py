"""Read a model folder as Hugging Face's `save_pretrained` / `hf download` leave it.

config.json, model.safetensors or sharded model-0000x-of-0000y.safetensors with their index, and
tokenizer.json. Every tensor is copied out of the memory map as float32, so a file truncated or
replaced later cannot crash the server; every failure is a WeightsError naming the file and what to
do. `describe()` reads only config.json and the safetensors headers: the sidebar lists a 7B model
without loading it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch
from tokenizers import Tokenizer

from ..core import device as device_
from ..core import precision as precision_
from ..core.transformer import Transformer
from ..errors import WeightsError
from ..live import LiveModel
from . import families
from .families import UnsupportedModel
from .families.common import max_tokens
from .hf_tokenizer import HFTokenizer

MODELS_ENV = "ATTENTION_LAB_MODELS"  # ':'-separated folders, each holding model folders
MAX_PARAMS_ENV = "ATTENTION_LAB_MAX_PARAMS"
DEFAULT_MAX_PARAMS = 2_000_000_000
INDEX = "model.safetensors.index.json"
GET = "python -m models.fetch <org/name> (or: hf download <org/name> --local-dir <folder>)"


@dataclass(frozen=True)
class Entry:
    """A model folder as the picker lists it."""

    path: Path
    name: str  # the folder's name, e.g. Qwen2.5-0.5B
    family: str  # GPT-2, Llama, Qwen2, Mistral, BERT, RoBERTa
    arch: str  # decoder | encoder | encoder-decoder
    params: int  # from the safetensors headers (a tied output head counted once)
    error: str | None = None  # why it cannot be loaded (too large, not a model, ...)


def _config(folder: Path) -> dict:
    path = folder / "config.json"
    if not path.is_file():
        raise WeightsError(f"{folder} is not a model folder: it has no config.json. Get a model with: {GET}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise WeightsError(f"{path} cannot be read as JSON ({e}). Download the model again.") from e


def weight_files(folder: Path) -> list[Path]:
    single = folder / "model.safetensors"
    if single.is_file():
        return [single]
    index = folder / INDEX
    if index.is_file():
        try:
            names = sorted(set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values()))
        except (OSError, ValueError, KeyError) as e:
            raise WeightsError(f"{index} is damaged ({e}). Download the model again.") from e
        missing = [n for n in names if not (folder / n).is_file()]
        if missing:
            raise WeightsError(f"{folder} lacks the shard(s) {', '.join(missing)} named in {INDEX}. Download again.")
        return [folder / n for n in names]
    raise WeightsError(
        f"{folder} has no model.safetensors (nor a sharded {INDEX}); only safetensors weights are read. "
        f"Get them with: {GET}"
    )


def _header(path: Path) -> dict:
    """The JSON header of a safetensors file: tensor names, dtypes, shapes and byte offsets."""
    try:
        with open(path, "rb") as f:
            (n,) = struct.unpack("<Q", f.read(8))
            if n > 100_000_000:
                raise ValueError("header length is implausible")
            head = json.loads(f.read(n))
        size = os.path.getsize(path)
        end = max((v["data_offsets"][1] for k, v in head.items() if k != "__metadata__"), default=0)
        if 8 + n + end > size:
            raise ValueError(f"the file holds {size:,} bytes but its tensors need {8 + n + end:,}: it is truncated")
        return {k: v for k, v in head.items() if k != "__metadata__"}
    except (OSError, ValueError, struct.error, KeyError, TypeError) as e:
        raise WeightsError(f"{path} is not a readable safetensors file ({e}). Download it again.") from e


def describe(folder: Path, precision: str | None = None, device: str | None = None) -> Entry:
    """What the picker shows; never raises for a bad folder (the error is in the entry). precision, device: as
    load_folder's (the "too large" check counts 2 bytes a parameter when bfloat16 runs, against the GPU's memory
    where a GPU runs the model)."""
    folder = Path(folder)
    try:
        c = _config(folder)
        kind = families.family_of(c)
        label, make_config, _ = families.FAMILIES[kind]
        cfg = make_config(c)
        params = count_params(weight_files(folder))
    except (WeightsError, UnsupportedModel, KeyError, TypeError, ValueError) as e:
        return Entry(folder, folder.name, "?", "?", 0, str(e) if not isinstance(e, KeyError) else f"missing {e}")
    try:
        dev = device_.resolve(device)
        dtype = precision_.resolve(precision, device_.on_gpu(dev))
        reason = too_large(params, precision_.bytes_per_param(dtype), dev)
    except ValueError as e:  # a bad $ATTENTION_LAB_PRECISION or $ATTENTION_LAB_DEVICE: said as it is, not "too large"
        return Entry(folder, folder.name, label, cfg.arch, params, str(e))
    error = None if reason is None else f"too large for this machine: {reason}"
    return Entry(folder, folder.name, label, cfg.arch, params, error)


# Buffers some files store beside the weights (old GPT-2 and Pythia files: the causal mask, RoPE's frequencies):
# not parameters, and skipped by the loader, so not counted against the size limit either.
BUFFERS = (".attn.bias", ".attn.masked_bias", ".attention.bias", ".attention.masked_bias", "rotary_emb.inv_freq")


def count_params(files: list[Path]) -> int:
    """Parameters in the safetensors headers (no tensor is read), buffers left out."""
    return sum(math.prod(v["shape"]) for p in files for k, v in _header(p).items() if not k.endswith(BUFFERS))


def max_params() -> int:
    """$ATTENTION_LAB_MAX_PARAMS; unset (or bad): DEFAULT_MAX_PARAMS on the CPU, what the GPU's free memory holds
    in bfloat16 where a GPU runs the published models (models/core/device.py)."""
    try:
        return int(float(os.environ[MAX_PARAMS_ENV]))
    except (KeyError, ValueError):
        return device_.default_max_params(DEFAULT_MAX_PARAMS)


def available_memory() -> int | None:
    """Bytes the kernel says a new allocation can get (Linux MemAvailable), None elsewhere."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def size_text(params: int) -> str:
    """147K, 1.0M, 2.1M, 494M, 7.6B: one decimal below 10, so a size and a limit near it differ."""
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if params >= scale:
            value = params / scale
            return f"{value:.1f}{unit}" if value < 10 or unit == "B" else f"{value:.0f}{unit}"
    return str(params)


def too_large(params: int, bytes_per_param: int = 8, device: torch.device | None = None) -> str | None:
    """Why a model of this size is not loaded here, or None. float32 weights take 4 bytes a parameter,
    and a forward with its trace needs about as much again (8); bfloat16 weights: 2 (models/core/precision.py).
    device: where a GPU runs the model, its free memory is what counts, not the host's."""
    limit = max_params()
    if params > limit:
        return f"{size_text(params)} parameters is more than {MAX_PARAMS_ENV}={size_text(limit)}"
    free = device_.free_bytes(device) if device_.on_gpu(device) else available_memory()
    if free is not None and params * bytes_per_param > free:
        need = params * bytes_per_param / 2**30
        return f"{size_text(params)} parameters need about {need:.1f} GiB; {free / 2**30:.1f} GiB free"
    return None


def scan(roots: str | None = None) -> list[Entry]:
    """Every model folder directly inside the folders of $ATTENTION_LAB_MODELS (or roots), by name."""
    roots = os.environ.get(MODELS_ENV, "") if roots is None else roots
    found = []
    for root in filter(None, roots.split(os.pathsep)):
        base = Path(root).expanduser()
        if not base.is_dir():
            continue
        for child in sorted(base.iterdir()):
            if (child / "config.json").is_file():
                found.append(describe(child))
    return found


def _tokenizer(folder: Path, c: dict, vocab_size: int):
    eos = c.get("eos_token_id")
    eos_ids = [] if eos is None else (eos if isinstance(eos, list) else [eos])
    start = c.get("decoder_start_token_id")
    if c.get("model_type") == "marian":
        return _marian_tokenizer(folder, vocab_size, eos_ids, [] if start is None else [start])
    path = folder / "tokenizer.json"
    if not path.is_file() and (folder / "vocab.txt").is_file():  # BERT-family repos without tokenizer.json
        return _wordpiece_tokenizer(folder, vocab_size, eos_ids, [] if start is None else [start])
    if not path.is_file() and (folder / "spiece.model").is_file():  # ALBERT and T5 repos without tokenizer.json
        return _spiece_tokenizer(folder, c, vocab_size, eos_ids, [] if start is None else [start])
    if not path.is_file():
        raise WeightsError(f"{folder} has no tokenizer.json. Download the model's tokenizer files too: {GET}")
    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as e:  # tokenizers raises plain Exceptions
        raise WeightsError(f"{path} cannot be read ({str(e)[:160]}). Download it again.") from e
    return HFTokenizer(tok, vocab_size, eos_ids, [] if start is None else [start])


def _wordpiece_tokenizer(folder: Path, vocab_size: int, eos_ids: list[int], start_ids: list[int]):
    from .wordpiece_vocab import wordpiece_from_vocab

    try:
        tok = wordpiece_from_vocab(folder)
    except Exception as e:  # a damaged vocab.txt or tokenizer_config.json; tokenizers raises plain Exceptions
        raise WeightsError(f"{folder}: vocab.txt cannot be read as a WordPiece vocabulary ({str(e)[:160]}).") from e
    return HFTokenizer(tok, vocab_size, eos_ids, start_ids)


def _spiece_tokenizer(folder: Path, c: dict, vocab_size: int, eos_ids: list[int], start_ids: list[int]):
    try:
        from .spiece_tokenizer import SpieceTokenizer

        return SpieceTokenizer(folder, c.get("model_type", ""), vocab_size, eos_ids, start_ids)
    except ImportError as e:
        raise WeightsError("spiece.model needs sentencepiece: pip install -r requirements.txt") from e
    except Exception as e:  # sentencepiece's own errors on a damaged file; a damaged tokenizer_config.json
        raise WeightsError(
            f"{folder}: spiece.model (the SentencePiece tokenizer) cannot be read ({str(e)[:160]}). Download it again."
        ) from e


def _marian_tokenizer(folder: Path, vocab_size: int, eos_ids: list[int], start_ids: list[int]):
    missing = [n for n in ("source.spm", "target.spm", "vocab.json") if not (folder / n).is_file()]
    if missing:
        raise WeightsError(f"{folder} lacks {', '.join(missing)} (Marian's tokenizer files). Download them too: {GET}")
    try:
        from .marian_tokenizer import MarianTokenizer

        return MarianTokenizer(folder, vocab_size, eos_ids, start_ids)
    except ImportError as e:
        raise WeightsError("Marian models need sentencepiece: pip install -r requirements.txt") from e
    except Exception as e:  # sentencepiece's own errors on damaged files
        raise WeightsError(f"{folder}: Marian's tokenizer files cannot be read ({str(e)[:160]}).") from e


def load_folder(
    folder: Path | str,
    progress: Callable[[float, str], None] | None = None,
    precision: str | None = None,
    device: str | None = None,
) -> LiveModel:
    """A published checkpoint as a LiveModel running through our Transformer. precision: "auto" | "float32" |
    "bfloat16" (None: $ATTENTION_LAB_PRECISION, else auto; models/core/precision.py): in bfloat16 the matrices are kept
    bfloat16 (a bfloat16 file's without a float32 copy) and only the matmuls run in it. device: "auto" | "cpu" |
    "cuda" (None: $ATTENTION_LAB_DEVICE, else auto; models/core/device.py): each tensor goes from the file to it."""
    folder = Path(folder)
    try:
        dev, notice = device_.resolve_with_notice(device)
        dtype = precision_.resolve(precision, device_.on_gpu(dev))
    except ValueError as e:
        raise WeightsError(str(e)) from e
    say = progress or (lambda _f, _m: None)
    c = _config(folder)
    try:
        kind = families.family_of(c)
        label, make_config, rename = families.FAMILIES[kind]
        cfg = make_config(c)
    except (UnsupportedModel, KeyError, TypeError, ValueError) as e:
        what = f"missing setting {e}" if isinstance(e, KeyError) else str(e)
        raise WeightsError(f"{folder / 'config.json'}: {what}.") from e
    if cfg.max_len > max_tokens():  # $ATTENTION_LAB_MAX_TOKENS (GPT-2, BERT too: their position tables are cut)
        cfg = dataclasses.replace(cfg, max_len=max_tokens())
    files = weight_files(folder)
    params = count_params(files)
    if (reason := too_large(params, precision_.bytes_per_param(dtype), dev)) is not None:
        raise WeightsError(f"{folder.name} is too large for this machine: {reason}.")
    own_head = families.UNTIE_WHEN_STORED.get(kind)  # T5: a stored lm_head unties the head (as transformers 5)
    if cfg.tie_embeddings and own_head is not None and any(own_head in _header(p) for p in files):
        cfg = dataclasses.replace(cfg, tie_embeddings=False)
    tok = _tokenizer(folder, c, cfg.vocab_size)
    with torch.device("meta"):
        skeleton = Transformer(cfg, init=False)
    expected = {k: v.shape for k, v in skeleton.state_dict().items()}
    low = precision_.matrix_names(skeleton) if dtype == torch.bfloat16 else set()  # kept bfloat16
    del skeleton
    if cfg.tie_embeddings:
        expected.pop("head.weight", None)
    state: dict[str, torch.Tensor] = {}
    from safetensors import safe_open

    for n, path in enumerate(files):
        say(n / len(files), path.name)
        _header(path)  # a truncated file is named before safetensors reads it
        try:
            with safe_open(str(path), framework="pt") as f:
                for name in f.keys():  # noqa: SIM118 (safe_open is not a dict)
                    t = f.get_tensor(name)
                    # out of the memory map, as float32 (bfloat16/float16 converted: a copy either way); in
                    # bfloat16 mode a stored 16-bit matrix is copied as bfloat16 (1-D gains, biases: float32 always)
                    half = t.dtype in (torch.bfloat16, torch.float16) and t.dim() >= 2
                    keep = torch.bfloat16 if low and half else torch.float32
                    # to the GPU: one copy in the stored 16-bit dtype, widened there (no float32 host copy)
                    t = (t.clone() if t.dtype == keep else t.to(keep)) if dev.type == "cpu" else t.to(dev).to(keep)
                    for ours, tensor in rename(name, t, cfg):
                        if ours not in expected:
                            continue
                        if ours == "pos_emb.weight" and tensor.shape[0] > expected[ours][0]:  # max_len capped
                            tensor = tensor[: expected[ours][0]]  # the first positions' rows
                        if tuple(tensor.shape) != tuple(expected[ours]):
                            raise WeightsError(
                                f"{path.name}: tensor {name} has shape {list(tensor.shape)}, but config.json "
                                f"implies {list(expected[ours])}. The config and the weights are from different models."
                            )
                        want = torch.bfloat16 if ours in low else torch.float32
                        state[ours] = (tensor if tensor.dtype == want else tensor.to(want)).contiguous()
        except WeightsError:
            raise
        except Exception as e:  # safetensors' own errors on damaged data
            raise WeightsError(f"{path} cannot be read ({str(e)[:160]}). Download it again.") from e
    missing = sorted(set(expected) - set(state))
    if missing:
        raise WeightsError(
            f"{folder.name}: the weights lack {len(missing)} tensor(s) the config needs, e.g. {missing[0]}. "
            "Download the model again (all shards)."
        )
    say(1.0, "model")
    with torch.device("meta"):  # no memory and no random init for weights about to be replaced
        net = Transformer(cfg, init=False)
    net.load_state_dict(state, strict=False, assign=True)
    if cfg.tie_embeddings:
        net.head.weight = net.tok_emb.weight
    net.rebuild_fixed(dev)
    precision_.mix(net)  # bfloat16 matrices: matmuls in bfloat16, everything between them float32
    meta = {"source": str(folder), "family": label, "model_type": kind, "params": params, "name": folder.name}
    meta["precision"] = precision_.running(net)
    meta["device"] = dev.type
    if notice:
        meta["device_notice"] = notice
    return LiveModel(net, tok, meta)
