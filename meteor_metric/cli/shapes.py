"""Other tools' command shapes, rewritten into this CLI's: the jar's positional files, sacrebleu's ``-i``,
``-r`` for references, several files after one ``--ref``, and flags that take one value given twice."""

from __future__ import annotations

import argparse
from typing import Optional, Sequence

#: other tools' flags -> ours (sacrebleu: -i; common: -r; the jar: -t, -norm, -lower, -noPunct)
FOREIGN_FLAGS = {"-i": "--hyp", "--input": "--hyp", "-r": "--ref", "--reference": "--ref", "--refs": "--ref",
                 "--references": "--ref", "-t": "--task", "-norm": "--norm", "-lower": "--lower",
                 "-noPunct": "--no-punct"}


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def rewrite(parser: argparse.ArgumentParser, tokens: Sequence[str]) -> tuple[list[str], list[str]]:
    """``tokens`` (a command's arguments) in this CLI's shape, and what was changed (empty: nothing, also
    when a flag is neither ours nor a known one of another tool).

    Other tools' flags become ours; files after a ``--ref FILE`` become one ``--ref`` each; other
    files that no flag takes are the jar's ``hypothesis reference...`` order: the first is ``--hyp``
    (unless one is given), the others ``--ref``."""
    own = parser._option_string_actions  # argparse's table of this parser's flags
    out: list[str] = []
    strays: list[str] = []
    changes: list[str] = []
    last = None  # the flag whose value was just read
    k = 0
    while k < len(tokens):
        token = tokens[k]
        name = token.split("=", 1)[0]
        if token == "--":
            strays += tokens[k + 1:]
            break
        if name in own or (name.startswith("--") and any(o.startswith(name) for o in own)):
            action = own.get(name)
            out.append(token)
            if (action is None or _takes_value(action)) and "=" not in token and k + 1 < len(tokens):
                out.append(tokens[k + 1])
                k += 1
            last = action.option_strings[-1] if action is not None else name
        elif name in FOREIGN_FLAGS and FOREIGN_FLAGS[name] in own:
            ours = FOREIGN_FLAGS[name]
            changes.append(f"{name} is {ours}")
            out.append(ours)
            if _takes_value(own[ours]) and k + 1 < len(tokens):
                out.append(tokens[k + 1])
                k += 1
            last = ours
        elif not token.startswith("-") or token == "-":
            if last == "--ref":
                changes.append("--ref takes one file: repeat it for each reference set")
                out += ["--ref", token]
            else:
                strays.append(token)
                last = None
        else:  # an unknown flag: whether the next word is its value is unknown, so leave the line as it is
            return list(tokens), []
        k += 1
    if strays and "--hyp" in own:
        has_hyp = "--hyp" in out
        changes.append("files come after --ref" if has_hyp else
                       "files come after --hyp and --ref: the jar's order, hypotheses then references")
        for n, path in enumerate(strays):
            out += ["--ref" if has_hyp or n else "--hyp", path]
    return out, list(dict.fromkeys(changes))


def shape_hint(parser: argparse.ArgumentParser, prog: str, tokens: Sequence[str]) -> Optional[str]:
    """``; did you mean 'PROG ARGS'? (why)`` when ``tokens`` look like another tool's command, else None."""
    fixed, changes = rewrite(parser, tokens)
    if not changes:
        return None
    return f"; did you mean '{prog} {' '.join(_quoted(t) for t in fixed)}'? ({'; '.join(changes)})"


def _quoted(token: str) -> str:
    return token if token and all(c.isalnum() or c in "-_./=:,+@%" for c in token) else repr(token)


class StoreOnce(argparse.Action):
    """``store`` that refuses a second, different value for the same setting instead of keeping the last.

    The values seen are kept on the namespace under ``once_given`` (the parser removes it)."""

    shows_value = True

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("once_given", {})
        shown = f"{option_string} {_shown(values)}" if self.shows_value else option_string
        previous = given.get(self.dest)
        if previous is not None and previous[1] != values:
            raise argparse.ArgumentError(self, repeated_message(parser.prog, option_string, previous, (shown, values)))
        given[self.dest] = (shown, values)
        setattr(namespace, self.dest, values)


class StoreConstOnce(StoreOnce):
    """``store_const`` (e.g. ``--json``) that refuses to override another value of the same setting."""

    shows_value = False

    def __init__(self, option_strings, dest, const=None, **kwargs):
        super().__init__(option_strings, dest, nargs=0, const=const, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        super().__call__(parser, namespace, self.const, option_string)


def repeated_message(prog: str, flag: str, first: tuple, second: tuple) -> str:
    """A setting given twice: both values, and what to do (``--hyp``: the command for several systems)."""
    both = f"{first[0]} and {second[0]}"
    if flag == "--hyp":
        command = prog.split()[-1]
        return (f"{command} scores one system, got {both}; to compare systems use 'meteor-metric compare "
                f"--hyp {first[1]} --hyp {second[1]} --ref ...' (paired significance tests), or run '{command}' "
                "once per system")
    return f"given twice with different values ({both}): give it once"


def _shown(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)
