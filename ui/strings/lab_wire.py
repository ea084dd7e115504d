"""Strings of the lab's wire between two heads over training (ui/lab_wire.py, lessons/lab_snapshots.py; issue 43)."""

STRINGS: dict[str, dict[str, str]] = {
    "lab_wire.title": {
        "en": "The wire: L{pl}H{ph} (previous token) → L{il}H{ih} (induction)",
        "zh": "导线：L{pl}H{ph}（前一词元）→ L{il}H{ih}（归纳）",
    },
    "lab_wire.k": {"en": "K-composition", "zh": "K 组合"},
    "lab_wire.q": {"en": "Q-composition", "zh": "Q 组合"},
    "lab_wire.v": {"en": "V-composition", "zh": "V 组合"},
    "lab_wire.baseline": {"en": "random matrices", "zh": "随机矩阵"},
    "lab_wire.score": {"en": "composition score", "zh": "组合分数"},
    "lab_wire.caption": {
        "en": "From the weights at each snapshot: how much of what the previous-token head writes (its OV) the "
        "induction head reads through its keys (K), its queries (Q) or its values (V), as a fraction (Elhage et al. "
        "2021; the Circuits page shows all pairs). Read it beside the scores above: the K line should rise when the "
        "induction head forms, while Q and V stay near what random matrices of these shapes give ({baseline}).",
        "zh": "由每个快照的权重算出：归纳头通过键（K）、查询（Q）或值（V）读取了前一词元头所写内容（其 OV）的多少，"
        "以比例表示（Elhage 等 2021；“头与头之间的电路”页面显示所有头对）。请对照上面的分数阅读：归纳头形成时 K 线应当上升，"
        "而 Q 和 V 停留在同样形状的随机矩阵所给的水平附近（{baseline}）。",
    },
    "lab_wire.none": {
        "en": "No wire to draw: the best previous-token head (L{pl}H{ph}) is not in an earlier layer than the best "
        "induction head (L{il}H{ih}).",
        "zh": "没有可画的导线：最佳前一词元头（L{pl}H{ph}）并不在最佳归纳头（L{il}H{ih}）之前的层。",
    },
}
