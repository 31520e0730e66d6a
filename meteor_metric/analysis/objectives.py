"""The names of the tuning objectives (numpy-free: the command line lists them without loading numpy)."""

OBJECTIVES = ("seg-kendall", "sys-pearson")
