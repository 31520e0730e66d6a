"""Library messages in the CLI's words: Python argument names become the flags that set them."""

from __future__ import annotations

import re
from typing import Optional

#: Python argument -> CLI flag (``get_scorer``/``ScorerSpec`` fields, ``tune`` and test options).
FLAGS = {"language": "--lang", "normalization": "--normalization", "task": "--task", "modules": "--modules",
         "weights": "--weights", "parameters": "--params", "char_based": "--char", "beam_size": "--beam",
         "function_words": "--function-words", "paraphrase_table": "--paraphrase-table", "synonyms": "--synonyms",
         "params_file": "--params-file", "fragmentation": "--fragmentation",
         "similarity_threshold": "--similarity-threshold", "max_segment_tokens": "--max-tokens",
         "max_segment_candidates": "--max-candidates", "max_segment_chars": "--max-chars",
         "search_budget": "--search-budget", "profile": "--profile", "folds": "--folds",
         "n_samples": "--samples", "seed": "--seed"}
METAVARS = {"--paraphrase-table": "FILE", "--params-file": "FILE", "--function-words": "FILE",
            "--search-budget": "N", "--max-tokens": "N", "--max-candidates": "N", "--max-chars": "N"}
_NAME = "|".join(sorted(FLAGS, key=len, reverse=True))
_MODES = r"norm_ext_nopunct|norm_ext|norm_nopunct|lc_only|no_norm|cjk_char|word_tokenize_line|word_tokenize|split"


def _assignment(match: re.Match) -> str:
    """``name=value`` as the flag and the value typed on the command line (a list comma-separated)."""
    flag = FLAGS[match.group(1)]
    quoted, listed, plain = match.group(2, 3, 4)
    if listed is not None:
        items = (item.strip().strip("'") for item in listed.split(","))
        return f"{flag} {','.join(items)}"
    value = plain if quoted is None else quoted
    if value == "True":  # a switch
        return flag
    return f"{flag} {METAVARS.get(flag, 'VALUE') if value == '...' else value}"


def cli_message(text: str, paraphrase_free_modules: Optional[str] = None) -> str:
    """``text`` with ``name=value`` and bare Python names written as CLI flags.

    ``paraphrase_free_modules`` (e.g. ``exact,stem``) turns "choose modules without 'paraphrase'"
    into the exact ``--modules`` flag to use."""
    text = re.sub(r"a larger search_budget to \w+\(search_budget=\.\.\.\)", "a larger --search-budget N", text)
    text = re.sub(r"\buse folds <= (\d+)", r"use --folds \1 (or fewer)", text)
    text = re.sub(r"\(paraphrase_table=\.\.\., CLI --paraphrase-table\)", "(--paraphrase-table FILE)", text)
    text = re.sub(rf"\b({_NAME})=(?:'([^']*)'|[\[(]([^\])]*)[\])]|([^\s,;)]+))", _assignment, text)
    text = re.sub(rf"(--normalization (?:{_MODES}|norm)) or '({_MODES})'", r"\1 or --normalization \2", text)
    text = re.sub(rf"\bnormalization '({_MODES})'", r"--normalization \1", text)
    text = re.sub(r"\bfolds must\b", "--folds must", text)
    text = re.sub(r"\bdo not also give (task|parameters)\b", lambda m: f"do not also give {FLAGS[m.group(1)]}", text)
    text = re.sub(rf"'({_MODES})'", r"--normalization \1", text)
    text = re.sub(r"\b(max_segment_tokens|max_segment_candidates|max_segment_chars|search_budget|beam_size|"
                  r"params_file|paraphrase_table|similarity_threshold|function_words|char_based)\b",
                  lambda m: FLAGS[m.group(1)], text)
    text = re.sub(r"\bparameters (must be|\(four)", r"--params \1", text)
    text = re.sub(r"\b(from|choose|in) modules\b", r"\1 --modules", text)
    if paraphrase_free_modules:
        text = text.replace("choose --modules without 'paraphrase'",
                            f"leave the paraphrase module out: --modules {paraphrase_free_modules}")
    return text
