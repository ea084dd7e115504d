"""Training: the loop, the lab's variants with their jobs and locks, snapshots, objectives, post-training. Builds on
core/ and inspection/ (the probes it reports).
"""
