"""Every user-visible string, in English and 简体中文. Pages call t(key, **fields).

Strings are Markdown (ours, trusted). Anything derived from user input that goes into one
passes through md() first, so it shows as typed: no links, no emphasis, no math, no HTML.
"""

from __future__ import annotations

import re

import viz

from .state import lang
from .strings import generate, guides, lab, mlm, positional, rank, scaling, similarity, softmax, translate

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- shell
    "app.title": {"en": "Attention Lab", "zh": "注意力实验室"},
    "nav.home": {"en": "Home", "zh": "首页"},
    "nav.explorer": {"en": "Attention Explorer", "zh": "注意力浏览器"},
    "nav.masks": {"en": "Masks", "zh": "掩码"},
    "model.label": {"en": "Model", "zh": "模型"},
    "model.encoder": {"en": "Encoder-only (BERT-style)", "zh": "仅编码器（BERT 式）"},
    "model.decoder": {"en": "Decoder-only (GPT-style)", "zh": "仅解码器（GPT 式）"},
    "model.encoder-decoder": {
        "en": "Encoder-decoder (original Transformer)",
        "zh": "编码器-解码器（原始 Transformer）",
    },
    "model.minilm": {"en": "MiniLM-L6 (pretrained, English)", "zh": "MiniLM-L6（预训练，英文）"},
    "model.missing": {
        "en": "{name} — not installed",
        "zh": "{name}——未安装",
    },
    "prompt.english_only": {
        "en": "MiniLM was pretrained on English. Its WordPiece vocabulary knows only some Chinese characters: each "
        "becomes its own token, and {unk} of these {n} tokens are [UNK] (unknown). Its attention on Chinese text "
        "shows little that it learned.",
        "zh": "MiniLM 是在英文上预训练的。它的 WordPiece 词表只认识一部分汉字：每个汉字单独成为一个词元，这 {n} 个词元中有 {unk} 个是 "
        "[UNK]（未知）。它对中文文本的注意力几乎体现不出它学到的东西。",
    },
    "weights.label": {"en": "Weights", "zh": "权重"},
    "weights.trained": {"en": "trained", "zh": "已训练"},
    "weights.random": {"en": "random init", "zh": "随机初始化"},
    "weights.help": {
        "en": "Trained: the shipped model. Random init: the same architecture before any training — "
        "compare to see which patterns are learned.",
        "zh": "已训练：随附的模型。随机初始化：训练前的同一架构——对比一下，看看哪些模式是学出来的。",
    },
    "present.label": {"en": "Presentation mode", "zh": "演示模式"},
    "present.help": {"en": "Larger text and figures for a projector.", "zh": "更大的文字和图，适合投影。"},
    "tables.label": {"en": "Numbers as tables", "zh": "用表格显示数值"},
    "tables.help": {
        "en": "Every attention heatmap also as a table of its exact weights, readable by a screen reader.",
        "zh": "每张注意力热力图同时以表格列出精确权重，屏幕阅读器可以朗读。",
    },
    "tables.row": {"en": "query ↓ key →", "zh": "查询 ↓ 键 →"},
    "tables.cut": {
        "en": "The table shows the first {n} rows and columns of {rows} × {cols}.",
        "zh": "表格只显示 {rows} × {cols} 中的前 {n} 行和前 {n} 列。",
    },
    "prompt.label": {"en": "Prompt", "zh": "输入文本"},
    "prompt.placeholder": {"en": "Type a sentence…", "zh": "输入一句话……"},
    "prompt.examples": {"en": "Examples", "zh": "示例"},
    "prompt.empty": {
        "en": "Type a prompt above (or pick an example) to see the model attend to it.",
        "zh": "请在上方输入文本（或选择一个示例），即可看到模型如何关注它。",
    },
    "prompt.truncated": {
        "en": "The prompt has {n} tokens; this model reads at most {max_len} (special tokens included), "
        "so only the beginning is shown.",
        "zh": "输入有 {n} 个词元；该模型最多读取 {max_len} 个（含特殊词元），因此只显示开头部分。",
    },
    "prompt.numbers_hint": {
        "en": "This model was trained to translate numbers (digits like 1234, or Chinese numerals like "
        "一千二百三十四) into English words; other text gives it nothing it has learned to translate.",
        "zh": "该模型被训练为把数字（如 1234，或一千二百三十四这样的中文数字）翻译成英文单词；其他文本它没有学过如何翻译。",
    },
    "weights.error": {"en": "This model could not be loaded. {error}", "zh": "无法加载该模型。{error}"},
    "url.ignored": {
        "en": "Some link parameters were not understood and were ignored (defaults used): {params}",
        "zh": "链接中的部分参数无法识别，已忽略（使用默认值）：{params}",
    },
    "url.out_of_range": {
        "en": "{name} {value} does not exist in this model ({n} in all); showing the first.",
        "zh": "该模型没有第 {value} 个 {name}（共 {n} 个）；显示第一个。",
    },
    # ---------------------------------------------------------------- home
    "home.intro": {
        "en": "Attention Lab runs small Transformers live in your browser session: type a prompt and "
        "see, layer by layer and head by head, where each token looks. The three model families — "
        "encoder-only, decoder-only and encoder-decoder — were trained by this project on a small "
        "bilingual toy language it generates, so the patterns you see were learned, not drawn. "
        "Beside them, MiniLM-L6 is a real pretrained English encoder (all-MiniLM-L6-v2). "
        "Every number on screen is computed from the model as you type.",
        "zh": "注意力实验室在你的浏览器会话中实时运行小型 Transformer：输入一段文本，逐层、逐头查看每个词元关注哪里。"
        "三类模型——仅编码器、仅解码器、编码器-解码器——由本项目在其自行生成的小型双语玩具语言上训练，"
        "所以你看到的模式是学出来的，不是画出来的。屏幕上的每个数字都在你输入时由模型实时计算。旁边还有 MiniLM-L6：一个真实的预训练英文编码器（all-MiniLM-L6-v2）。",
    },
    "home.explorer": {
        "en": "Attention heatmaps per layer and head, all heads at once, and BertViz-style lines.",
        "zh": "逐层、逐头的注意力热图，所有头的总览，以及 BertViz 风格的连线图。",
    },
    "home.masks": {
        "en": "Causal, bidirectional, prefix-LM and padding masks beside the attention they produce.",
        "zh": "因果、双向、前缀语言模型与填充掩码，及其产生的注意力。",
    },
    "home.models": {
        "en": "Models: `python -m models.train` retrains them (about 11 minutes on two CPU cores).",
        "zh": "模型：运行 `python -m models.train` 可重新训练（两个 CPU 核心上约 11 分钟）。",
    },
    # ---------------------------------------------------------------- controls
    "ctl.layer": {"en": "Layer", "zh": "层"},
    "ctl.head": {"en": "Head", "zh": "头"},
    "ctl.attn": {"en": "Attention", "zh": "注意力"},
    "attn.encoder.self": {"en": "encoder self-attention", "zh": "编码器自注意力"},
    "attn.decoder.self": {"en": "decoder masked self-attention", "zh": "解码器掩码自注意力"},
    "attn.decoder.cross": {"en": "cross-attention (target × source)", "zh": "交叉注意力（目标 × 源）"},
    "ctl.view": {"en": "View", "zh": "视图"},
    "view.heatmap": {"en": "one head", "zh": "单个头"},
    "view.grid": {"en": "all heads", "zh": "所有头"},
    "view.lines": {"en": "lines (head view)", "zh": "连线（头视图）"},
    "ctl.autoscale": {"en": "Auto-scale colours", "zh": "自动色阶"},
    "ctl.autoscale_help": {
        "en": "Off: colours span 0 to 1, comparable across heads. On: colours span this figure's own range.",
        "zh": "关闭：颜色范围固定为 0 到 1，便于在各头之间比较。打开：颜色范围按本图数据自动调整。",
    },
    "ctl.focus": {"en": "Show the lines of", "zh": "显示连线"},
    "ctl.focus_all": {"en": "all tokens", "zh": "所有词元"},
    "ctl.agg": {"en": "Show", "zh": "显示"},
    "agg.head": {"en": "this head", "zh": "此头"},
    "agg.mean": {"en": "mean over heads", "zh": "各头平均"},
    "agg.rollout": {"en": "attention rollout", "zh": "注意力展开（rollout）"},
    # ---------------------------------------------------------------- explorer
    "explorer.target": {"en": "Target (decoder input)", "zh": "目标（解码器输入）"},
    "explorer.target_help": {
        "en": "Pre-filled with the model's own greedy translation; edit it to see how the decoder attends "
        "to a target you choose (teacher forcing).",
        "zh": "预先填入模型自己的贪心翻译；可修改，以查看解码器如何关注你给定的目标（教师强制）。",
    },
    "explorer.tokens": {
        "en": "How the model reads the prompt: {n} tokens (byte-level BPE; ␣ marks a space).",
        "zh": "模型读取输入的方式：共 {n} 个词元（字节级 BPE；␣ 表示空格）。",
    },
    "explorer.sinks_more": {"en": " (and {n} more: see the tables below)", "zh": "（另有 {n} 个：见下方的表）"},
    "explorer.tokens_wordpiece": {
        "en": "How the model reads the prompt: {n} tokens (WordPiece, lower-cased; ## marks a piece that continues a word).",
        "zh": "模型读取输入的方式：共 {n} 个词元（WordPiece，转为小写；## 表示接在前一片段后的词内片段）。",
    },
    "explorer.grid_caption": {
        "en": "Every layer (rows) and head (columns) at once, like BertViz's model view; the outlined "
        "cell is the selected layer and head.",
        "zh": "一次展示所有层（行）和头（列），类似 BertViz 的模型视图；带框的格子是当前选中的层和头。",
    },
    "explorer.lines_caption": {
        "en": "Each line joins a query token (left) to a key token (right); its opacity is the attention "
        "weight, its colour the head. Click a head in the legend to hide it.",
        "zh": "每条线连接左侧的查询词元与右侧的键词元；透明度表示注意力权重，颜色表示头。点击图例中的头可隐藏它。",
    },
    "explorer.head_title": {"en": "Layer {layer}, head {head}", "zh": "第 {layer} 层，第 {head} 个头"},
    "explorer.mean_title": {"en": "Layer {layer}, mean over heads", "zh": "第 {layer} 层，各头平均"},
    "explorer.rollout_title": {"en": "Attention rollout over all layers", "zh": "所有层的注意力展开"},
    "explorer.rollout_caption": {
        "en": "Rollout (Abnar & Zuidema 2020) multiplies the head-averaged attention of each layer, with "
        "the residual connection counted as ½·I + ½·A. It estimates how much each input token flows into "
        "each position; it is an approximation, not something the model computes.",
        "zh": "注意力展开（Abnar 与 Zuidema，2020）把每层各头平均后的注意力相乘，并把残差连接记为 ½·I + ½·A。"
        "它估计每个输入词元流向每个位置的多少；这是一种近似，并非模型实际计算的量。",
    },
    "explorer.sinks": {
        "en": "Attention sinks: {heads}. These heads put most of their weight on one first, special or "
        "punctuation token. Softmax must give every row a total of 1, so a head that finds nothing "
        "useful parks its weight on a token that is always there (Xiao et al. 2023).",
        "zh": "注意力汇聚（attention sink）：{heads}。这些头把大部分权重放在第一个、特殊或标点词元上。"
        "softmax 要求每行之和为 1，所以找不到有用信息的头会把权重“停放”在总是存在的词元上（Xiao 等，2023）。",
    },
    "explorer.explain": {
        "en": "Each row is one **query** token; it shows how that token's attention is spread over the "
        "**key** tokens it may see. The weights are softmax(q·k / √d_k), so every row sums to 1; a masked "
        "key gets exactly 0. Note that q·k is a *dot product*, not a cosine similarity: it grows with the "
        "lengths of q and k, which is why it is divided by √d_k.",
        "zh": "每一行是一个**查询**词元，显示它的注意力如何分布在它能看到的**键**词元上。权重为 softmax(q·k / √d_k)，"
        "因此每行之和为 1；被掩码的键权重恰好为 0。注意 q·k 是*点积*，不是余弦相似度：它随 q 和 k 的长度增长，"
        "这正是要除以 √d_k 的原因。",
    },
    "explorer.source": {
        "en": "Scaled dot-product attention (Vaswani et al. 2017, eq. 1); M is the mask (0 or −∞). This "
        "model: d_k = {d_k}, scale 1/√d_k = {scale}.",
        "zh": "缩放点积注意力（Vaswani 等，2017，式 1）；M 为掩码（0 或 −∞）。本模型：d_k = {d_k}，缩放 1/√d_k = {scale}。",
    },
    "download.json": {"en": "Download shown attention (JSON)", "zh": "下载所示注意力（JSON）"},
    "download.csv": {"en": "Download shown attention (CSV)", "zh": "下载所示注意力（CSV）"},
    # ---------------------------------------------------------------- masks
    "masks.intro": {
        "en": "A mask decides which keys each query may attend to: blocked scores are set to −∞ before the "
        "softmax, so they get weight exactly 0. Below, the **same weights** run under each mask; the "
        "difference you see is the mask alone.",
        "zh": "掩码决定每个查询可以关注哪些键：被屏蔽的分数在 softmax 前被设为 −∞，因此权重恰好为 0。"
        "下面用**同一组权重**分别在各种掩码下运行；你看到的差别只来自掩码。",
    },
    "masks.encdec_note": {
        "en": "For the encoder-decoder, the masks are applied to its encoder self-attention.",
        "zh": "对于编码器-解码器，掩码作用于其编码器自注意力。",
    },
    "masks.prefix_len": {"en": "Prefix length (prefix-LM)", "zh": "前缀长度（前缀语言模型）"},
    "masks.prefix_help": {
        "en": "Tokens 0…n−1 see each other both ways; later tokens see only what comes before.",
        "zh": "第 0…n−1 个词元彼此双向可见；之后的词元只能看到前面的内容。",
    },
    "masks.pad": {"en": "Padding tokens appended", "zh": "追加的填充词元数"},
    "masks.pad_help": {
        "en": "As when this prompt shares a batch with a longer one.",
        "zh": "相当于该输入与更长的输入放在同一批次中。",
    },
    "mask.causal": {"en": "Causal", "zh": "因果掩码"},
    "mask.bidirectional": {"en": "Bidirectional", "zh": "双向（无掩码）"},
    "mask.prefix": {"en": "Prefix-LM", "zh": "前缀语言模型"},
    "mask.padding": {"en": "Padding", "zh": "填充掩码"},
    "mask.causal.explain": {
        "en": "Query i sees keys 0…i only. GPT-style decoders are trained to predict token i+1 from "
        "tokens up to i, so they must not see the answer; this also lets them cache past keys and values "
        "when generating.",
        "zh": "查询 i 只能看到键 0…i。GPT 式解码器被训练为根据前 i 个词元预测第 i+1 个，因此不能看到答案；"
        "这也使它们在生成时可以缓存过去的键和值。",
    },
    "mask.bidirectional.explain": {
        "en": "Every query sees every key. BERT-style encoders build a representation of the whole input, "
        "so a word can use context on both sides (the masked-word task keeps this from being cheating).",
        "zh": "每个查询都能看到所有键。BERT 式编码器为整个输入构建表示，因此一个词可以利用两侧的上下文"
        "（掩码词预测任务使这不算作弊）。",
    },
    "mask.prefix.explain": {
        "en": "Bidirectional inside the prefix, causal after it (UniLM, T5's prefix-LM): the prompt is read "
        "as a whole, the continuation is generated left to right.",
        "zh": "前缀内部双向可见，前缀之后为因果（UniLM、T5 的前缀语言模型）：提示整体读取，续写从左到右生成。",
    },
    "mask.padding.explain": {
        "en": "Inputs of different lengths are padded to one length in a batch; [PAD] keys are masked so no "
        "real token attends to them. The padded rows still compute something, but their outputs are ignored.",
        "zh": "批次中不同长度的输入被填充到同一长度；[PAD] 键被屏蔽，真实词元不会关注它们。填充位置的行仍会计算，但输出被忽略。",
    },
    "masks.attention_title": {
        "en": "Attention it produces (layer {layer}, head {head})",
        "zh": "由此产生的注意力（第 {layer} 层，第 {head} 个头）",
    },
    "masks.perturb_title": {"en": "Change one token", "zh": "改变一个词元"},
    "masks.perturb_intro": {
        "en": "Pick a position and a replacement word. The bars show how much each position's final hidden "
        "state changes. Under the causal mask nothing before the changed position can change; under the "
        "bidirectional mask every position can.",
        "zh": "选择一个位置和替换词。柱形显示每个位置最终隐藏状态的变化量。在因果掩码下，被改位置之前的任何位置都不会变化；"
        "在双向掩码下，所有位置都可能变化。",
    },
    "masks.position": {"en": "Position to change", "zh": "要改变的位置"},
    "masks.word": {"en": "Replacement word", "zh": "替换词"},
    "masks.word_empty": {"en": "Type a replacement word.", "zh": "请输入替换词。"},
    "masks.replaced": {
        "en": "Position {pos}: {old} → {new} (its first token).",
        "zh": "位置 {pos}：{old} → {new}（取其第一个词元）。",
    },
    "masks.changed_count": {
        "en": "Positions before the change whose output moved: {before} of {n}.",
        "zh": "被改位置之前、输出发生变化的位置：{before} / {n}。",
    },
    # ---------------------------------------------------------------- figure labels
    "lbl.query": {"en": "query", "zh": "查询"},
    "lbl.key": {"en": "key", "zh": "键"},
    "lbl.weight": {"en": "weight", "zh": "权重"},
    "lbl.layer": {"en": "layer", "zh": "层"},
    "lbl.head": {"en": "head", "zh": "头"},
    "lbl.allowed": {"en": "may attend", "zh": "可关注"},
    "lbl.blocked": {"en": "masked", "zh": "被屏蔽"},
    "lbl.position": {"en": "position", "zh": "位置"},
    "lbl.change": {"en": "max |Δ hidden|", "zh": "最大 |Δ 隐藏状态|"},
    "lbl.unchanged": {"en": "unchanged", "zh": "未变化"},
    "lbl.changed": {"en": "changed", "zh": "已变化"},
}

