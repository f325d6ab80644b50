"""``python -m cards.deck check``: exit 0 legal, 1 illegal or bad input (one message, no traceback), 2 usage.

The pool is tests/cards/deck_fixtures/pool.yaml (invented cards) merged over the default pool.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "deck_fixtures"
POOL = FIXTURES / "pool.yaml"


def run(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "cards.deck", *map(str, args)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout
    return result


def check(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return run("check", path, "--pool", POOL, *extra)


def assert_one_error(result: subprocess.CompletedProcess, *fragments: str) -> str:
    """Bad input: exit 1, nothing on stdout, exactly one 'error:' line naming the file."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("name", ["legal.txt", "legal.o8d", "legal-builder.txt"])
def test_legal_deck_exits_0(name):
    result = check(FIXTURES / name)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert result.stdout.splitlines() == [
        "Fenmoor Legal: legal (joust, tournament); House Stark, 7 plots, 60 House-deck cards"]
    assert result.stderr == ""


def test_DCK_01_six_plots_exits_1():
    result = check(FIXTURES / "six-plots.txt")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "DCK-01: the plot deck has 6 cards; it needs exactly 7"
    assert lines[-1].startswith("Six Plots: NOT legal (joust, tournament): 1 problem;")
    assert len(lines) == 2


def test_DCK_05_promo_exits_1_but_passes_casual():
    result = check(FIXTURES / "promo.txt")
    assert result.returncode == 1 and result.stdout.startswith("DCK-05: 'Gilded Envoy of Fenmoor'")
    casual = check(FIXTURES / "promo.txt", "--casual")
    assert casual.returncode == 0 and "legal (joust, casual)" in casual.stdout


def test_DCK_07_two_restricted_cards_exit_1_but_pass_casual():
    result = check(FIXTURES / "two-restricted.txt")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith("DCK-07: 2 cards from the joust restricted list")
    assert check(FIXTURES / "two-restricted.txt", "--casual").returncode == 0
    assert check(FIXTURES / "two-restricted.txt", "--format", "melee").returncode == 0


def test_ambiguous_title_is_a_note_on_stderr(tmp_path):
    path = tmp_path / "ferry.txt"
    path.write_text((FIXTURES / "legal.txt").read_text(encoding="utf-8") + "1x Wandering Ferryman\n",
                    encoding="utf-8")
    result = check(path)
    assert result.returncode == 0
    assert result.stderr.startswith("note: ") and "'Wandering Ferryman' matches 2 printings" in result.stderr


# --------------------------------------------------------------------------- malformed files

def legal_text() -> str:
    return (FIXTURES / "legal.txt").read_text(encoding="utf-8")


def legal_o8d() -> str:
    return (FIXTURES / "legal.o8d").read_text(encoding="utf-8")


def test_truncated_xml(tmp_path):
    path = tmp_path / "cut.o8d"
    text = legal_o8d()
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    assert_one_error(check(path), str(path), "not well-formed XML", "export the deck again")


def test_garbled_xml(tmp_path):
    path = tmp_path / "garbled.o8d"
    path.write_text(legal_o8d().replace("</section>", "</sektion>", 1), encoding="utf-8")
    line = assert_one_error(check(path), "not well-formed XML: mismatched tag")
    assert f"{path}:5:" in line


def test_wrong_quantity_type_in_xml(tmp_path):
    path = tmp_path / "qty.o8d"
    path.write_text(legal_o8d().replace('qty="3"', 'qty="three"', 1), encoding="utf-8")
    assert_one_error(check(path), f"{path}:10: qty: bad quantity 'three'")


@pytest.mark.parametrize("line", ["0x Fenmoor Lancer", "-2x Fenmoor Lancer", "1.5x Fenmoor Lancer"])
def test_bad_quantity_in_text(tmp_path, line):
    path = tmp_path / "qty.txt"
    path.write_text(legal_text() + line + "\n", encoding="utf-8")
    assert_one_error(check(path), f"{path}:", "bad quantity")


def test_unknown_card_name(tmp_path):
    path = tmp_path / "typo.txt"
    path.write_text(legal_text().replace("3x Fenmoor Archer", "3x Fenmore Archer"), encoding="utf-8")
    assert_one_error(check(path), f"{path}:", "unknown card 'Fenmore Archer'", "did you mean 'Fenmoor Archer'")


def test_plot_in_the_house_deck_section(tmp_path):
    path = tmp_path / "misplaced.txt"
    path.write_text(legal_text() + "1x Thornwall Reckoning\n", encoding="utf-8")
    assert_one_error(check(path), "'Thornwall Reckoning' is a plot and cannot go in the House deck")


def test_bad_encoding(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(legal_text().replace("Fenmoor Lancer", "Fenmoor L\xe2ncer").encode("latin-1"))
    assert_one_error(check(path), f"{path}:", "not UTF-8 text", "save the deck as UTF-8")


@pytest.mark.parametrize("content", [b"", b"\n  \n"])
def test_empty_file(tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    assert_one_error(check(path), str(path), "the deck file is empty")


def test_empty_o8d(tmp_path):
    path = tmp_path / "empty.o8d"
    path.write_bytes(b"")
    assert_one_error(check(path), "the deck file is empty")


def test_builder_row_with_bad_columns(tmp_path):
    path = tmp_path / "rows.txt"
    text = (FIXTURES / "legal-builder.txt").read_text(encoding="utf-8")
    path.write_text(text.replace("dt_c11 | 3 | Fenmoor Lancer", "dt_c11 | 3"), encoding="utf-8")
    assert_one_error(check(path), "not an 'id | qty | name' row")


def test_missing_deck_file(tmp_path):
    assert_one_error(check(tmp_path / "nope.txt"), "cannot read the deck file")


def test_bad_pool_file(tmp_path):
    pool = tmp_path / "pool.yaml"
    pool.write_text("format: 1\ncards:\n  - {name: Broken, type: caracter}\n", encoding="utf-8")
    result = run("check", FIXTURES / "legal.txt", "--pool", pool)
    assert_one_error(result, str(pool), "unknown card type")


# --------------------------------------------------------------------------- usage

@pytest.mark.parametrize("args", [[], ["check"], ["verify", "x.txt"], ["check", "x.txt", "--bogus"],
                                  ["check", "x.txt", "--format", "sealed"]])
def test_usage_errors_exit_2(args):
    result = run(*args)
    assert result.returncode == 2
    assert "usage:" in result.stderr


def test_help_exits_0():
    result = run("check", "--help")
    assert result.returncode == 0 and "--casual" in result.stdout
