"""Strings of the "What a head causes" page (activation patching, attribution patching, direct logit attribution).

Chinese terms, as Chinese interpretability courses and write-ups use them: 激活修补 (activation patching), 归因修补
(attribution patching), 直接 logit 归因 (direct logit attribution; "logit" stays in Latin letters, as on the logit-lens
page), 残差流 (residual stream), 因果追踪 (causal tracing), 归纳头 (induction head)."""

STRINGS: dict[str, dict[str, str]] = {
    "patch.intro": {
        "en": "Attention shows where a head **looks**; this page measures what a head **causes**. Run a corrupted "
        "prompt, put one head's output back from the clean run, and see how much of the answer returns "
        "(**activation patching**).",
        "zh": "注意力图显示一个头**看向哪里**；本页测量一个头**造成了什么**。运行被改动过的提示，把某一个头在干净提示上的"
        "输出放回去，看答案恢复了多少（**激活修补**）。",
    },
    "patch.decoder_only": {
        "en": "Activation patching here reads a decoder's next-token logits. **{model}** is not a decoder "
        "(an encoder or encoder-decoder), so the page uses the toy decoder; pick a decoder in the sidebar "
        "(GPT-2, Llama, Qwen, …) to patch it instead.",
        "zh": "本页的激活修补读取解码器对下一个词元的 logit。**{model}** 不是解码器（而是编码器或编码器-解码器），"
        "因此本页使用玩具解码器；在侧边栏选择一个解码器（GPT-2、Llama、Qwen 等）即可修补它。",
    },
    "patch.template": {"en": "Template", "zh": "模板"},
    "patch.template.repeat": {"en": "Repeated span (induction)", "zh": "重复片段（归纳）"},
    "patch.template.names_en": {"en": "Mary and John (IOI)", "zh": "Mary 和 John（IOI）"},
    "patch.template.names_zh": {"en": "小明 and 小红", "zh": "小明和小红"},
    "patch.clean": {"en": "Clean prompt", "zh": "干净提示"},
    "patch.clean_help": {
        "en": "The prompt the model gets right. Type your own: the page proposes a corruption with the same number "
        "of tokens (two names swapped, or the word after a repeated word changed).",
        "zh": "模型答对的提示。也可以输入你自己的：本页会提出一个词元数相同的改动（交换两个名字，或改掉重复词之后的那个词）。",
    },
    "patch.corrupted": {"en": "Corrupted prompt", "zh": "损坏提示"},
    "patch.corrupted_help": {
        "en": "The same prompt with the clue changed, so the model points to the wrong word. Same token count: "
        "position t's activation is moved to position t.",
        "zh": "改动了线索的同一个提示，让模型指向错误的词。词元数必须相同：位置 t 的激活被搬到位置 t。",
    },
    "patch.answer": {"en": "Answer", "zh": "答案"},
    "patch.wrong": {"en": "Wrong word", "zh": "错误词"},
    "patch.word_help": {
        "en": "A word of several tokens uses its first token (the page says which).",
        "zh": "由多个词元组成的词只使用它的第一个词元（页面会注明是哪一个）。",
    },
    "patch.toy_template": {
        "en": "The toy decoder knows only its own small vocabulary, so the template is written in its words.",
        "zh": "玩具解码器只认识自己的小词表，因此模板用它认识的词写成。",
    },
    "patch.no_proposal": {
        "en": "No corruption to propose for this prompt (no two names, no repeated word): type a corrupted prompt "
        "with the same number of tokens.",
        "zh": "无法为这个提示提出改动（没有两个名字，也没有重复的词）：请输入一个词元数相同的损坏提示。",
    },
    "patch.propose": {"en": "Use the proposed corruption", "zh": "使用建议的改动"},
    "patch.err.empty": {"en": "Type a clean and a corrupted prompt to patch.", "zh": "请输入干净提示和损坏提示。"},
    "patch.err.lengths": {
        "en": "The clean prompt has **{n_clean}** tokens and the corrupted one **{n_corrupted}**. Patching moves each "
        "position's activation to the same position, so both need the same number of tokens.",
        "zh": "干净提示有 **{n_clean}** 个词元，损坏提示有 **{n_corrupted}** 个。激活修补把每个位置的激活搬到同一个位置，"
        "所以两者的词元数必须相同。",
    },
    "patch.err.too_long": {
        "en": "The prompt has {n} tokens; this page patches prompts of at most {most} tokens (every head is run at "
        "every position). Shorten it, or pick a template.",
        "zh": "提示有 {n} 个词元；本页最多修补 {most} 个词元的提示（每个头都要在每个位置上运行）。请缩短它，或选择一个模板。",
    },
    "patch.err.no_word": {
        "en": "Type an answer and a wrong word (one word each).",
        "zh": "请输入答案和错误词（各一个词）。",
    },
    "patch.err.same_tokens": {
        "en": "The answer and the wrong word are the same tokens to this model: there is no difference to measure.",
        "zh": "对这个模型来说，答案和错误词是相同的词元：没有差别可以测量。",
    },
    "patch.err.not_decoder": {
        "en": "This model is not a decoder: activation patching here needs next-token logits.",
        "zh": "这个模型不是解码器：本页的激活修补需要下一个词元的 logit。",
    },
    "patch.err.model": {"en": "This model cannot be patched: {detail}", "zh": "这个模型无法修补：{detail}"},
    "patch.agree": {
        "en": "The two prompts **do not disagree** about the answer: logit({a}) − logit({w}) is {clean} on the clean "
        "prompt and {corrupted} on the corrupted one, less than 0.1 apart. No share of a difference that is "
        "not there can be recovered: change the corrupted prompt or the two words.",
        "zh": "两个提示对答案**没有分歧**：logit({a}) − logit({w}) 在干净提示上是 {clean}，在损坏提示上是 {corrupted}，"
        "相差不到 0.1。不存在的差别无法被恢复：请修改损坏提示或两个词。",
    },
    "patch.not_solved": {
        "en": "This model does not do the task: logit({a}) − logit({w}) is {clean} on the clean prompt and {corrupted} "
        "on the corrupted one, where the clean prompt should clearly favour {a}. The map is exact, but it shows "
        "which heads move a difference, not how the task is done. The toy decoder does the repeated span; the "
        "name templates need a real model (the sidebar's **Add a model…**).",
        "zh": "这个模型不会做这个任务：logit({a}) − logit({w}) 在干净提示上是 {clean}，在损坏提示上是 {corrupted}，"
        "而干净提示本应明显偏向 {a}。这张图是精确的，但它显示的是哪些头改变了一个差值，而不是任务是怎样完成的。"
        "玩具解码器会做重复片段；名字模板需要真实模型（侧边栏的**添加模型……**）。",
    },
    "patch.metric": {
        "en": "Metric: logit({a}) − logit({w}) at the last position. Clean **{clean}**, corrupted **{corrupted}**.",
        "zh": "指标：最后一个位置上的 logit({a}) − logit({w})。干净 **{clean}**，损坏 **{corrupted}**。",
    },
    "patch.first_token": {
        "en": "{which} {word} is {n} tokens to this model: the page uses its first token, {token}.",
        "zh": "对这个模型来说，{which} {word} 由 {n} 个词元组成：本页使用它的第一个词元 {token}。",
    },
    "patch.which_answer": {"en": "The answer", "zh": "答案"},
    "patch.which_wrong": {"en": "The wrong word", "zh": "错误词"},
    "patch.shared": {
        "en": "The two words start with the same tokens ({shared}): both prompts get them appended, and the metric "
        "compares the first token where the words differ.",
        "zh": "两个词以相同的词元开头（{shared}）：两个提示末尾都补上这些词元，指标比较两个词第一个不同的词元。",
    },
    "patch.unchanged": {
        "en": "{n} of {total} heads give the same output on both prompts: patching them changes nothing by "
        "construction (their cells are 0), which says nothing about what they do.",
        "zh": "{total} 个头中有 {n} 个在两个提示上输出相同：修补它们按定义不会改变任何东西（格子为 0），"
        "这并不说明它们做了什么。",
    },
    "patch.linear": {
        "en": "Layers {layers} are linear attention (Gated DeltaNet): their cells patch each value head's output.",
        "zh": "第 {layers} 层是线性注意力（Gated DeltaNet）：它们的格子修补的是每个值头的输出。",
    },
    "patch.softcap": {
        "en": "This model soft-caps its logits (Gemma 2): direct attribution is of the logit before the cap.",
        "zh": "这个模型对 logit 做软截断（Gemma 2）：直接 logit 归因针对的是截断之前的 logit。",
    },
    "patch.map_title": {"en": "Recovered share per head (exact)", "zh": "每个头的恢复比例（精确）"},
    "patch.direct_title": {"en": "Direct effect per head (clean prompt)", "zh": "每个头的直接作用（干净提示）"},
    "patch.recovered": {"en": "recovered", "zh": "恢复比例"},
    "patch.patched_metric": {"en": "patched metric", "zh": "修补后的指标"},
    "patch.direct_name": {"en": "direct effect (logits)", "zh": "直接作用（logit）"},
    "patch.note": {"en": "clean {clean} · corrupted {corrupted}", "zh": "干净 {clean} · 损坏 {corrupted}"},
    "patch.layer": {"en": "layer", "zh": "层"},
    "patch.head": {"en": "head", "zh": "头"},
    "patch.position": {"en": "position", "zh": "位置"},
    "patch.map_caption": {
        "en": "Each cell: the corrupted prompt run with that one head's output (its z, before the output projection) "
        "taken from the clean run at every position; the share of the logit difference that returns, "
        "(patched − corrupted) / (clean − corrupted), on a **fixed −1…1 scale**. Red brings the answer back, blue "
        "pushes it away; a share **can be negative or above 1** (the number in the cell is the true one). The "
        "hover gives the raw metric.",
        "zh": "每个格子：运行损坏提示，但把这一个头的输出（它的 z，在输出投影之前）在每个位置上换成干净提示上的值；"
        "logit 差恢复的比例 (修补后 − 损坏) / (干净 − 损坏)，颜色刻度**固定在 −1…1**。红色把答案带回来，蓝色把它推开；"
        "比例**可以是负数，也可以大于 1**（格子里的数字是真实值）。悬停可看原始指标。",
    },
    "patch.direct_caption": {
        "en": "Direct logit attribution (Elhage et al. 2021): what each head's write adds to logit(answer) − "
        "logit(wrong) through the final norm (its scale frozen) and the unembedding, on the clean prompt. Parts: "
        "heads **{heads}**, everything else (embeddings, MLPs, biases) **{rest}**, total **{total}**. This is the "
        "**direct** effect only; the map on the left is the **total** effect, through every later layer. A head "
        "can matter a great deal by feeding a later head while writing nothing towards the answer itself.",
        "zh": "直接 logit 归因（Elhage 等，2021）：在干净提示上，每个头写入的内容经过最终归一化（缩放系数固定）和反嵌入后，"
        "对 logit(答案) − logit(错误词) 的贡献。各部分：所有头 **{heads}**，其余（嵌入、MLP、偏置）**{rest}**，"
        "合计 **{total}**。这只是**直接**作用；左边的图是**总**作用，经过之后的每一层。一个头可以通过喂给后面的头而"
        "非常重要，自己却几乎不直接写向答案。",
    },
    "patch.bright": {
        "en": "A head whose attention looks bright on the Explorer may change nothing here, and a dim one may carry "
        "the answer: attention says where a head reads, not what its write does.",
        "zh": "在注意力浏览器里看起来很亮的头，在这里可能什么也不改变，而一个暗淡的头可能承载着答案："
        "注意力说明头从哪里读，而不是它写入的东西起什么作用。",
    },
    "patch.open_head": {"en": "Open a head on the Explorer", "zh": "在注意力浏览器中打开一个头"},
    "patch.open": {"en": "Open L{layer} H{head} on the Explorer", "zh": "在注意力浏览器中打开 L{layer} H{head}"},
    "patch.head_option": {"en": "L{layer} H{head} ({share})", "zh": "L{layer} H{head}（{share}）"},
    "patch.pos_title": {
        "en": "Where it acts: layer {layer}'s heads by position",
        "zh": "作用在哪里：第 {layer} 层各头按位置",
    },
    "patch.pos_layer": {"en": "Layer", "zh": "层"},
    "patch.pos_toggle": {"en": "Patch each head at each position", "zh": "在每个位置上分别修补每个头"},
    "patch.pos_off": {
        "en": "Off: with this model it is {n} times the patching runs of the map above.",
        "zh": "已关闭：对这个模型，它需要的修补运行次数是上面那张图的 {n} 倍。",
    },
    "patch.pos_caption": {
        "en": "One head patched at one position at a time (the rest of the corrupted run unchanged). The columns "
        "that light up are the positions where that head's output carries the difference.",
        "zh": "每次只在一个位置上修补一个头（损坏运行的其余部分不变）。亮起来的列，就是这个头的输出携带差别的位置。",
    },
    "patch.resid_title": {
        "en": "Residual stream: block input by layer and position",
        "zh": "残差流：各层各位置的模块输入",
    },
    "patch.resid_caption": {
        "en": "Causal tracing (Meng et al. 2022) on the residual stream: block l's input at position t taken from "
        "the clean run. A bright cell says the difference is carried at that position in that layer's input: "
        "nothing before the first position where the prompts differ, then the changed word's column, and in a "
        "deeper model the last column once attention has moved the difference there.",
        "zh": "残差流上的因果追踪（Meng 等，2022）：把第 l 个模块在位置 t 的输入换成干净运行的值。亮的格子表示差别在该层"
        "输入的这个位置上被携带：两个提示第一个不同的位置之前什么都没有，然后是被改动的词所在的列；在更深的模型中，"
        "注意力把差别搬过去之后，最后一列也会亮起来。",
    },
    "patch.est_title": {"en": "Attribution patching vs exact patching", "zh": "归因修补与精确修补对比"},
    "patch.est_x": {"en": "exact recovered share", "zh": "精确恢复比例"},
    "patch.est_y": {"en": "estimated (gradient)", "zh": "估计值（梯度）"},
    "patch.est_line": {"en": "estimate = exact", "zh": "估计 = 精确"},
    "patch.est_flagged": {"en": "heads where they disagree", "zh": "两者不一致的头"},
    "patch.est_others": {"en": "other heads", "zh": "其他头"},
    "patch.est_caption": {
        "en": "Attribution patching (Nanda 2023) estimates every head's effect at once from two forward passes and "
        "one backward: (z_clean − z_corrupted) · ∂metric/∂z. It is a first-order Taylor estimate, so it fails where "
        "the model is far from linear, typically attention that saturates (Kramár et al. 2024, AtP*). Named: the "
        "heads more than {gap} apart. {named}",
        "zh": "归因修补（Nanda 2023）用两次前向和一次反向传播同时估计每个头的作用：(z_干净 − z_损坏) · ∂指标/∂z。"
        "它是一阶泰勒估计，所以在模型远非线性的地方会失效，典型的是注意力饱和的时候（Kramár 等，2024，AtP*）。"
        "图中标出的是两者相差超过 {gap} 的头。{named}",
    },
    "patch.est_none": {"en": "Here every head is within that.", "zh": "这里每个头都在此范围之内。"},
    "patch.est_some": {"en": "Here: {heads}.", "zh": "这里是：{heads}。"},
    "patch.batch_title": {"en": "One prompt is an anecdote: eight pairs", "zh": "一个提示只是个例：八对提示"},
    "patch.batch_toggle": {"en": "Run eight pairs of this template", "zh": "运行这个模板的八对提示"},
    "patch.batch_help": {
        "en": "Eight prompt pairs drawn from the template with a fixed seed: eight more patching runs.",
        "zh": "用固定的随机种子从模板中抽出八对提示：要多做八次激活修补。",
    },
    "patch.batch_computing": {"en": "Patching eight pairs on {name}…", "zh": "正在 {name} 上修补八对提示……"},
    "patch.batch_fig": {
        "en": "Mean recovered share over {n} pairs, with bootstrap 95% intervals",
        "zh": "{n} 对提示上的平均恢复比例，及自助法 95% 区间",
    },
    "patch.mean": {"en": "mean", "zh": "平均"},
    "patch.batch_x": {"en": "recovered share (mean)", "zh": "恢复比例（平均）"},
    "patch.batch_caption": {
        "en": "The {top} heads with the largest mean, each with a 95% interval from {boot} bootstrap resamples of the "
        "pairs. An interval that crosses 0 is not a finding yet. {left}",
        "zh": "平均值最大的 {top} 个头，每个都附有对这些提示对做 {boot} 次自助重采样得到的 95% 区间。"
        "跨过 0 的区间还不能算发现。{left}",
    },
    "patch.batch_left": {
        "en": "{n} of the {tried} pairs were left out: their prompts did not disagree about the answer.",
        "zh": "{tried} 对中有 {n} 对被排除：它们的两个提示对答案没有分歧。",
    },
    "patch.batch_none": {
        "en": "None of the pairs gives prompts that disagree about the answer on this model.",
        "zh": "在这个模型上，没有一对提示对答案有分歧。",
    },
    "patch.computing": {"en": "Patching every head of {name}…", "zh": "正在修补 {name} 的每个头……"},
    "patch.progress": {
        "en": "Patching every head: {done} of {layers} layers done (each layer's heads run as one batch)",
        "zh": "正在修补每个头：已完成 {done} / {layers} 层（每层的头作为一个批次一起运行）",
    },
    "patch.cancel": {"en": "Cancel", "zh": "取消"},
    "patch.cancelled": {
        "en": "Cancelled: the map was stopped before its last layer. Change the prompts, or run it again.",
        "zh": "已取消：这张图在最后一层之前停止了。可以修改提示，或者重新运行。",
    },
    "patch.run_again": {"en": "Run again", "zh": "重新运行"},
    "patch.sources_title": {"en": "Where these methods come from", "zh": "这些方法的出处"},
    "patch.sources": {
        "en": "- **Activation patching** on heads: Wang et al. 2022, *Interpretability in the Wild* (the "
        "indirect-object circuit, IOI). On the residual stream: Meng et al. 2022, *Locating and Editing Factual "
        "Associations in GPT* (causal tracing).\n"
        "- **Attribution patching**: Nanda 2023, *Attribution Patching: Activation Patching At Industrial Scale*; "
        "where it fails and how to fix it: Kramár et al. 2024, *AtP\\*: An efficient and scalable method for "
        "localizing LLM behaviour to components*.\n"
        "- **Direct logit attribution**: Elhage et al. 2021, *A Mathematical Framework for Transformer Circuits*.\n"
        "- The recovered share is a ratio: near-equal clean and corrupted metrics make it noise, so the page "
        "refuses a gap under 0.1; a share above 1 means the head alone overshoots the clean run, a negative one "
        "that it pushes towards the wrong word.",
        "zh": "- 对注意力头的**激活修补**：Wang 等 2022，*Interpretability in the Wild*（间接宾语回路，IOI）。"
        "对残差流：Meng 等 2022，*Locating and Editing Factual Associations in GPT*（因果追踪）。\n"
        "- **归因修补**：Nanda 2023，*Attribution Patching: Activation Patching At Industrial Scale*；"
        "它在哪里失效、如何修正：Kramár 等 2024，*AtP\\*: An efficient and scalable method for localizing LLM "
        "behaviour to components*。\n"
        "- **直接 logit 归因**：Elhage 等 2021，*A Mathematical Framework for Transformer Circuits*。\n"
        "- 恢复比例是一个比值：干净与损坏的指标几乎相等时它只是噪声，所以本页拒绝小于 0.1 的差；比例大于 1 表示这个头"
        "单独就超过了干净运行，负数表示它把答案推向错误词。",
    },
}
