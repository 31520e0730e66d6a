"""The ``meteor-metric`` command line: one module per command on the ``COMMANDS`` table."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import warnings
from typing import Optional, Sequence

from ..core.corpus_io import CorpusWarning
from ..meteor15.params import resolve_params
from ..version import __version__
from . import align, cache, coco, compare, report, score, tune
from .common import EXIT_ERROR, EXIT_HELP, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InputError
from .messages import cli_message
from .shapes import StoreConstOnce, StoreOnce, shape_hint

#: command name -> module with ``add_parser(commands)`` and ``run(args, out)``, in help order
COMMANDS = {"score": score, "align": align, "compare": compare, "report": report, "tune": tune,
            "coco": coco, "cache": cache}


class Parser(argparse.ArgumentParser):
    """argparse that suggests the closest flag or choice for a typo (Python 3.14's suggest_on_error),
    reports an unknown argument with the usage line of the (sub)command it was given to, rewrites other
    tools' command shapes (:mod:`~meteor_metric.cli.shapes`), and refuses a flag that takes one value
    given twice with different values (argparse keeps the last one silently)."""

    argv: list[str] = []  # the arguments being parsed, for errors that argparse reports first
    owners: dict[str, dict[str, None]] = {}  # --flag -> the commands (prog names, an ordered set) that have it

    def __init__(self, *args, **kwargs):
        self.option_names: set[str] = set()  # this parser's own --flags
        self.commands: Optional[argparse.Action] = None  # its subcommands, if it has any
        super().__init__(*args, **kwargs)
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)
        self.register("action", "store_const", StoreConstOnce)

    def add_argument(self, *names, **kwargs):
        for name in names:
            if name.startswith("--"):
                self.option_names.add(name)
                Parser.owners.setdefault(name, {})[self.prog] = None  # once, however often the CLI is built
        return super().add_argument(*names, **kwargs)

    def add_subparsers(self, **kwargs):
        self.commands = super().add_subparsers(**kwargs)
        return self.commands

    def parse_args(self, args=None, namespace=None):
        Parser.argv = list(sys.argv[1:] if args is None else args)
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            self._innermost(parsed).error(f"unrecognized arguments: {' '.join(unknown)}")
        vars(parsed).pop("once_given", None)
        return parsed

    def _innermost(self, parsed: argparse.Namespace) -> "Parser":
        """The deepest subcommand's parser that ``parsed`` selected (``cache build`` -> build's parser)."""
        parser = self
        while parser.commands is not None and getattr(parsed, parser.commands.dest, None) in parser.commands.choices:
            parser = parser.commands.choices[getattr(parsed, parser.commands.dest)]
        return parser

    def error(self, message: str):
        unknown = re.search(r"unrecognized arguments: (\S+)", message)
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        stray = self._stray_flag() if message.startswith("the following arguments are required") else None
        hint = self._shape_hint() if unknown or message.startswith("the following arguments are required") else None
        if hint:  # another tool's shape (the jar's positional files, sacrebleu's -i, --ref a b)
            super().error(message + hint)
        if stray:  # argparse names the missing flag first; the typo that caused it is the useful part
            message += f"; {stray} is not a flag"
        if unknown or stray:
            typo = stray or unknown.group(1).split("=")[0]
            close = difflib.get_close_matches(typo, sorted(self.option_names), 1, cutoff=0.7)
            if not close and typo in Parser.owners:  # a flag of another command
                commands = ", ".join(prog.partition(" ")[2] for prog in Parser.owners[typo])
                message += f" ({typo} is a flag of: {commands})"
        elif choice:
            close = difflib.get_close_matches(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)), 1)
        else:
            close = []
        super().error(message + (f" (did you mean {close[0]}?)" if close else ""))

    def _shape_hint(self) -> Optional[str]:
        """The command line rewritten in this CLI's shape, if it looks like another tool's."""
        command = self.prog.split()[-1]
        if command not in Parser.argv:
            return None
        return shape_hint(self, self.prog, Parser.argv[Parser.argv.index(command) + 1:])

    def _stray_flag(self) -> Optional[str]:
        """The first ``--word`` argument that is none of this parser's flags, nor an abbreviation of one."""
        for arg in Parser.argv:
            name = arg.split("=")[0]
            if arg == "--":
                return None
            if name.startswith("--") and not any(o.startswith(name) for o in self.option_names):
                return name
        return None


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="meteor-metric", description="METEOR 1.5, exact with the Java reference, in pure Python.",
        epilog="Run 'meteor-metric COMMAND --help' for a command's options and examples.\n\n" + EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"meteor-metric {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        module.add_parser(commands)
    return parser


def _paraphrase_free_modules(args) -> Optional[str]:
    """The flags' modules without paraphrase, as a --modules value (for the missing-table message)."""
    try:
        modules = args.modules or resolve_params(args.lang or "en", args.task).modules
    except (AttributeError, ValueError):
        return None
    return ",".join(m for m in modules if m != "paraphrase") or None


def _report(kind: str, message: str, args) -> None:
    print(f"meteor-metric: {kind}: {cli_message(message, _paraphrase_free_modules(args))}", file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", CorpusWarning)
            shown: set[str] = set()  # each message once (a corpus is read twice: checked, then scored)
            warnings.showwarning = lambda message, *_: None if str(message) in shown else (
                shown.add(str(message)), _report("warning", str(message), args))
            COMMANDS[args.command].run(args, sys.stdout)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's status for SIGINT (worker processes ignore it)
        print("meteor-metric: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader stopped (e.g. | head): end quietly, like other Unix filters
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except InputError as exc:
        _report("error", str(exc), args)
        return EXIT_USAGE
    except (OSError, RuntimeError) as exc:
        _report("error", str(exc), args)
        return EXIT_ERROR
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
