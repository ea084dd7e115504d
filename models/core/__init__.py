"""The one Transformer and its parts: attention, blocks, norms, positions, MoE, linear attention, the trace's buffers,
precision and device. Imports nothing from the other rooms.
"""
