"""The reading layer (cards/files.py, cards/yamlio.py, cards/errors.py): docs/files.md."""
from __future__ import annotations

import os

import pytest

from cards.errors import DataError, clip, printable
from cards.files import MAX_DEPTH, check_lines, load_json_text, read_bytes
from cards.yamlio import load_yaml_text


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "deck.txt"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match=r"deck\.txt: the deck file is a pipe \(FIFO\), not a regular file"):
        read_bytes(fifo, "the deck file")


def test_devices_and_folders_are_refused(tmp_path):
    with pytest.raises(DataError, match="/dev/zero: the file is a device"):
        read_bytes("/dev/zero")
    link = tmp_path / "cards.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(DataError, match="is a device"):
        read_bytes(link)
    with pytest.raises(DataError, match="is a folder"):
        read_bytes(tmp_path)


def test_the_size_limit_is_checked_before_reading_and_named(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(3 * 1024 * 1024)
    with pytest.raises(DataError) as err:
        read_bytes(big, kind="deck")
    assert str(err.value) == f"{big}: the file is too large (3 MB; the limit is 1 MB) (check that this is the right file)"
    assert read_bytes(big, limit=4 * 1024 * 1024)[:1] == b"\x00"


def test_yaml_refuses_anchors_aliases_and_deep_nesting_with_the_line():
    laughs = "a: &a [x, x]\nb: [*a, *a]\n"
    with pytest.raises(DataError, match=r"^f\.yaml:1: an anchor \(&a\) is not allowed"):
        load_yaml_text(laughs, "f.yaml")
    with pytest.raises(DataError, match=r"^f\.yaml:2: an alias \(\*a\)"):
        load_yaml_text("a: 1\nb: *a\n", "f.yaml")
    with pytest.raises(DataError, match="nested too deeply"):
        load_yaml_text("a: " + "[" * 5000 + "]" * 5000, "f.yaml")
    assert load_yaml_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "f.yaml")
    with pytest.raises(DataError, match="a number with 5,000 digits"):
        load_yaml_text("a: " + "9" * 5000, "f.yaml")


def test_json_depth_and_number_limits_are_one_line_errors():
    for text, words in (("[" * 100_000 + "]" * 100_000, "nested too deeply"),
                        ('{"a": ' + "9" * 5000 + "}", "a number with 5,000 digits"),
                        ('{"a": NaN}', "NaN is not a number"),
                        ('{"a": 1,}', "not valid JSON")):
        with pytest.raises(DataError, match=words) as err:
            load_json_text(text, "x.json")
        assert str(err.value).startswith("x.json") and "\n" not in str(err.value)
    assert load_json_text('{"a": [1, 2.5, "x"]}', "x.json") == {"a": [1, 2.5, "x"]}


def test_a_long_line_is_reported_by_number_not_quoted():
    with pytest.raises(DataError) as err:
        check_lines("ok\n" + "x" * 500_000, "d.txt", 10_000, "the deck")
    assert str(err.value) == ("d.txt:2: line 2 is too long (500,000 characters; the limit is 10,000) "
                              "(check that the deck is the right file)")


def test_errors_are_one_printable_line_however_long_or_hostile_the_text():
    err = DataError(f"unknown card {chr(27)}[2J{'A' * 100_000!r}\nsecond line", file="d\x07.txt", line=3)
    text = str(err)
    assert "\x1b" not in text and "\x07" not in text and "\n" not in text
    assert text.startswith("d\\x07.txt:3: unknown card \\e[2J") and len(text) < 1000 and "characters cut" in text
    assert printable("a\u202eb\tc", keep="\t") == "a\\u202eb\tc"
    assert clip("x" * 500, 100).endswith("[430 characters cut]")