for _table in (
    rank.STRINGS,
    positional.STRINGS,
    softmax.STRINGS,
    generate.STRINGS,
    translate.STRINGS,
    mlm.STRINGS,
    similarity.STRINGS,
    lab.STRINGS,
    guides.STRINGS,
    scaling.STRINGS,
):
    assert not set(_table) & set(STRINGS), set(_table) & set(STRINGS)  # one meaning per key
    STRINGS.update(_table)

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:])")


def md(text: object) -> str:
    """Escape user-derived text for Markdown, so it shows as typed (no links, HTML or math)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def t(key: str, **fields: object) -> str:
    """The string for key in the current language (English if a translation is missing)."""
    return _in(lang(), key).format(**fields)


def _in(code: str, key: str) -> str:
    entry = STRINGS[key]
    return entry.get(code, entry["en"])


def names(prefix: str):
    """A format_func for widget options: option -> t(f"{prefix}.{option}"), in the language of
    this run (the function may be called later, outside the run, e.g. by AppTest)."""
    code = lang()
    return lambda option: _in(code, f"{prefix}.{option}")


def part_names() -> dict[str, str]:
    """Translated names of parameter_counts() components (and "root", the total) for viz.param_treemap."""
    return {key.removeprefix("part."): t(key) for key in STRINGS if key.startswith("part.")}


def viz_labels() -> viz.Labels:
    names = ("query", "key", "weight", "layer", "head", "allowed", "blocked", "position", "change", "unchanged",
             "changed")  # fmt: skip
    return viz.Labels(**{n: t(f"lbl.{n}") for n in names})
