"""Labels of the controls (layer, head, view, colour scale…) that ui/controls.py and the pages draw."""

STRINGS: dict[str, dict[str, str]] = {
    "ctl.layer": {"en": "Layer", "zh": "层"},
    "ctl.linear_layers": {
        "en": "This model mixes softmax attention with Gated DeltaNet linear-attention layers, whose implied "
        "attention is not a softmax over keys; this page assumes every layer is softmax attention, so it "
        "does not draw this model.",
        "zh": "该模型混合了 softmax 注意力与 Gated DeltaNet 线性注意力层，后者的隐含注意力不是对键的 softmax；"
        "本页假设每一层都是 softmax 注意力，因此不绘制该模型。",
    },
    "ctl.head": {"en": "Head", "zh": "头"},
    "ctl.attn": {"en": "Attention", "zh": "注意力"},
    "ctl.view": {"en": "View", "zh": "视图"},
    "ctl.autoscale": {"en": "Auto-scale colours", "zh": "自动色阶"},
    "ctl.autoscale_help": {
        "en": "Off: colours span 0 to 1, comparable across heads. On: colours span this figure's own range.",
        "zh": "关闭：颜色范围固定为 0 到 1，便于在各头之间比较。打开：颜色范围按本图数据自动调整。",
    },
    "ctl.focus": {"en": "Show the lines of", "zh": "显示连线"},
    "ctl.focus_all": {"en": "all tokens", "zh": "所有词元"},
    "ctl.agg": {"en": "Show", "zh": "显示"},
}
