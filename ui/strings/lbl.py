"""Figure labels (axes, legends, hover names) passed to viz, shared by every page's charts."""

STRINGS: dict[str, dict[str, str]] = {
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
