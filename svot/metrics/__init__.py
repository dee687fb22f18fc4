"""Evaluation metrics and rewards for SVoT (state, chain and visual rewards)."""
