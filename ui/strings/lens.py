"""Strings of the logit-lens and knock-out lesson (decoder-only)."""

STRINGS: dict[str, dict[str, str]] = {
    "lens.always_decoder": {
        "en": "This page needs a decoder-only model: it reads every layer through the next-token head. The model "
        "picked in the sidebar has no such head, so the page uses the toy decoder (a GPT-2, Llama or Qwen folder "
        "works too).",
        "zh": "本页需要仅解码器模型：它通过预测下一个词元的输出头读出每一层。侧边栏选中的模型没有这样的输出头，"
        "因此本页使用玩具解码器（GPT-2、Llama 或 Qwen 模型文件夹也可以）。",
    },
    "lens.intro": {
        "en": "Two ways to look inside a decoder while it reads your prompt: decode each layer's residual stream as "
        "if it were the last (the **logit lens**), and switch attention heads off to see what they were doing "
        "(**knock-out**).",
        "zh": "两种在解码器读取你的输入时观察其内部的方法：把每一层的残差流当作最后一层来解码（**logit lens**），"
        "以及关掉注意力头，看它们原本在做什么（**消融**）。",
    },
    "lens.lens_title": {"en": "Logit lens: what each layer would predict", "zh": "Logit lens：每一层会预测什么"},
    "lens.lens_explain": {
        "en": "The logit lens (nostalgebraist 2020, *interpreting GPT: the logit lens*) takes the residual stream "
        "after each block and sends it through the model's **final norm and output head**, the same two steps "
        "that turn the last layer into next-token probabilities. Nothing is trained: it asks what the model "
        "would say if it stopped at that layer.",
        "zh": "Logit lens（nostalgebraist 2020，*interpreting GPT: the logit lens*）把每个模块之后的残差流送进模型的"
        "**最终归一化层和输出头**，也就是把最后一层变成下一个词元概率的那两步。没有任何训练：它问的是，如果模型在这一层"
        "就停下，它会说什么。",
    },
    "lens.window": {"en": "First position shown", "zh": "显示的第一个位置"},
    "lens.table_title": {
        "en": "Top next token per layer, positions {start}–{end}",
        "zh": "每层最可能的下一个词元，位置 {start}–{end}",
    },
    "lens.embedding": {"en": "embedding", "zh": "嵌入"},
    "lens.top_name": {"en": "top next token", "zh": "最可能的下一个词元"},
    "lens.prob_name": {"en": "probability", "zh": "概率"},
    "lens.table_caption": {
        "en": "Column: a position of the prompt (its input token). Row *embedding*: the token embeddings before any "
        "block; row *layer l*: the residual stream after block l. Each cell is the most likely next token read "
        "from that stream through the final norm and the output head; its colour is that token's probability. "
        "The top row is exactly the model's own prediction.",
        "zh": "列：输入中的一个位置（及其输入词元）。*嵌入*行：进入任何模块之前的词元嵌入；*层 l* 行：第 l 个模块之后的残差流。"
        "每个格子是把该残差流经过最终归一化层和输出头后最可能的下一个词元，颜色是它的概率。最上面一行正是模型自己的预测。",
    },
    "lens.by_layer_title": {
        "en": "Probability of the model's final prediction, by layer",
        "zh": "模型最终预测的概率，按层",
    },
    "lens.x_layer": {"en": "layer (0 = embedding)", "zh": "层（0 = 嵌入）"},
    "lens.series_last": {"en": "last position: “{token}”", "zh": "最后一个位置：“{token}”"},
    "lens.series_mean": {"en": "mean over all positions", "zh": "所有位置的平均"},
    "lens.first_layer": {
        "en": "At the last position the model's prediction “{token}” (probability {p}) is the top token from "
        "layer {layer} of {n} on; the embedding row gives it {p0}.",
        "zh": "在最后一个位置，模型的预测“{token}”（概率 {p}）从第 {layer} 层（共 {n} 层）起就是最可能的词元；嵌入行给它的"
        "概率是 {p0}。",
    },
    "lens.caveat": {
        "en": "Read the lower rows with care. The final norm and head were trained only on the last layer's "
        "stream. On GPT-2 the logit lens works fairly well past the early layers (nostalgebraist 2020). Belrose "
        "et al. (2023) motivate the *tuned lens*, a small affine map per layer trained before the head, by the "
        "logit lens's brittleness and bias, worst on other model families (GPT-Neo, BLOOM, OPT). A model whose "
        "head shares its weights with the token embeddings (GPT-2, the toy models) often shows the input token "
        "itself in the embedding row.",
        "zh": "读下面几行时要小心。最终归一化层和输出头只在最后一层的残差流上训练过。在 GPT-2 上，过了最初几层之后，"
        "logit lens 的效果相当不错（nostalgebraist 2020）。Belrose 等（2023）提出 *tuned lens*（在输出头之前为每一层训练一个"
        "小仿射变换），理由是 logit lens 脆弱且有偏差，在其他模型家族（GPT-Neo、BLOOM、OPT）上最为严重。"
        "输出头与词元嵌入共享权重的模型（GPT-2、玩具模型）常在嵌入行里显示输入词元本身。",
    },
    "lens.ko_title": {"en": "Knock out attention heads", "zh": "消融注意力头"},
    "lens.ko_explain": {
        "en": "Pick heads of one layer and switch them off, then compare with the unchanged model. **Zero** sets the "
        "heads' outputs (their slice before W_O) to 0, as in Michel et al. 2019's head pruning. **Uniform** keeps "
        "the heads but replaces each pattern by equal weight on every key it may see, so they still read but "
        "no longer choose where. The rest of the model is untouched.",
        "zh": "选出某一层的若干个头把它们关掉，再与原模型比较。**置零**把这些头的输出（W_O 之前属于它们的那一段）设为 0，"
        "同 Michel 等（2019）的注意力头剪枝。**均匀**保留这些头，但把每个注意力模式换成对所有可见键的相同权重："
        "它们仍在读取，却不再选择读哪里。模型的其余部分保持不变。",
    },
    "lens.ko_layer": {"en": "Layer", "zh": "层"},
    "lens.ko_heads": {"en": "Heads to knock out", "zh": "要消融的头"},
    "lens.ko_mode": {"en": "Knock-out", "zh": "消融方式"},
    "lens.ko_mode.zero": {"en": "zero the output", "zh": "输出置零"},
    "lens.ko_mode.uniform": {"en": "uniform pattern", "zh": "均匀注意力"},
    "lens.ko_none": {"en": "Pick at least one head to knock out.", "zh": "请至少选择一个要消融的头。"},
    "lens.ko_bars_title": {
        "en": "Next token after “{token}”: unchanged vs knocked out",
        "zh": "“{token}”之后的下一个词元：原模型 vs 消融后",
    },
    "lens.ko_knocked_one": {"en": "layer {layer}, head {heads} knocked out", "zh": "第 {layer} 层的头 {heads} 已消融"},
    "lens.ko_unchanged": {"en": "unchanged", "zh": "原模型"},
    "lens.ko_knocked": {"en": "layer {layer}, heads {heads} knocked out", "zh": "第 {layer} 层的头 {heads} 已消融"},
    "lens.loss_before": {"en": "Loss on the prompt, unchanged", "zh": "输入上的损失（原模型）"},
    "lens.loss_after": {"en": "Loss on the prompt, knocked out", "zh": "输入上的损失（消融后）"},
    "lens.loss_help": {
        "en": "Mean next-token cross-entropy over the prompt, in nats: position i is scored on the token at i + 1.",
        "zh": "整段输入上下一个词元交叉熵的平均值（单位 nat）：位置 i 按位置 i + 1 的词元计分。",
    },
    "lens.loss_one_token": {
        "en": "The prompt has one token: nothing inside it to predict, so there is no loss to compare.",
        "zh": "输入只有一个词元：其中没有可预测的内容，因此没有损失可比较。",
    },
    "lens.ko_numbers": {
        "en": "{changed} of {n} positions change their top next token; the last position's distribution moves by "
        "a total variation distance of {tv} (½ Σ |p − p′|: 0 = identical, 1 = disjoint).",
        "zh": "{n} 个位置中有 {changed} 个的最可能下一个词元改变了；最后一个位置的分布变化的总变差距离为 {tv}"
        "（½ Σ |p − p′|：0 = 完全相同，1 = 完全不重叠）。",
    },
    "lens.copy": {
        "en": "**Copying test** (the model's own, not your prompt): on 10 spans of random tokens written twice, "
        "[BOS] R R, the model predicts the next token inside the second copy with accuracy **{base}** unchanged "
        "and **{knocked}** with these heads knocked out. Random tokens can only be predicted by copying from the "
        "first copy, the job of induction heads (Olsson et al. 2022).",
        "zh": "**复制测试**（用模型自己的输入，不是你的提示）：在 10 段重复两次的随机词元 [BOS] R R 上，模型预测第二份中下一个"
        "词元的准确率，原模型为 **{base}**，消融这些头后为 **{knocked}**。随机词元只能靠从第一份复制来预测，这正是归纳头"
        "（Olsson 等，2022）的工作。",
    },
    "lens.induction_hint": {
        "en": "Induction scores of layer {layer}'s heads (mean attention from a token's second copy to what followed "
        "its first; 1 = always): {scores}. Heads that share a job cover for each other: knock out one, then all.",
        "zh": "第 {layer} 层各头的归纳分数（一个词元第二次出现时，对第一次出现之后那个词元的平均注意力；1 = 总是）：{scores}。"
        "分担同一任务的头会互相弥补：先消融一个，再全部消融。",
    },
    "lens.computing_copy": {
        "en": "Running the copying test on {name} (20 short runs)…",
        "zh": "正在用 {name} 运行复制测试（20 次短运行）……",
    },
    "lens.computing_scores": {
        "en": "Measuring {name}'s induction heads on repeated random spans (5 short runs)…",
        "zh": "正在用重复的随机片段测量 {name} 的归纳头（5 次短运行）……",
    },
}
