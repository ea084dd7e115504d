"""The arithmetic the pages illustrate: scaling laws, the catalog of sizes, additive attention, token statistics,
the BPE replay, the toy model's words, norms on a batch. Builds on the other rooms.
"""
