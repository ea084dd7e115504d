"""Strings of the architecture lab's mixture-of-experts controls and router view (lessons/lab_moe.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "lab_moe.experts": {"en": "Experts (MoE)", "zh": "专家数（混合专家）"},
    "lab_moe.experts_help": {
        "en": "0: one dense feed-forward network per block. 4 or 8: a mixture of experts, that many feed-forward "
        "networks and a router that sends each token to a few of them (Fedus et al. 2021; Jiang et al. 2024).",
        "zh": "0：每个块一个稠密前馈网络。4 或 8：混合专家（MoE），即这么多个前馈网络加一个路由器，"
        "路由器把每个词元送往其中少数几个（Fedus 等 2021；Jiang 等 2024）。",
    },
    "lab_moe.n.0": {"en": "0 (dense)", "zh": "0（稠密）"},
    "lab_moe.n.4": {"en": "4", "zh": "4"},
    "lab_moe.n.8": {"en": "8", "zh": "8"},
    "lab_moe.top_k": {"en": "Experts per token (top-k)", "zh": "每个词元的专家数（top-k）"},
    "lab_moe.top_k.1": {"en": "1 (Switch)", "zh": "1（Switch）"},
    "lab_moe.top_k.2": {"en": "2 (Mixtral)", "zh": "2（Mixtral）"},
    "lab_moe.top_k_help": {
        "en": "k = 1: the Switch Transformer's rule, the expert's output times its router probability p. k = 2: "
        "Mixtral's, the two probabilities renormalised to sum to 1 (a softmax over the two chosen logits).",
        "zh": "k = 1：Switch Transformer 的规则，专家输出乘以其路由概率 p。k = 2：Mixtral 的规则，"
        "两个概率重新归一化为和为 1（即对选中的两个 logit 做 softmax）。",
    },
    "lab_moe.title": {"en": "Mixture of experts: the router", "zh": "混合专家：路由器"},
    "lab_moe.none": {
        "en": "Neither side has experts. Set **Experts (MoE)** to 4 or 8 on A or B (or start from "
        "“Mixtral-style”) to see which expert the router picks for each token.",
        "zh": "两侧都没有专家。把 A 或 B 的**专家数**（混合专家）设为 4 或 8（或从“Mixtral 式”开始），"
        "就能看到路由器为每个词元选了哪个专家。",
    },
    "lab_moe.intro": {
        "en": "In a mixture-of-experts block the feed-forward network is replaced by n experts (each a feed-forward "
        "network of the same shape) and a **router**, a linear layer followed by a softmax, giving each token a "
        "probability for every expert. Each token is processed only by its k most probable experts, and their "
        "outputs are added, weighted by the gates. This app implements **Mixtral's** rule for k = 2 (the two "
        "probabilities renormalised; Jiang et al. 2024, §2.1) and the **Switch Transformer's** for k = 1 (the "
        "probability itself, not renormalised; Fedus et al. 2021, §2.1). Training adds the **load-balancing loss** "
        "aux = n · Σᵢ fᵢ · Pᵢ (Fedus et al. 2021, eq. 4), where fᵢ is the share of token-to-expert assignments "
        "that go to expert i and Pᵢ its mean router probability. It is 1 when the load is even and grows as the "
        "router favours a few experts (up to n with k = 1, when every token goes to one expert).",
        "zh": "在混合专家（MoE）块中，前馈网络被 n 个专家（每个都是同样形状的前馈网络）和一个**路由器**取代。"
        "路由器是一个线性层加 softmax，为每个词元给出每个专家的概率。每个词元只经过概率最高的 k 个专家，"
        "它们的输出按门控权重加权相加。本应用在 k = 2 时采用 **Mixtral** 的规则（两个概率重新归一化；"
        "Jiang 等 2024，§2.1），在 k = 1 时采用 **Switch Transformer** 的规则（直接用该概率，不重新归一化；"
        "Fedus 等 2021，§2.1）。训练时加上**负载均衡损失** aux = n · Σᵢ fᵢ · Pᵢ（Fedus 等 2021，式 4），"
        "其中 fᵢ 是分配给专家 i 的（词元, 专家）对所占比例，Pᵢ 是专家 i 的平均路由概率。"
        "负载完全均衡时它等于 1，路由器越偏爱少数专家它越大（k = 1 且所有词元都去同一个专家时等于 n）。",
    },
    "lab_moe.counts": {
        "en": "**{side}**: {n} experts, top-{k}: **{total}** parameters in total, **{active}** active per token "
        "({share} of the total).",
        "zh": "**{side}**：{n} 个专家，top-{k}：共 **{total}** 个参数，每个词元的**激活参数** **{active}** 个"
        "（占总数的 {share}）。",
    },
    "lab_moe.choice_fig": {
        "en": "{side}: experts chosen per token and layer (colour: first choice)",
        "zh": "{side}：每个词元、每层选中的专家（颜色：首选专家）",
    },
    "lab_moe.probs_fig": {"en": "{side}, layer {layer}: router probabilities", "zh": "{side}，第 {layer} 层：路由概率"},
    "lab_moe.load_fig": {"en": "{side}, layer {layer}: load per expert", "zh": "{side}，第 {layer} 层：各专家的负载"},
    "lab_moe.expert": {"en": "expert", "zh": "专家"},
    "lab_moe.gate": {"en": "gate weight", "zh": "门控权重"},
    "lab_moe.prob": {"en": "probability", "zh": "概率"},
    "lab_moe.share": {"en": "share of assignments", "zh": "分配占比"},
    "lab_moe.ideal": {"en": "even load 1/n", "zh": "均衡负载 1/n"},
    "lab_moe.token": {"en": "token", "zh": "词元"},
    "lab_moe.layer": {"en": "layer", "zh": "层"},
    "lab_moe.load_caption": {
        "en": "On this prompt, layer {layer}: aux = n · Σᵢ fᵢ · Pᵢ = **{aux}** (1 = even load; at most n/k = {most}, "
        "when every token goes to the same {k} expert(s) with all the probability; transformers' "
        "load_balancing_loss_func reports k × this value). Training adds {weight} × the mean of this loss over the "
        "layers (and over the batch) to the cross-entropy; the held-out loss in the chart above is the cross-entropy "
        "alone.",
        "zh": "在这个提示上，第 {layer} 层：aux = n · Σᵢ fᵢ · Pᵢ = **{aux}**（1 = 负载均衡；最大为 n/k = {most}，"
        "即所有词元都去同样的 {k} 个专家且概率全在它们身上；transformers 的 load_balancing_loss_func 报告的是这个值的 k 倍）。"
        "训练时把 {weight} × 这一损失在各层（和整个批次）上的平均加到交叉熵上；上面图中的验证损失只含交叉熵。",
    },
    "lab_moe.random_note": {
        "en": "{side} is randomly initialised: the router's weights are small, so its probabilities are close to "
        "1/n and its choices are arbitrary. Train the variant to see the router specialise.",
        "zh": "{side} 是随机初始化的：路由器权重很小，概率都接近 1/n，选择是随意的。训练这个变体，看路由器如何分工。",
    },
}
