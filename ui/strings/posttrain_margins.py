"""Strings of the post-training page's margins figure (lessons/posttrain_margins.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "posttrain_margins.title": {
        "en": "Margin log π(chosen) − log π(rejected) on each of the {n} held-out pairs",
        "zh": "{n} 条留出数据上每一条的差距 log π(选中) − log π(拒绝)",
    },
    "posttrain_margins.x": {"en": "held-out pair", "zh": "留出数据"},
    "posttrain_margins.y": {"en": "margin (nats)", "zh": "差距（奈特）"},
    "posttrain_margins.shipped": {"en": "shipped decoder", "zh": "原始解码器"},
    "posttrain_margins.trained": {"en": "after SFT + DPO", "zh": "SFT + DPO 之后"},
    "posttrain_margins.before": {
        "en": "The shipped decoder before any post-training, measured now: a bar above zero means it already gives "
        "the correct name more probability than the other one. It prefers the correct name on {acc} of the pairs "
        "(50% = no preference; mean margin {mean} nats): pretraining never saw the question format. "
        "Train below, and the trained model's margins appear beside these.",
        "zh": "尚未做任何后训练的原始解码器，现在即时测得：柱子高于零，表示它已经给正确的名字更高的概率。"
        "它在 {acc} 的数据上偏好正确的名字（50% 即没有偏好；平均差距 {mean} 奈特）：预训练从未见过这种问答格式。"
        "在下方训练之后，训练后模型的差距会显示在这些柱子旁边。",
    },
    "posttrain_margins.after": {
        "en": "Blue: after SFT and DPO (preferred on {acc} of the pairs, mean margin {mean} nats); grey outlines: "
        "the shipped decoder before post-training ({base_acc}, {base_mean} nats).",
        "zh": "蓝色：SFT 与 DPO 之后（在 {acc} 的数据上偏好正确名字，平均差距 {mean} 奈特）；灰色空心柱："
        "后训练之前的原始解码器（{base_acc}，{base_mean} 奈特）。",
    },
}
