"""Strings of the Explorer's second model (issue 44): the picker, the two columns, the presets (lessons/explorer_compare.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer_compare.a_only": {
        "en": "**Model A only** (**{name}**): the sections below read the left column's model.",
        "zh": "**仅模型 A**（**{name}**）：以下各部分只针对左栏的模型。",
    },
    "explorer_compare.label": {"en": "Compare with…", "zh": "比较对象…"},
    "explorer_compare.help": {
        "en": "A second model on the same prompt: every figure of the Explorer is drawn for both, side by side. "
        "The link carries it as ?compare=.",
        "zh": "用同一段输入运行第二个模型：探索器的每张图都为两个模型并排绘制。链接中以 ?compare= 保存。",
    },
    "explorer_compare.none": {"en": "(no second model)", "zh": "（不对比）"},
    "explorer_compare.not_here": {"en": "{name} (not on this machine)", "zh": "{name}（本机没有）"},
    "explorer_compare.presets": {"en": "Side-by-side presets", "zh": "并排对比预设"},
    "explorer_compare.preset.pythia": {"en": "Pythia: early vs late checkpoint", "zh": "Pythia：早期与后期检查点"},
    "explorer_compare.preset.instruct": {"en": "Base vs instruct", "zh": "基座模型与指令微调模型"},
    "explorer_compare.preset.learned": {"en": "RoPE vs learned positions", "zh": "RoPE 与可学习位置嵌入"},
    "explorer_compare.preset.gqa": {"en": "MHA vs GQA", "zh": "MHA 与 GQA"},
    "explorer_compare.preset.encoder": {"en": "Encoder vs decoder", "zh": "编码器与解码器"},
    "explorer_compare.need_pythia": {
        "en": "No two training checkpoints of one Pythia model are on this machine. Fetch two, for example:",
        "zh": "本机没有同一 Pythia 模型的两个训练检查点。请先下载两个，例如：",
    },
    "explorer_compare.need_instruct": {
        "en": "No base model and its instruct version (X-Base and X) are on this machine. Fetch a pair, for example:",
        "zh": "本机没有成对的基座模型与其指令微调版本（X-Base 与 X）。请先下载一对，例如：",
    },
    "explorer_compare.look.pythia": {
        "en": "Left: an early checkpoint; right: a late one of the same model. On the repeated sentence, look in the "
        "middle layers for a head whose rows in the second copy light up one token after the first copy's match (an "
        "induction stripe): faint or absent early in training, sharp later (Olsson et al. 2022).",
        "zh": "左：早期检查点；右：同一模型的后期检查点。在重复的句子上，看中间几层里是否有一个头：第二遍中的每一行都亮在第一遍对应词元的下一个词元上（归纳条纹）。它在训练早期很弱或不存在，后期则很清晰（Olsson 等，2022）。",
    },
    "explorer_compare.look.instruct": {
        "en": "The same architecture and size; the right one was further trained to follow instructions. Most heads look "
        "almost alike: post-training changes few attention patterns. Look for the heads that do differ.",
        "zh": "架构与规模相同；右边的模型又经过了遵循指令的训练。大多数头看起来几乎一样：后训练只改变了少数注意力模式。找找那些确实不同的头。",
    },
    "explorer_compare.look.learned": {
        "en": "The toy decoder (RoPE) beside the same configuration with learned position embeddings, trained here by the "
        "lab's induction recipe. On the repeated names, look in layer 2 for heads that attend to the token after the "
        "earlier copy (induction), and read the roles below to see which model formed them. RoPE puts the offset between "
        "two tokens into every q·k; with learned positions a head has to learn it from absolute embeddings. (At the lab's "
        "default width, d_model 64, learned positions formed no induction head in 1,000 steps where RoPE did; at this "
        "decoder's width, 128, see for yourself.) The two were not trained alike: the shipped decoder for 3,300 steps, "
        "the variant for the lab's 1,000. To see what the shorter training alone changes, compare with lab:rope (this "
        "decoder's configuration, trained here by the same recipe).",
        "zh": "玩具解码器（RoPE）与同一配置但使用可学习位置嵌入的变体并排；后者由架构实验室的归纳配方在本机训练。在重复出现的名字上，看第 2 层"
        "有没有关注前一次出现之后那个词元的头（归纳头），并读下面的角色图，看哪个模型形成了它们。RoPE 把两个词元之间的偏移放进每一个 q·k；"
        "使用可学习位置嵌入时，注意力头必须从绝对位置嵌入中自己学会偏移。（在实验室的默认宽度 d_model 64 下，可学习位置嵌入训练 1,000 步"
        "没有形成归纳头，而 RoPE 形成了；在这个解码器的宽度 128 下，请自己看。）两者的训练并不相同：随应用提供的解码器训练了 3,300 步，"
        "变体只训练了实验室的 1,000 步。想看训练较短本身带来的差别，请与 lab:rope 比较（该解码器的同一配置，在本机以同一配方训练）。",
    },
    "explorer_compare.look.gqa": {
        "en": "The right one shares each key/value head between two query heads (grouped-query attention: 2 key/value "
        "heads for 4 query heads). Heads 1–2 and 3–4 read the same keys, so their patterns differ only through their "
        "queries. As with RoPE vs learned positions, the shipped decoder trained longer than the variant: lab:rope is the "
        "like-for-like partner.",
        "zh": "右边的模型让两个查询头共享一个键/值头（分组查询注意力：4 个查询头对应 2 个键/值头）。头 1–2、头 3–4 读取相同的键，因此它们的模式只因查询不同而不同。与 RoPE 对比可学习位置嵌入一样，随应用提供的解码器比变体训练得更久：lab:rope 才是同等条件下的对照。",
    },
    "explorer_compare.look.encoder": {
        "en": "The same sentence through the bidirectional encoder (left) and the causal decoder (right): the encoder's "
        "rows spread over the whole sentence; the decoder's upper triangle is empty, each token sees only those before "
        "it.",
        "zh": "同一个句子分别经过双向编码器（左）和因果解码器（右）：编码器的每一行分布在整个句子上；解码器的上三角为空，每个词元只能看到它之前的词元。",
    },
    "explorer_compare.lab.rope": {
        "en": "lab:rope (toy decoder, retrained here)",
        "zh": "lab:rope（玩具解码器，在本机重新训练）",
    },
    "explorer_compare.lab.learned": {"en": "lab:learned (learned positions)", "zh": "lab:learned（可学习位置嵌入）"},
    "explorer_compare.lab.nope": {"en": "lab:nope (no positional encoding)", "zh": "lab:nope（无位置编码）"},
    "explorer_compare.lab.gqa": {"en": "lab:gqa (2 key/value heads)", "zh": "lab:gqa（2 个键/值头）"},
    "explorer_compare.lab.mqa": {"en": "lab:mqa (1 key/value head)", "zh": "lab:mqa（1 个键/值头）"},
    "explorer_compare.hybrid_a": {
        "en": "{name} is not drawn beside this model: its layers mix softmax and linear attention, and the Explorer "
        "draws them on a page of their own. Pick another model A to compare.",
        "zh": "{name} 不会与此模型并排绘制：此模型的层混合了 softmax 注意力与线性注意力，探索器为它单独绘制。请换一个模型 A 再对比。",
    },
    "explorer_compare.hybrid_b": {
        "en": "This model mixes softmax and linear-attention layers: only one head of the chosen layer is drawn for it.",
        "zh": "此模型混合了 softmax 层与线性注意力层：这里只为它绘制所选层的一个头。",
    },
    "explorer_compare.lab_unknown": {
        "en": "{name} is not a lab variant. The lab variants are: {known}.",
        "zh": "{name} 不是实验室变体。可用的实验室变体：{known}。",
    },
    "explorer_compare.missing": {
        "en": "{name} is not on this machine: model A is shown alone. Put its folder in a folder of `ATTENTION_LAB_MODELS`, or "
        "pick a model from “Compare with…”.",
        "zh": "本机没有 {name}：只显示模型 A。请把它的文件夹放入 `ATTENTION_LAB_MODELS` 所列的文件夹，或在“比较对象…”中选择一个模型。",
    },
    "explorer_compare.missing_hub": {
        "en": "{name} is not on this machine: model A is shown alone. Fetch it with:",
        "zh": "本机没有 {name}：只显示模型 A。可用以下命令下载：",
    },
    "explorer_compare.sum_too_large": {
        "en": "{name} is not loaded: model A ({a} parameters) and {name} ({b}) together have {both}, more than `{env}` "
        "({limit}), which bounds both models of a comparison together. Model A is shown alone.",
        "zh": "未加载 {name}：模型 A（{a} 参数）与 {name}（{b}）合计 {both}，超过 `{env}`（{limit}）；对比时两个模型合计受此上限约束。只显示模型 A。",
    },
    "explorer_compare.too_large": {
        "en": "{name} ({b} parameters) is not loaded beside model A ({a}, already in memory): {reason}. Model A is "
        "shown alone.",
        "zh": "未在模型 A（{a}，已在内存中）旁加载 {name}（{b} 参数）：{reason}。只显示模型 A。",
    },
    "explorer_compare.unusable": {
        "en": "{name} cannot be loaded: {error}. Model A is shown alone.",
        "zh": "无法加载 {name}：{error}。只显示模型 A。",
    },
    "explorer_compare.load_failed": {
        "en": "{name} failed to load: {error}. Model A is shown alone.",
        "zh": "{name} 加载失败：{error}。只显示模型 A。",
    },
    "explorer_compare.lab_loading": {
        "en": "Loading {name} from the lab's cache…",
        "zh": "正在从实验室缓存加载 {name}……",
    },
    "explorer_compare.lab_corrupt": {
        "en": "The trained weights of {name} ({file}) were damaged and have been removed: train it again.",
        "zh": "{name} 的训练权重（{file}）已损坏并已删除：请重新训练。",
    },
    "explorer_compare.lab_training": {
        "en": "Training {name}: step {step} of {steps}…",
        "zh": "正在训练 {name}：第 {step} / {steps} 步……",
    },
    "explorer_compare.lab_failed": {"en": "Training {name} failed: {error}", "zh": "训练 {name} 失败：{error}"},
    "explorer_compare.lab_untrained": {
        "en": "{name} is not trained yet: model A is shown alone. It is the toy decoder's configuration with one "
        "change, trained by the Architecture lab's induction recipe ({steps} steps, a minute or two, in the background).",
        "zh": "{name} 尚未训练：只显示模型 A。它是玩具解码器的配置只改一处，由架构实验室的归纳配方训练（{steps} 步，后台运行一两分钟）。",
    },
    "explorer_compare.lab_train": {"en": "Train {name} here", "zh": "在此训练 {name}"},
    "explorer_compare.lab_busy": {
        "en": "Another variant is training (one at a time on this server): the button is free when it ends.",
        "zh": "另一个变体正在训练（本服务器一次只训练一个）：它结束后即可点击。",
    },
    "explorer_compare.lab_command": {
        "en": "Or train it from a terminal (it goes into the same cache):",
        "zh": "也可以在终端中训练（结果写入同一个缓存）：",
    },
    "explorer_compare.same_depth": {"en": "Same depth", "zh": "相同深度"},
    "explorer_compare.same_depth_help": {
        "en": "The right model's layer follows the left's at the same relative depth (round(layer × (L_B − 1) / "
        "(L_A − 1))), and its head is the left's, or its last.",
        "zh": "右侧模型的层跟随左侧，取相同的相对深度（round(层 × (L_B − 1) / (L_A − 1))）；头与左侧相同，若没有该头则取最后一个。",
    },
    "explorer_compare.other_kind": {
        "en": "This model has no {missing}: its {kind} is shown.",
        "zh": "此模型没有{missing}：显示它的{kind}。",
    },
}
