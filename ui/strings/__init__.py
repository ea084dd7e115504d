"""The string tables, one module per page (explorer, masks, …) and one per prefix that several pages or the
shell share (nav, lbl, mask, …). A key's prefix is its module's name, so `t("rank.tol")` is found in rank.py;
ui.i18n merges them into one STRINGS."""

from . import (
    attn,
    block,
    circuits,
    classroom,
    common,
    ctl,
    explorer,
    explorer_compare,
    explorer_differs,
    explorer_linear,
    explorer_long,
    explorer_neuron,
    fetch,
    generate,
    guides,
    heads,
    home,
    lab,
    lab_moe,
    lab_wire,
    lbl,
    lens,
    mask,
    masks,
    mlm,
    model,
    nav,
    objectives,
    part,
    patch,
    positional,
    posttrain,
    posttrain_margins,
    prompt,
    rank,
    scaling,
    scaling_moe,
    shell,
    similarity,
    softmax,
    softmax_bf16,
    step,
    tokens,
    translate,
    weights,
)

TABLES = {
    module.__name__.rpartition(".")[2]: module.STRINGS
    for module in (attn, block, circuits, classroom, common, ctl, explorer, explorer_compare, explorer_differs, explorer_linear, explorer_long, explorer_neuron, fetch, generate, guides, heads, home, lab, lab_moe, lab_wire, lbl, lens, mask,
                   masks, mlm, model, nav, objectives, part, patch, positional, posttrain, posttrain_margins, prompt, rank, scaling,
                   scaling_moe, shell, similarity, softmax, softmax_bf16, step, tokens, translate, weights)
}  # fmt: skip
