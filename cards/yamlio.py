"""Reading YAML data files safely, keeping line numbers for error messages.

``LineLoader`` is PyYAML's ``SafeLoader`` (no Python objects, no code) that
builds mappings as ``LineDict``: a plain dict that also knows the line of
itself and of each key, so a message can say ``deck.yaml:12: cost: ...``.
Card data is never code.

It refuses what could make a small file enormous or crash the reader: anchors and
aliases (``&a`` / ``*a``, the "billion laughs"), nesting deeper than
``cards.files.MAX_DEPTH`` levels, whole numbers over ``MAX_DIGITS`` digits, lines over
``MAX_LINE`` characters, and files over their size limit (``cards.files.LIMITS``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cards.errors import DataError
from cards.files import MAX_DEPTH, MAX_DIGITS, check_lines, read_utf8


class LineDict(dict):
    """A dict from YAML, with ``line`` (1-based) and ``key_lines`` {key: line}."""

    line: int | None = None
    file: str | None = None
    """The file it was read from, when known (so ability errors can say ``file:line``)."""
    key_lines: dict

    def line_of(self, key: Any) -> int | None:
        return getattr(self, "key_lines", {}).get(key, self.line)


class LineList(list):
    """A list from YAML, with ``line`` and ``item_lines`` (1-based)."""

    line: int | None = None
    file: str | None = None
    item_lines: list


class LineLoader(yaml.SafeLoader):
    """SafeLoader that records line numbers on mappings and sequences, and refuses anchors,
    aliases and deep nesting before anything is built."""

    _depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise DataError(f"an alias (*{event.anchor}) is not allowed in Maester's files",
                            line=event.start_mark.line + 1, hint="write the value out in full")
        if getattr(event, "anchor", None) is not None:
            raise DataError(f"an anchor (&{event.anchor}) is not allowed in Maester's files",
                            line=event.start_mark.line + 1, hint="remove the '&' name and write values in full")
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if self._depth >= MAX_DEPTH:
                raise DataError(f"nested too deeply (more than {MAX_DEPTH} levels)",
                                line=event.start_mark.line + 1, hint="check the indentation and brackets")
            self._depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1
        return super().compose_node(parent, index)


def _construct_mapping(loader: LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.file = getattr(loader, "file", None)
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise DataError("a mapping key must be a plain value", line=key_node.start_mark.line + 1)
        if key in result:
            raise DataError(f"key {key!r} appears twice in one mapping", line=key_node.start_mark.line + 1,
                            hint="remove one of them")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: LineLoader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.file = getattr(loader, "file", None)
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _construct_int(loader: LineLoader, node: yaml.ScalarNode) -> int:
    digits = len(node.value.replace("_", "").lstrip("+-"))
    if digits > MAX_DIGITS:
        raise DataError(f"a number with {digits:,} digits (the limit is {MAX_DIGITS})",
                        line=node.start_mark.line + 1, hint="write a smaller number")
    try:
        return yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError:
        raise DataError(f"not a number: {node.value[:40]!r}", line=node.start_mark.line + 1) from None


def _construct_float(loader: LineLoader, node: yaml.ScalarNode) -> float:
    if len(node.value) > MAX_DIGITS + 20:
        raise DataError(f"a number {len(node.value):,} characters long (the limit is {MAX_DIGITS})",
                        line=node.start_mark.line + 1, hint="write a smaller number")
    return yaml.SafeLoader.construct_yaml_float(loader, node)


LineLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
LineLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml_text(text: str, file: str = "<text>") -> Any:
    """Parse YAML text; any problem is a ``DataError`` naming the file and line."""
    check_lines(text, file)
    try:
        loader = LineLoader(text)  # a SafeLoader: no Python objects, no code
        loader.file = file
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except DataError as err:
        raise err.located(file)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else None
        problem = err.problem or err.context or "malformed YAML"
        raise DataError(f"not valid YAML: {problem}", file=file, line=line,
                        hint="check the indentation and quoting around this line") from None
    except yaml.reader.ReaderError as err:
        line = text[: err.position].count("\n") + 1 if isinstance(err.position, int) else None
        raise DataError(f"a control character (#x{err.character if isinstance(err.character, int) else 0:04x}) "
                        "is not allowed in YAML", file=file, line=line, hint="remove it") from None
    except yaml.YAMLError as err:
        raise DataError(f"not valid YAML: {err}", file=file) from None
    except RecursionError:
        raise DataError("nested too deeply", file=file, hint="check the indentation and brackets") from None
    except (ValueError, TypeError, OverflowError) as err:  # a value PyYAML could not build (a bad date...)
        raise DataError(f"not valid YAML: a value cannot be read ({type(err).__name__}: {err})", file=file,
                        hint="put the value in quotes") from None


def load_yaml_file(path: str | Path, kind: str = "card yaml") -> Any:
    """Read and parse a YAML file (no larger than ``cards.files.LIMITS[kind]``); unreadable,
    special, oversized, non-UTF-8 or malformed files raise ``DataError``."""
    return load_yaml_text(read_utf8(path, kind=kind), str(path))
