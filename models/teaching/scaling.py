"""Scaling laws with their published constants: Kaplan et al. 2020 and Chinchilla (Hoffmann et al. 2022).

Losses are cross-entropy in nats per token on each paper's own data, so the two laws' numbers
are not comparable with each other, nor with the toy models of this app.
"""

from __future__ import annotations

import numpy as np

# Kaplan et al. 2020, eqs. (1.1) and (1.2): L(N) = (N_c / N)^α_N, L(D) = (D_c / D)^α_D, where N counts
# non-embedding parameters and D tokens. Some notes print D_c in L(N); the constant there is N_c.
KAPLAN_NC = 8.8e13
KAPLAN_ALPHA_N = 0.076
KAPLAN_DC = 5.4e13
KAPLAN_ALPHA_D = 0.095

# Hoffmann et al. 2022, eq. (10), Approach 3: L(N, D) = E + A / N^α + B / D^β.
CHINCHILLA_E = 1.69
CHINCHILLA_A = 406.4
CHINCHILLA_B = 410.7
CHINCHILLA_ALPHA = 0.34
CHINCHILLA_BETA = 0.28
TOKENS_PER_PARAMETER = 20  # Chinchilla's rule of thumb, from Approaches 1 and 2 (70B on 1.4T tokens)
# C ≈ 6·N·D counts FLOPs, not multiply-adds: one multiply-add is 2 FLOPs, so the forward pass costs 2 FLOPs per
# weight per token (1 multiply-add) and the backward pass 4 (2 multiply-adds: the gradient for the input and
# for the weight). 6 FLOPs = 3 multiply-adds (Kaplan et al. 2020, §2.1, Table 1).
FLOPS_PER_PARAMETER_TOKEN = 6
# The runs Chinchilla's laws were fitted to: 70M to over 16B parameters, 5B to 500B tokens (Hoffmann et al.
# 2022, abstract and §3). Beyond them (GPT-3, Llama) the fits are extrapolations.
CHINCHILLA_FIT_PARAMS = (70e6, 16e9)
CHINCHILLA_FIT_TOKENS = (5e9, 500e9)

# Compute-optimal growth N_opt ∝ C^a, D_opt ∝ C^b (a + b = 1 because C = 6·N·D), as Hoffmann et al. 2022,
# Table 2 prints them. Kaplan et al. 2020 (eq. 1.7, §6.1) found N ∝ C^0.73 and D ∝ C^0.27; Chinchilla's
# Approaches 1 and 2 give about 0.5 / 0.5, its Approach 3 (the parametric fit above) 0.46 / 0.54.
EXPONENTS: dict[str, tuple[float, float]] = {
    "kaplan": (0.73, 0.27),
    "chinchilla1": (0.50, 0.50),
    "chinchilla2": (0.49, 0.51),
    "chinchilla3": (0.46, 0.54),
}

# Published (parameters, training tokens) of models the notes discuss; the papers are the sources.
KNOWN_MODELS: tuple[tuple[str, float, float], ...] = (
    ("GPT-3 175B", 175e9, 300e9),  # Brown et al. 2020, Table 2.2 / §2.2
    ("Gopher 280B", 280e9, 300e9),  # Rae et al. 2021
    ("Chinchilla 70B", 70e9, 1.4e12),  # Hoffmann et al. 2022
    ("LLaMA 65B", 65.2e9, 1.4e12),  # Touvron et al. 2023a
    ("Llama 2 70B", 70e9, 2.0e12),  # Touvron et al. 2023b
    ("Llama 3 8B", 8e9, 15e12),  # Meta 2024: "over 15T tokens"
    ("Llama 3 70B", 70e9, 15e12),
)


def kaplan_loss_n(n):
    """L(N) = (N_c / N)^α_N: models trained to convergence on enough data (N without embeddings)."""
    return (KAPLAN_NC / np.asarray(n, dtype=float)) ** KAPLAN_ALPHA_N


