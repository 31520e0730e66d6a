"""Integrations: the evaluate plugin, training callbacks, the pycocoevalcap drop-in and its PTB tokenizer, and
adapters for torchmetrics, sacreBLEU, lm-evaluation-harness, lighteval and mbrs (each imports its framework when it
is imported itself; docs/frameworks.md)."""
