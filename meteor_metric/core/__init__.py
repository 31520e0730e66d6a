"""Core: what every layer shares (number formatting, corpus file formats, the statistics container)."""
