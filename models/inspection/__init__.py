"""Analysis of a trained model: the field guide to heads, probes, the q/k map, the neuron view, the logit lens and
knock-outs, attention and rank statistics, checkpoints over training. Builds on core/ and published/.
"""
