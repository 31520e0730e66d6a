"""Integrations: the evaluate plugin, training callbacks, the pycocoevalcap drop-in and its PTB tokenizer."""
