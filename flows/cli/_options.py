"""What every subcommand shares about its options: one list syntax, plain help, errors in the options' words.

- :class:`ListOption`: a list option takes space- and comma-separated items alike, and may be repeated
  (``--datasets pima,haberman wisconsin`` is three datasets; ``--n-estimators 25 50`` equals ``25,50``).
- :func:`add_parser`: a subcommand with plain help (prose filled to the terminal), examples after the options.
- :func:`explain_invalid`: a configuration refused by its pydantic model (or by the protocol check against the
  data), told per option: ``--datasets: unknown dataset 'wisconsn'; did you mean 'wisconsin'?``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Mapping

__all__ = ["HelpFormatter", "ListOption", "add_parser", "explain_invalid", "option_names"]

#: Where the user finds the names an option takes, by the field of the unknown name.
_NAME_LISTS = {
    "datasets": ("dataset", "cslearn datasets list"),
    "dataset": ("dataset", "cslearn datasets list"),
    "methods": ("method", "cslearn methods list"),
    "candidates": ("method", "cslearn methods list"),
}


class ListOption(argparse.Action):
    """A list option: items separated by spaces or commas, the option repeatable, items converted by ``item``.

    Parameters
    ----------
    item : callable
        Converts one item (e.g. ``int``); a ``ValueError`` becomes a usage error naming the item.
    count : int, optional
        Exact number of items required.
    """

    def __init__(self, option_strings, dest, item: Callable = str, count: int | None = None, **kwargs):
        kwargs.setdefault("nargs", "+")
        super().__init__(option_strings, dest, **kwargs)
        self.item = item
        self.count = count

    def __call__(self, parser, namespace, values, option_string=None):
        items = []
        for piece in (part.strip() for value in values for part in value.split(",")):
            if not piece:
                continue
            try:
                items.append(self.item(piece))
            except ValueError:
                kind = getattr(self.item, "__name__", "value")
                parser.error(
                    f"{option_string}: {piece!r} is not a valid {'integer' if kind == 'int' else kind}"
                )
        previous = getattr(namespace, self.dest, None)
        items = items if previous is None or previous is self.default else [*previous, *items]
        if self.count is not None and len(items) != self.count:
            parser.error(f"{option_string} takes exactly {self.count} items, got {len(items)}: {items}")
        setattr(namespace, self.dest, items)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Prose paragraphs of a description are filled to the terminal's width; a paragraph with indented lines
    (examples, a small table) prints as written."""

    def _fill_text(self, text, width, indent):
        paragraphs = []
        for paragraph in text.split("\n\n"):
            if any(line[:1].isspace() for line in paragraph.splitlines()):
                paragraphs.append("\n".join(indent + line for line in paragraph.splitlines()))
            else:
                paragraphs.append(
                    textwrap.fill(
                        " ".join(paragraph.split()),
                        width,
                        initial_indent=indent,
                        subsequent_indent=indent,
                        break_on_hyphens=False,
                    )
                )
        return "\n\n".join(paragraphs)


def add_parser(subparsers, name: str, *, help: str, description: str, examples: str = ""):  # noqa: A002
    """A subcommand parser with plain help: prose filled to the terminal, then the examples as written."""
    epilog = f"examples:\n{examples.rstrip()}" if examples else None
    return subparsers.add_parser(
        name, help=help, description=description, epilog=epilog, formatter_class=HelpFormatter
    )


def option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The option that sets each destination (``{"n_estimators": "--n-estimators"}``), positionals by name."""
    names = {}
    for action in parser._actions:
        if action.dest in ("help", argparse.SUPPRESS):
            continue
        names[action.dest] = (
            action.option_strings[-1] if action.option_strings else action.metavar or action.dest
        )
    return names


def _unknown_name_lines(option: str, context: Mapping) -> list[str]:
    kind, command = _NAME_LISTS.get(context["field"], ("name", None))
    lines = []
    for name in context["unknown"]:
        close = context["suggestions"].get(name)
        if context.get("problem", "unknown") == "unknown":
            line = f"{option}: unknown {kind} {name!r}"
        else:
            line = f"{option}: {kind} {name!r} {context['problem']}"
        lines.append(line + (f"; did you mean {close!r}?" if close else ""))
    if len(context["known"]) <= 10:
        lines[-1] += f"; choose one of: {', '.join(context['known'])}"
    elif command:
        lines[-1] += f" (`{command}` shows them all)"
    return lines


def _error_lines(error: Mapping, options: Mapping[str, str]) -> list[str]:
    location = error.get("loc") or ()
    field = str(location[0]) if location else None
    option = options.get(field, field) if field else "configuration"
    if len(location) > 1 and isinstance(location[1], int):
        option += f" (item {location[1] + 1})"
    if error["type"] == "unknown_name":
        return _unknown_name_lines(option, error["ctx"])
    if error["type"] == "extra_forbidden":
        return [f"{option}: not a parameter of this command"]
    message = str(error["msg"]).removeprefix("Value error, ")
    message = message[:1].lower() + message[1:]
    shown = error.get("input")
    if error["type"].startswith(("greater_than", "less_than", "int_", "float_", "literal_", "too_")):
        message += f" (got {shown!r})"
    return [f"{option}: {message}"]


def _without_echoes(errors: list[dict]) -> list[dict]:
    """The errors, less a list's "too short" error when its items were refused (it only echoes them)."""
    with_bad_items = {
        item["loc"][0] for item in errors if len(item["loc"]) > 1 and isinstance(item["loc"][1], int)
    }
    return [item for item in errors if not (item["type"] == "too_short" and item["loc"][0] in with_bad_items)]


def explain_invalid(command: str, error: Exception, options: Mapping[str, str]) -> None:
    """Print why a configuration was refused, one line per problem, to stderr.

    ``error`` is a ``pydantic.ValidationError`` or a :class:`tasks.config.checks.ProtocolError`.
    """
    if hasattr(error, "errors"):
        lines = [line for item in _without_echoes(error.errors()) for line in _error_lines(item, options)]
    else:
        lines = list(getattr(error, "problems", [str(error)]))
    print(f"cslearn {command}: invalid configuration", file=sys.stderr)
    for line in lines:
        print(f"  {line}", file=sys.stderr)
