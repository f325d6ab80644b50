"""Reading YAML data files safely, keeping line numbers for error messages.

``LineLoader`` is PyYAML's ``SafeLoader`` (no Python objects, no code) that
builds mappings as ``LineDict``: a plain dict that also knows the line of
itself and of each key, so a message can say ``deck.yaml:12: cost: ...``.
Card data is never code.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cards.errors import DataError
from cards.files import read_utf8


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
    """SafeLoader that records line numbers on mappings and sequences."""


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


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml_text(text: str, file: str = "<text>") -> Any:
    """Parse YAML text; any problem is a ``DataError`` naming the file and line."""
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
    except yaml.YAMLError as err:
        raise DataError(f"not valid YAML: {err}", file=file) from None


def load_yaml_file(path: str | Path) -> Any:
    """Read and parse a YAML file; unreadable, non-UTF-8 or malformed files raise ``DataError``."""
    return load_yaml_text(read_utf8(path), str(path))
