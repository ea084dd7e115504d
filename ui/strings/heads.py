"""Strings of the heads page: a field guide to what each attention head does, and one head's query/key map."""

STRINGS: dict[str, dict[str, str]] = {
    "heads.intro": {
        "en": "A heatmap shows where one head looks on one prompt. This page asks what job each head does: it "
        "runs the model on sequences of random tokens repeated twice, where each known pattern is easy to "
        "measure, scores every head on five patterns from the literature, and names each head by its clearest one.",
        "zh": "热图只显示一个头在一段输入上看向哪里。本页要问的是：每个头在做什么工作？它让模型读入重复两遍的随机词元序列"
        "（在这样的输入上，每种已知模式都容易测量），用文献中的五种模式给每个头打分，并按最明显的那一种给每个头命名。",
    },
    "heads.computing": {"en": "Scoring every head of {name} …", "zh": "正在给 {name} 的每个头打分……"},
    "heads.guide_title": {"en": "Field guide: every head's role", "zh": "图鉴：每个头的角色"},
    "heads.grid_title": {"en": "Role of each head", "zh": "每个头的角色"},
    "heads.none": {"en": "no clear role", "zh": "无明显角色"},
    "heads.role.previous_token": {"en": "previous token", "zh": "前一个词元"},
    "heads.role.induction": {"en": "induction", "zh": "归纳"},
    "heads.role.duplicate_token": {"en": "duplicate token", "zh": "重复词元"},
    "heads.role.first_token": {"en": "first token", "zh": "首词元"},
    "heads.role.diffuse": {"en": "diffuse", "zh": "弥散"},
    "heads.grid_caption": {
        "en": "Measured live on {n} sequences of {span} random tokens, each repeated twice and wrapped in this model's "
        "own special tokens ({template}), seed {seed}; {which}. A head gets the role whose score passes its "
        "threshold by the widest margin; grey: none passes. Hover a cell for all five scores.",
        "zh": "现场测量：{n} 条由 {span} 个随机词元组成、各重复两遍的序列，套上本模型自己的特殊词元（{template}），随机种子 {seed}；"
        "{which}。每个头取“分数超过阈值最多”的那个角色；灰色表示没有分数超过阈值。把鼠标悬停在格子上可看到全部五个分数。",
    },
    "heads.key.decoder": {"en": "the decoder's self-attention", "zh": "解码器的自注意力"},
    "heads.key.encoder": {"en": "the encoder's self-attention", "zh": "编码器的自注意力"},
    "heads.key.encoder-decoder": {
        "en": "the encoder's self-attention (it reads the given tokens; the decoder's reads its own output)",
        "zh": "编码器的自注意力（它读取给定的词元；解码器的自注意力读取的是模型自己的输出）",
    },
    "heads.no_specials": {"en": "none", "zh": "无"},
    "heads.table_title": {"en": "Every score", "zh": "全部分数"},
    "heads.col.head": {"en": "head", "zh": "头"},
    "heads.col.role": {"en": "role", "zh": "角色"},
    "heads.thresholds_title": {"en": "Thresholds, and why", "zh": "阈值及其理由"},
    "heads.threshold_line": {"en": "**{role}** ≥ {value}: {reason}.", "zh": "**{role}** ≥ {value}：{reason}。"},
    "heads.reason.previous_token": {
        "en": "40% of each row on the token just before it: 16x a uniform row's share in rows of 40 keys",
        "zh": "每行 40% 的权重落在紧挨着的前一个词元上：在有 40 个键的行里，这是均匀分配时的 16 倍",
    },
    "heads.reason.induction": {
        "en": "the token after the earlier copy gets ~10x the weight a uniform row would give it",
        "zh": "较早那次出现之后的词元得到的权重约为均匀分配时的 10 倍",
    },
    "heads.reason.duplicate_token": {
        "en": "the earlier copy of the same token gets ~10x the weight a uniform row would give it",
        "zh": "同一词元较早的那次出现得到的权重约为均匀分配时的 10 倍",
    },
    "heads.reason.first_token": {
        "en": "most of the weight parked on position 0; many heads lean there a little, so the bar is higher",
        "zh": "大部分权重停放在位置 0；许多头都会稍微偏向那里，所以门槛更高",
    },
    "heads.reason.diffuse": {
        "en": "the rows are nearly as spread out as a uniform row (normalised entropy near 1)",
        "zh": "各行几乎和均匀分布一样分散（归一化熵接近 1）",
    },
    "heads.roles_title": {"en": "What each role means", "zh": "每种角色的含义"},
    "heads.roles_explain": {
        "en": "- **Previous token**: row i's weight on key i − 1, averaged over rows. Such heads copy “what came "
        "just before me” into each position; Voita et al. (2019) call them positional heads, and Clark et al. "
        "(2019) found BERT heads that look at the previous or next token.\n"
        "- **Induction**: in the second copy, the weight of token R[j] on R[j+1] of the first copy: “find where I "
        "occurred before and look at what came next”, so that it can be predicted again. Olsson et al. (2022) "
        "tie these heads to in-context learning; they build on a previous-token head in an earlier layer.\n"
        "- **Duplicate token**: in the second copy, the weight of R[j] on its own earlier copy R[j] (Wang et al. "
        "2022 name such heads in GPT-2's indirect-object circuit).\n"
        "- **First token**: the weight on position 0 ([BOS] or [CLS]), averaged over rows i ≥ 1. A head with "
        "nothing useful to read often parks its weight there: an attention sink (Xiao et al. 2023). That this weight "
        "does little is Kobayashi et al. (2020)'s finding: the vectors f(x) that [CLS], [SEP] and punctuation add "
        "(a key's value after the head's output projection) are small, so a large weight on them moves little. Clark et al. (2019) read attention to [SEP] as a "
        "no-op.\n"
        "- **Diffuse**: the rows' entropy divided by log(number of keys the row may see): 1 for a uniform row, "
        "0 for one key. A broad head averages its context (Clark et al. 2019).\n\n"
        "Random tokens carry no meaning: a head that still looks one back, or at an earlier copy, does so by "
        "position or by matching tokens. On real text a head may do other jobs too; these five are the ones "
        "that can be measured without labelled data.",
        "zh": "- **前一个词元**：第 i 行放在第 i − 1 个键上的权重，对各行取平均。这类头把“我前面是什么”复制到每个位置；"
        "Voita 等（2019）称之为位置头，Clark 等（2019）在 BERT 中发现了看向前一个或后一个词元的头。\n"
        "- **归纳**：在第二遍中，词元 R[j] 放在第一遍的 R[j+1] 上的权重：“找到我以前出现的位置，看它后面是什么”，"
        "以便再次预测出来。Olsson 等（2022）把这类头与上下文学习联系起来；它们建立在较早一层的前一个词元头之上。\n"
        "- **重复词元**：在第二遍中，R[j] 放在它自己较早一次出现 R[j] 上的权重（Wang 等 2022 在 GPT-2 的间接宾语电路中"
        "命名了这类头）。\n"
        "- **首词元**：放在位置 0（[BOS] 或 [CLS]）上的权重，对第 i ≥ 1 行取平均。一个没有有用信息可读的头常把权重停放在那里，"
        "形成注意力汇聚点（Xiao 等 2023）。这些权重几乎不起作用，是 Kobayashi 等（2020）的发现：[CLS]、[SEP] 和标点加入的"
        "向量 f(x)（键的值向量经过该头的输出投影）很短，所以即使权重很大，搬运的信息也很少。Clark 等（2019）则把对 [SEP] 的注意解读为“什么也不做”（no-op）。\n"
        "- **弥散**：各行的熵除以 log(该行可见的键数)：均匀分布为 1，只看一个键为 0。这样的“宽”头对上下文取平均"
        "（Clark 等 2019）。\n\n"
        "随机词元没有意义：如果一个头仍然看向前一个位置或较早的副本，那是依据位置或词元匹配。在真实文本上，"
        "一个头还可能做别的工作；这五种是不需要标注数据就能测量的。",
    },
    "heads.qk_title": {"en": "Query/key map of one head", "zh": "单个头的查询/键分布图"},
    "heads.qk_color": {"en": "Colour by", "zh": "着色依据"},
    "heads.qk_color.kind": {"en": "query / key", "zh": "查询 / 键"},
    "heads.qk_color.position": {"en": "position", "zh": "位置"},
    "heads.qk_plot_title": {
        "en": "Layer {layer}, head {head} ({role}): queries and keys",
        "zh": "第 {layer} 层第 {head} 个头（{role}）：查询与键",
    },
    "heads.prompt": {"en": "prompt", "zh": "输入"},
    "heads.random": {"en": "random tokens", "zh": "随机词元"},
    "heads.qk_caption": {
        "en": "Every query (●) and key (◆) vector of this head: the prompt's (large, outlined) and "
        "those of {n} sequences of random tokens repeated twice (small). Queries are scaled by c = {c} and keys by "
        "1/c, then the keys moved so their mean sits on the queries' mean: c·q · k/c = q·k, and moving every "
        "key by t adds the same c·q·t to every score of a row, so each softmax row is exactly the model's. "
        "PCA to two dimensions keeps {share} of the variance. Method: AttentionViz (Yeh et al. 2023).",
        "zh": "这个头的每个查询（●）和键（◆）向量：输入文本的（大点，带黑边），以及 {n} 条重复两遍的随机词元序列的（小点）。"
        "查询乘以 c = {c}，键乘以 1/c，再把键整体平移，使其均值落在查询的均值上：c·q · k/c = q·k，"
        "而把每个键平移 t 会给同一行的每个分数加上相同的 c·q·t，所以每一行 softmax 都和模型算出的完全一样。"
        "用 PCA 降到二维，保留了 {share} 的方差。方法：AttentionViz（Yeh 等 2023）。",
    },
    "heads.qk_look": {
        "en": "**What to look for.** A query attends most to the keys with the largest q·k, which in this "
        "plane roughly means keys far out in the query's direction. Colour by position: in a head that matches "
        "by position, such as a **previous-token** head, the colour changes smoothly across the cloud (with RoPE "
        "often around a ring), because q·k depends on where the tokens are. A **first-token** head puts one key ([BOS]/[CLS]) apart from the rest, where every query "
        "points. A **diffuse** head packs the keys into a tight ball: no key stands out. An **induction** head "
        "matches by content, so its clusters follow the tokens, not the positions (hover to read them). The "
        "plane keeps only two directions of d_head: nearness here is a hint, the heatmap is the proof.",
        "zh": "**看什么。** 一个查询最关注 q·k 最大的那些键，在这个平面上大致就是沿查询方向伸得最远的键。按位置着色："
        "按位置匹配的头（例如**前一个词元**头）中，颜色在点云上平滑变化（使用 RoPE 时常常绕成一个环），因为 q·k 取决于词元所在的位置。**首词元**头让一个键"
        "（[BOS]/[CLS]）远离其他键，所有查询都指向它。**弥散**头把键挤成紧密的一团：没有哪个键突出。**归纳**头按内容匹配，"
        "所以它的簇跟着词元走，而不是跟着位置走（悬停可读出词元）。这个平面只保留了 d_head 维中的两个方向："
        "这里的远近只是线索，热图才是证据。",
    },
    "heads.this_head": {"en": "This head's scores: {scores}.", "zh": "这个头的分数：{scores}。"},
    # ------------------------------------------------ heads forming during training (lessons/heads_revisions.py)
    "heads.rev_title": {
        "en": "Heads forming during training (real checkpoints)",
        "zh": "训练过程中注意力头的形成（真实检查点）",
    },
    "heads.rev_intro": {
        "en": "The same two scores as the field guide above, for every head of a published model at each training "
        "checkpoint in the cache: when does a previous-token head appear, and when an induction head?",
        "zh": "与上面的分类指南相同的两种分数，对缓存中一个公开模型每个训练检查点的每个注意力头计算："
        "前一词元头何时出现？归纳头又何时出现？",
    },
    "heads.rev_repo": {"en": "Model with several checkpoints", "zh": "有多个检查点的模型"},
    "heads.rev_option": {"en": "{repo} ({n} checkpoints)", "zh": "{repo}（{n} 个检查点）"},
    "heads.rev_computing": {
        "en": "Scoring every head of {n} checkpoints of {repo} (each checkpoint once)…",
        "zh": "正在为 {repo} 的 {n} 个检查点的每个注意力头打分（每个检查点只算一次）…",
    },
    "heads.rev_error": {"en": "These checkpoints could not be read: {error}", "zh": "无法读取这些检查点：{error}"},
    "heads.rev_fig": {
        "en": "Previous-token and induction scores over training",
        "zh": "训练过程中的前一词元分数与归纳分数",
    },
    "heads.rev_x": {"en": "training step + 1 (log scale)", "zh": "训练步数 + 1（对数刻度）"},
    "heads.rev_y": {"en": "score (mean attention)", "zh": "分数（平均注意力）"},
    "heads.rev_best.previous_token": {"en": "previous token (best head)", "zh": "前一词元（最佳头）"},
    "heads.rev_best.induction": {"en": "induction (best head)", "zh": "归纳（最佳头）"},
    "heads.rev_threshold": {"en": "{role} threshold {value}", "zh": "{role}阈值 {value}"},
    "heads.rev_head": {"en": "layer {layer}, head {head}", "zh": "第 {layer} 层第 {head} 个头"},
    "heads.rev_formed_line": {"en": "induction ≥ {threshold}", "zh": "归纳 ≥ {threshold}"},
    "heads.rev_formed": {
        "en": "The induction score first passes {threshold} at step {step} (layer {layer}, head {head}).",
        "zh": "归纳分数在第 {step} 步首次超过 {threshold}（第 {layer} 层第 {head} 个头）。",
    },
    "heads.rev_not_formed": {
        "en": "No head's induction score passes {threshold} in these checkpoints (the best is {best}, at step {step}).",
        "zh": "在这些检查点中，没有哪个头的归纳分数超过 {threshold}（最高为 {best}，在第 {step} 步）。",
    },
    "heads.rev_duplicates": {
        "en": "Identical weights, so not plotted twice: {pairs}. Some Pythia step branches serve the weights of "
        "another branch: step0, step1 and step2 are one set of weights in every model, the small ones (70m–410m) "
        "included (EleutherAI/pythia issues #83, #198), and many pythia-2.8b steps are the final weights (#195, "
        "#205). Their scores would draw a flat line that never happened in training.",
        "zh": "以下检查点的权重完全相同，因此不重复绘制：{pairs}。Pythia 的部分 stepN 分支提供的是另一个分支的权重"
        "：所有模型（包括 70m–410m 这些小模型）的 step0、step1、step2 是同一组权重（EleutherAI/pythia 议题 #83、#198），"
        "pythia-2.8b 的许多步数则是最终权重（#195、#205）。它们的分数会画出一段训练中并不存在的平线。",
    },
    "heads.rev_same": {"en": "{name} has identical weights to {twin}", "zh": "{name} 与 {twin} 的权重完全相同"},
    "heads.rev_main_last": {
        "en": "{name} is {twin} (the last checkpoint): drawn once.",
        "zh": "{name} 就是 {twin}（最后一个检查点）：只画一次。",
    },
    "heads.rev_unplaced": {
        "en": "Not plotted, its training step is unknown: {names}. Fetch the step revision it equals (Pythia's "
        "main is step143000) to place it.",
        "zh": "未绘制，训练步数未知：{names}。下载与之相同的 stepN 版本（Pythia 的 main 即 step143000）即可确定其位置。",
    },
    "heads.rev_caption": {
        "en": "Each checkpoint scored as the field guide scores heads (models.head_scores, its own seeded random "
        "tokens); thresholds {prev} (previous token) and {ind} (induction); faint lines: every head. Olsson et al. "
        "2022, “In-context Learning and Induction Heads”: induction heads appear in a narrow window early in "
        "training (a phase change), together with a bump in the loss. Pythia (Biderman et al. 2023) publishes "
        "each model's checkpoints as branches step0 … step143000 (main is step143000); pythia-70m, -160m and -410m are quick to score "
        "here. Identical checkpoints are found by the sha256 of their weight files.",
        "zh": "每个检查点都按分类指南的方法打分（models.head_scores，使用它自己的带种子的随机词元）；阈值为 {prev}"
        "（前一词元）和 {ind}（归纳）；浅色线：每个注意力头。Olsson 等，2022，《In-context Learning and Induction "
        "Heads》：归纳头在训练早期一个很窄的窗口中出现（相变），同时损失曲线出现一个小鼓包。Pythia（Biderman 等 2023）"
        "把每个模型的检查点发布为 step0 … step143000 分支（main 即 step143000）；pythia-70m、-160m 和 -410m 在这里打分很快。"
        "权重完全相同的检查点通过其权重文件的 sha256 识别。",
    },
    "heads.rev_none": {
        "en": "To watch heads form in a real model, put two or more of its training checkpoints in the Hugging Face "
        "cache. Pythia publishes every model's checkpoints as branches step0, step1, step2, step4 … step512, "
        "step1000, step2000 … step143000; pythia-70m, pythia-160m or pythia-410m are small enough to score here. "
        "Olsson et al. (2022) found that induction heads appear in a narrow window early in training, so fetch "
        "several early steps and a late one, for example:\n\n{commands}",
        "zh": "要观察真实模型中注意力头的形成，请把它的两个或更多训练检查点放进 Hugging Face 缓存。Pythia 把每个模型的"
        "检查点发布为 step0、step1、step2、step4 … step512、step1000、step2000 … step143000 分支；pythia-70m、"
        "pythia-160m 或 pythia-410m 足够小，可以在这里打分。Olsson 等（2022）发现归纳头在训练早期一个很窄的窗口中出现，"
        "所以请下载几个较早的训练步数和一个较晚的，例如：\n\n{commands}",
    },
}