def kaplan_loss_d(d):
    """L(D) = (D_c / D)^α_D: a large model trained with early stopping on D tokens."""
    return (KAPLAN_DC / np.asarray(d, dtype=float)) ** KAPLAN_ALPHA_D


def kaplan_loss_nd(n, d):
    """Kaplan et al. 2020, eq. (1.5): L(N, D) = [(N_c / N)^(α_N / α_D) + D_c / D]^α_D."""
    n, d = np.asarray(n, dtype=float), np.asarray(d, dtype=float)
    return ((KAPLAN_NC / n) ** (KAPLAN_ALPHA_N / KAPLAN_ALPHA_D) + KAPLAN_DC / d) ** KAPLAN_ALPHA_D


def chinchilla_loss(n, d):
    """L(N, D) = E + A / N^α + B / D^β: E is the entropy of text, the other terms the cost of a
    finite model and of finite data."""
    n, d = np.asarray(n, dtype=float), np.asarray(d, dtype=float)
    return CHINCHILLA_E + CHINCHILLA_A / n**CHINCHILLA_ALPHA + CHINCHILLA_B / d**CHINCHILLA_BETA


def compute(n, d):
    """Training FLOPs C ≈ 6·N·D (Kaplan et al. 2020, §2.1)."""
    return FLOPS_PER_PARAMETER_TOKEN * np.asarray(n, dtype=float) * np.asarray(d, dtype=float)


def chinchilla_optimal(c) -> tuple[np.ndarray, np.ndarray]:
    """(N, D) minimising E + A/N^α + B/D^β subject to 6·N·D = C (Hoffmann et al. 2022, eq. 4):
    N = G·(C/6)^a, D = (C/6)^b / G with a = β/(α+β), b = α/(α+β), G = (αA / (βB))^(1/(α+β))."""
    a = CHINCHILLA_BETA / (CHINCHILLA_ALPHA + CHINCHILLA_BETA)
    b = CHINCHILLA_ALPHA / (CHINCHILLA_ALPHA + CHINCHILLA_BETA)
    g = (CHINCHILLA_ALPHA * CHINCHILLA_A / (CHINCHILLA_BETA * CHINCHILLA_B)) ** (
        1 / (CHINCHILLA_ALPHA + CHINCHILLA_BETA)
    )
    base = np.asarray(c, dtype=float) / FLOPS_PER_PARAMETER_TOKEN
    return g * base**a, base**b / g


def rule_of_thumb(c, tokens_per_parameter: float = TOKENS_PER_PARAMETER) -> tuple[np.ndarray, np.ndarray]:
    """(N, D) with D = r·N and 6·N·D = C: N = sqrt(C / (6r))."""
    n = np.sqrt(np.asarray(c, dtype=float) / (FLOPS_PER_PARAMETER_TOKEN * tokens_per_parameter))
    return n, tokens_per_parameter * n


def loss_grid(n_values, d_values) -> np.ndarray:
    """Chinchilla loss on a grid: [len(d_values), len(n_values)] (rows are D, as a contour plot wants)."""
    return chinchilla_loss(np.asarray(n_values)[None, :], np.asarray(d_values)[:, None])


def approach3_exponents() -> tuple[float, float]:
    """a = β / (α + β), b = α / (α + β) from the rounded published α, β (Hoffmann et al. 2022, eq. 4):
    0.452 / 0.548, where Table 2 prints 0.46 / 0.54 (why is not known: its own interval for a excludes 0.46)."""
    total = CHINCHILLA_ALPHA + CHINCHILLA_BETA
    return CHINCHILLA_BETA / total, CHINCHILLA_ALPHA / total


def budget_growth(factor: float, law: str) -> tuple[float, float]:
    """(×N, ×D) when the compute budget grows by `factor` under a law of EXPONENTS: factor^a, factor^b.
    Their product is the factor itself, since C = 6·N·D."""
    a, b = EXPONENTS[law]
    return factor**a, factor**b
