"""Analysis on top of any scorer: significance, tuning, correlation, map-reduce, reports, comparisons."""
