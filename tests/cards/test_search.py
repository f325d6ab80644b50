"""The card search language (cards/search.py) and ``python -m cards.pool search``."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cards import pool as poolmod
from cards.model import CardDef, CardPool
from cards.pool import practice_pool
from cards.search import MAX_DEPTH, QueryError, compile_query, printable, search
from engine.automation import card_status

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_caches():
    poolmod.clear_caches()
    yield
    poolmod.clear_caches()


def _pool() -> CardPool:
    pool = CardPool()
    for card in [
        CardDef(key="k1", name="Ser Dalt", type="character", house=("stark",), unique=True, cost=4,
                strength=4, icons=frozenset({"military", "power"}), traits=("Knight", "Lord"),
                keywords=("renown",), crest=("war",), set="Core", text="Kill a character."),
        CardDef(key="k2", name="Wall Archer", type="character", house=("stark", "baratheon"), cost=2,
                strength=1, icons=frozenset({"intrigue"}), traits=("Ranger",), keywords=("deadly",),
                doomed=True, set="Lords of Winter"),
        CardDef(key="k3", name="Gold Mine", type="location", cost=3, income=2, traits=("Mine",),
                keywords=("limited",), set="Core"),
        CardDef(key="k4", name="Grey Dawn", type="plot", income=5, initiative=2, claim=1, set="Core"),
        CardDef(key="k5", name="Ser Dalt", type="character", house=("stark",), unique=True, cost=5,
                strength=5, icons=frozenset({"military"}), traits=("Knight",), set="Lords of Winter",
                promo=True, legality=(("joust", "restricted"),)),
        CardDef(key="k6", name="X Spell", type="event", cost=0, cost_x=True, text="Draw X cards."),
        CardDef(key="k7", name="Lion Guard", type="character", house=("lannister",), cost=3, strength=3,
                icons=frozenset({"military", "intrigue"}), traits=("Guard", "Knighthood"), house_only="lannister",
                legality=(("joust", "banned"),)),
    ]:
        pool.add(card)
    return pool


def keys(query: str) -> list[str]:
    return [c.key for c in search(_pool(), query)]


@pytest.mark.parametrize("query, expected", [
    ("", ["k1", "k2", "k3", "k4", "k5", "k6", "k7"]),
    ("dalt", ["k1", "k5"]),
    ('"ser dalt"', ["k1", "k5"]),
    ('"Ser"', []),                             # a quoted phrase is the exact title
    ('t:character -"ser dalt"', ["k2", "k7"]),
    ("t:character h:stark", ["k1", "k2", "k5"]),
    ("t:char h:baratheon", ["k2"]),            # type prefix; a card of two Houses
    ("h:neutral", ["k3", "k4", "k6"]),
    ("cost>=3", ["k1", "k3", "k5", "k7"]),     # the plot (no cost) and X cost never compare
    ("cost:4", ["k1"]),
    ("cost=x", ["k6"]),
    ("str<4", ["k2", "k7"]),
    ("str!=4 t:character", ["k2", "k5", "k7"]),
    ("income>=2", ["k3", "k4"]),
    ("init:2 claim:1", ["k4"]),
    ("k:deadly", ["k2"]),
    ("kw:renown", ["k1"]),
    ("tr:knight", ["k1", "k5", "k7"]),         # prefix: Knighthood
    ('tr:"knight"', ["k1", "k5"]),             # quoted: exactly that trait
    ("i:military i:power", ["k1"]),
    ("i:m -i:p", ["k5", "k7"]),
    ("crest:war", ["k1"]),
    ("set:core", ["k1", "k3", "k4"]),
    ("set:winter", ["k2", "k5"]),
    ("is:unique", ["k1", "k5"]),
    ("is:doomed", ["k2"]),
    ("is:promo", ["k5"]),
    ("is:limited", ["k3"]),
    ("is:loyal", ["k7"]),
    ("not:unique t:character", ["k2", "k7"]),
    ("restricted:joust", ["k5"]),
    ("banned:joust", ["k7"]),
    ("legal:joust t:character", ["k1", "k2", "k5"]),
    ("text:kill", ["k1"]),
    ('text:"draw x"', ["k6"]),
    ("t:plot or t:location", ["k3", "k4"]),
    ("(t:plot or t:location) income>2", ["k4"]),
    ("-(h:stark or h:neutral)", ["k7"]),
    ("!h:stark t:character", ["k7"]),
    ("n:wall", ["k2"]),
    ("key:k6", ["k6"]),
])
def test_queries(query, expected):
    assert keys(query) == expected


def test_automation_status_terms():
    pool = practice_pool()
    automated = search(pool, "auto:yes", card_status)
    by_hand = search(pool, "auto:no", card_status) + search(pool, "auto:partial", card_status)
    assert automated and len(automated) + len(by_hand) == len(pool)
    assert {c.key for c in automated}.isdisjoint({c.key for c in by_hand})
    assert search(pool, "is:automated", card_status) == automated


@pytest.mark.parametrize("query", ["auto:yes", "is:manual", "t:character -is:partial"])
def test_status_terms_without_the_engines_status_are_refused(query):
    """cards/ does not import the engine: the status comes from the caller, or the term is refused."""
    with pytest.raises(QueryError, match="does not know how the engine plays cards"):
        compile_query(query)


@pytest.mark.parametrize("query, position, words", [
    ("foo:bar", 0, "unknown field 'foo'"),
    ("t:character cost>=three", 12, "needs a whole number"),
    ("h:tully", 0, "unknown House 'tully'"),
    ("i:gold", 0, "unknown icon"),
    ('"Ser Dalt', 0, "quote is not closed"),
    ("(t:plot", 0, "'(' is not closed"),
    ("t:plot)", 6, "unexpected ')'"),
    ("t:plot or", 9, "condition is missing"),
    ("auto:maybe", 0, "unknown status"),
    ("t<3", 0, "takes ':'"),
    ("is:shiny", 0, "unknown flag"),
])
def test_bad_queries_say_what_and_where(query, position, words):
    with pytest.raises(QueryError) as err:
        compile_query(query)
    assert words in err.value.message
    assert err.value.position == position


def test_printable_escapes_control_characters():
    assert printable("Bad\x1b[31mName\u202e") == "Bad\\x1b[31mName\\u202e"
    assert printable("Ser Dalt \u25c6") == "Ser Dalt \u25c6"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "cards.pool", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_cli_search_lists_matches():
    out = run_cli("search", "t:character h:stark is:unique")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    expected = search(practice_pool(), "t:character h:stark is:unique")
    assert len(lines) == len(expected) + 1
    assert lines[-1] == f"{len(expected)} cards match"
    for card, line in zip(expected, lines):
        assert card.name in line and card.key in line


def test_cli_search_escapes_names(tmp_path):
    cards = tmp_path / "odd.yaml"
    cards.write_text('format: 1\ncards:\n  - name: "Evil\\e[2JName"\n    type: event\n', encoding="utf-8")
    assert run_cli("import", str(cards)).returncode == 0
    out = run_cli("search", "evil")
    assert out.returncode == 0, out.stderr
    assert "Evil\\x1b[2JName" in out.stdout and "\x1b" not in out.stdout


def test_cli_bad_query_is_one_message():
    out = run_cli("search", "cost>=lots")
    assert out.returncode == 1
    assert out.stderr.startswith("error: cannot read the query 'cost>=lots'")
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("query", ["(" * 2000 + "dalt" + ")" * 2000, "- " * 3000 + "dalt",
                                   "-(" * 1000 + "dalt" + ")" * 1000])
def test_deeply_nested_queries_are_refused_with_a_message(query):
    with pytest.raises(QueryError) as err:
        compile_query(query)
    assert f"more than {MAX_DEPTH} deep" in err.value.message
    assert err.value.position == MAX_DEPTH if query.startswith("((") else err.value.position > 0


def test_nesting_up_to_the_limit_still_works():
    assert keys("(" * MAX_DEPTH + "grey" + ")" * MAX_DEPTH) == ["k4"]
    assert keys("- " * MAX_DEPTH + "grey") == ["k4"]  # an even number of '-' cancels out


def test_cli_deep_query_is_one_message():
    out = run_cli("search", "- " * 3000 + "dalt")
    assert out.returncode == 1
    assert f"more than {MAX_DEPTH} deep" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
