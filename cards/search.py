"""The card search language of the browser and ``python -m cards.pool search QUERY``.

Like the deckbuilders' search boxes: words narrow the list down, each one a condition
every card shown must meet. docs/decks.md has the full table.

>>> from cards.model import CardDef, CardPool
>>> pool = CardPool()
>>> for c in [CardDef(key="a", name="Wall Guard", type="character", house=("stark",), cost=2,
...                   strength=2, icons=frozenset({"military"}), traits=("Knight",)),
...           CardDef(key="b", name="Grey Dawn", type="plot", income=5)]:
...     pool.add(c)
>>> [c.name for c in search(pool, "t:character h:stark cost<=2 tr:knight")]
['Wall Guard']
>>> [c.name for c in search(pool, "income>=5 or i:m")]
['Wall Guard', 'Grey Dawn']

Grammar: ``query := and ('or' and)*``, ``and := unary+``, ``unary := '-' unary | '(' query ')' | term``;
a term is a bare word (in the title), ``"a phrase"`` (the exact title), ``field:value``,
``field=value`` or a number comparison ``field<N`` / ``<=`` / ``>`` / ``>=`` / ``!=``.
Bad queries raise ``QueryError`` naming the position and what to write instead; so does a query
that nests ``(`` and ``-`` more than ``MAX_DEPTH`` deep (reading and matching it would
otherwise exhaust Python's stack).
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Callable, Iterable

from cards.model import CRESTS, HOUSES, ICONS, TYPES, CardDef, CardPool

Predicate = Callable[[CardDef], bool]
StatusOf = Callable[[CardDef], str]
"""How the engine plays a card: ``automated``, ``partial`` or ``manual`` (``engine.automation.card_status``,
injected by the caller: ``cards/`` does not import the engine's ability parser)."""

MAX_DEPTH = 50
"""How deep ``(`` and ``-`` may nest in one query (a deeper one is refused with a message)."""


class QueryError(ValueError):
    """A query that cannot be read: ``message`` says what and where (``position``, 0-based)."""

    def __init__(self, message: str, position: int, hint: str = ""):
        self.message, self.position, self.hint = message, position, hint
        super().__init__(f"{message} (at character {position + 1})" + (f"; {hint}" if hint else ""))


# field aliases -> canonical field
_NUMERIC = {
    "cost": "cost", "c": "cost", "gold": "cost",
    "str": "strength", "strength": "strength", "s": "strength",
    "income": "income", "inc": "income",
    "init": "initiative", "initiative": "initiative",
    "claim": "claim", "cl": "claim",
    "inf": "influence", "influence": "influence",
    "limit": "deck_limit",
}
_TEXT_FIELDS = {
    "t": "type", "type": "type",
    "h": "house", "house": "house", "f": "house", "faction": "house",
    "k": "keyword", "kw": "keyword", "keyword": "keyword",
    "tr": "trait", "trait": "trait",
    "i": "icon", "icon": "icon",
    "crest": "crest", "cr": "crest",
    "set": "set", "e": "set",
    "text": "text", "x": "text", "o": "text",
    "n": "name", "name": "name",
    "key": "key", "id": "key",
    "is": "is", "not": "not",
    "auto": "auto", "status": "auto",
    "legal": "legal", "banned": "banned", "restricted": "restricted",
}
_IS_FLAGS = ("unique", "doomed", "endless", "promo", "neutral", "automated", "partial", "manual",
             "limited", "loyal", "restricted", "banned")
_ICON_ALIASES = {"m": "military", "mil": "military", "i": "intrigue", "int": "intrigue", "p": "power",
                 "pow": "power"}
_TYPE_ALIASES = {"char": "character", "loc": "location", "att": "attachment", "attach": "attachment",
                 "ev": "event", "house card": "house"}
_AUTO_VALUES = {"yes": "automated", "y": "automated", "automated": "automated", "auto": "automated",
                "partial": "partial", "part": "partial",
                "no": "manual", "n": "manual", "manual": "manual", "hand": "manual", "byhand": "manual",
                "by-hand": "manual"}

FIELDS_HELP = (
    "fields: t: type, h: House, cost, str, income, init, claim, inf (with : = < <= > >= !=), "
    "k: keyword, tr: trait, i: icon, crest:, set:, text:, n: name, is:unique|doomed|promo|endless|"
    "neutral|limited|loyal|restricted|banned, auto:yes|partial|no; -term negates, 'or' between terms")


@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "quoted", "(", ")", "-", "or"
    text: str
    pos: int
    quoted_value: bool = False


_TOKEN = re.compile(r'\s*(?:(?P<paren>[()])|(?P<quoted>"[^"]*"?)|(?P<word>(?:[^\s()"]|"[^"]*"?)+))')


def _tokens(query: str) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while pos < len(query):
        m = _TOKEN.match(query, pos)
        if m is None or m.end() == pos:
            break
        start = m.start(m.lastgroup) if m.lastgroup else pos
        if m["paren"]:
            out.append(_Token(m["paren"], m["paren"], start))
        elif m["quoted"] is not None:
            text = m["quoted"]
            if len(text) < 2 or not text.endswith('"'):
                raise QueryError("a quote is not closed", start, 'end the phrase with "')
            out.append(_Token("quoted", text[1:-1], start))
        else:
            word = m["word"]
            if word in ("-", "!"):
                out.append(_Token("-", word, start))
            elif word.casefold() == "or":
                out.append(_Token("or", word, start))
            elif word.startswith("-") and len(word) > 1:
                out.append(_Token("-", "-", start))
                out.append(_Token("word", word[1:], start + 1))
            elif word.startswith("!") and len(word) > 1:
                out.append(_Token("-", "!", start))
                out.append(_Token("word", word[1:], start + 1))
            else:
                out.append(_Token("word", word, start))
        pos = m.end()
    return out


_unmodelled_cache: "weakref.WeakKeyDictionary[CardDef, tuple[str, ...]]" = weakref.WeakKeyDictionary()


def unmodelled_keywords(card: CardDef) -> tuple[str, ...]:
    """The keywords at the top of the card's text that the engine does not model (``stalwart``),
    lower case, cached per card object: ``k:`` finds them too."""
    got = _unmodelled_cache.get(card)
    if got is None:
        from cards.importers.textparse import parse_keyword_block

        got = _unmodelled_cache[card] = tuple(parse_keyword_block(card.text).unknown)
    return got


def _set_words(card: CardDef) -> list[str]:
    from cards.sets import printing_set

    words = [card.set.casefold()] if card.set else []
    for printing in card.printings:
        code = printing.partition(" ")[0]
        words.append(code.casefold())
        info = printing_set(printing)
        if info is not None:
            words += [info.code.casefold(), info.name.casefold()]
    return words


def _compare(op: str, a: int, b: int) -> bool:
    return {"=": a == b, ":": a == b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
            "!=": a != b}[op]


_TERM = re.compile(r"^(?P<field>[A-Za-z_]+)(?P<op><=|>=|!=|:|=|<|>)(?P<value>.*)$")


def _number_term(name: str, op: str, value: str, pos: int) -> Predicate:
    attr = _NUMERIC[name]
    text = value.strip().strip('"')
    if attr in ("cost", "strength") and text.casefold() == "x":
        if op not in (":", "="):
            raise QueryError(f"{name} X can only be compared with = ", pos, f"write {name}:x")
        if attr == "strength":
            return lambda c: c.strength_x
        return lambda c: c.cost_x
    try:
        n = int(text)
    except ValueError:
        raise QueryError(f"{name}{op} needs a whole number, not {text!r}", pos,
                         f"e.g. {name}{op}3") from None

    def pred(card: CardDef) -> bool:
        if attr == "strength" and (card.type != "character" or card.strength_x):
            return False
        if attr == "cost":
            if card.cost is None or card.cost_x:
                return False
            return _compare(op, card.cost, n)
        v = getattr(card, attr)
        return v is not None and _compare(op, v, n)

    return pred


def _one_of(value: str, known: Iterable[str], aliases: dict[str, str], what: str, pos: int) -> str:
    v = value.casefold()
    v = aliases.get(v, v)
    known = tuple(known)
    if v in known:
        return v
    starts = [k for k in known if k.startswith(v)]
    if len(starts) == 1:
        return starts[0]
    raise QueryError(f"unknown {what} {value!r}", pos, "use one of " + ", ".join(known))


def _text_term(name: str, op: str, value: str, pos: int, status: StatusOf | None) -> Predicate:
    field = _TEXT_FIELDS[name]
    if op not in (":", "="):
        raise QueryError(f"{name} takes ':' (not {op!r})", pos, f"write {name}:{value}")
    raw = value
    exact = len(raw) >= 2 and raw.startswith('"') and raw.endswith('"')
    v = raw.strip('"').casefold()
    if not v:
        raise QueryError(f"{name}: needs a value", pos, FIELDS_HELP)
    if field == "type":
        t = _one_of(v, TYPES, _TYPE_ALIASES, "card type", pos)
        return lambda c: c.type == t
    if field == "house":
        h = _one_of(v, (*HOUSES, "neutral"), {}, "House", pos)
        if h == "neutral":
            return lambda c: c.is_neutral
        return lambda c: h in c.house
    if field == "icon":
        icon = _one_of(v, ICONS, _ICON_ALIASES, "icon", pos)
        return lambda c: icon in c.icons
    if field == "crest":
        crest = _one_of(v, CRESTS, {}, "crest", pos)
        return lambda c: crest in c.crest
    if field == "keyword":
        return lambda c: any(v in k.casefold() for k in c.keywords) or any(v in k for k in unmodelled_keywords(c))
    if field == "trait":
        if exact:
            return lambda c: any(t.casefold() == v for t in c.traits)
        return lambda c: any(t.casefold() == v or t.casefold().startswith(v) for t in c.traits)
    if field == "set":
        return lambda c: any(v == w or (not exact and v in w) for w in _set_words(c))
    if field == "text":
        return lambda c: v in c.text.casefold()
    if field == "name":
        if exact:
            return lambda c: c.name.casefold() == v
        return lambda c: v in c.name.casefold()
    if field == "key":
        return lambda c: c.key.casefold() == v
    if field == "auto":
        want = _AUTO_VALUES.get(v)
        if want is None:
            raise QueryError(f"unknown status {value!r}", pos, "use auto:yes, auto:partial or auto:no")
        return _status_is(want, status, pos)
    if field in ("legal", "banned", "restricted"):
        fmt = v
        if field == "legal":
            return lambda c: c.legal_in(fmt) != "banned"
        return lambda c: c.legal_in(fmt) == field
    # is: / not:
    flag = _one_of(v, _IS_FLAGS, {"auto": "automated", "by-hand": "manual", "byhand": "manual"}, "flag", pos)
    pred = _status_is(flag, status, pos) if flag in _STATUSES else _FLAG[flag]
    if field == "not":
        return lambda c: not pred(c)
    return pred


_FLAG: dict[str, Predicate] = {
    "unique": lambda c: c.unique,
    "doomed": lambda c: c.doomed,
    "endless": lambda c: c.endless,
    "promo": lambda c: c.promo,
    "neutral": lambda c: c.is_neutral and c.type not in ("plot", "agenda"),
    "limited": lambda c: c.has_keyword("limited"),
    "loyal": lambda c: bool(c.house_only or c.deck_houses),
    "restricted": lambda c: any(s == "restricted" for _, s in c.legality),
    "banned": lambda c: any(s == "banned" for _, s in c.legality),
}


_STATUSES = ("automated", "partial", "manual")


def _status_is(want: str, status: StatusOf | None, pos: int) -> Predicate:
    if status is None:
        raise QueryError("this search does not know how the engine plays cards", pos,
                         "search from the table or with python -m cards.pool search")
    return lambda c: status(c) == want


def _term(token: _Token, status: StatusOf | None) -> Predicate:
    text = token.text
    if token.kind == "word" and len(text) >= 2 and text.startswith('"') and text.endswith('"') \
            and '"' not in text[1:-1]:
        token = _Token("quoted", text[1:-1], token.pos)  # -"Exact Name"
    if token.kind == "quoted":
        phrase = " ".join(token.text.split()).casefold()
        if not phrase:
            return lambda c: True
        return lambda c: c.name.casefold() == phrase
    m = _TERM.match(token.text)
    if m is not None:
        name = m["field"].casefold()
        op, value = m["op"], m["value"]
        if name in _NUMERIC:
            if not value:
                raise QueryError(f"{name}{op} needs a number", token.pos, f"e.g. {name}{op}3")
            return _number_term(name, op, value, token.pos)
        if name in _TEXT_FIELDS:
            return _text_term(name, op, value, token.pos, status)
        if op == ":":
            raise QueryError(f"unknown field {m['field']!r}", token.pos, FIELDS_HELP)
    word = token.text.casefold()
    return lambda c: word in c.name.casefold()


class _Parser:
    def __init__(self, query: str, status: StatusOf | None):
        self.query, self.status = query, status
        self.tokens = _tokens(query)
        self.i = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def parse(self) -> Predicate:
        if not self.tokens:
            return lambda c: True
        pred = self.or_expr()
        extra = self.peek()
        if extra is not None:
            raise QueryError(f"unexpected {extra.text!r}", extra.pos, "a ')' has no '(' before it")
        return pred

    def or_expr(self) -> Predicate:
        parts = [self.and_expr()]
        while (t := self.peek()) is not None and t.kind == "or":
            self.take()
            parts.append(self.and_expr())
        if len(parts) == 1:
            return parts[0]
        return lambda c: any(p(c) for p in parts)

    def and_expr(self) -> Predicate:
        parts = []
        while (t := self.peek()) is not None and t.kind not in ("or", ")"):
            parts.append(self.unary())
        if not parts:
            t = self.peek()
            pos = t.pos if t is not None else len(self.query)
            raise QueryError("a condition is missing", pos, "write a term on both sides of 'or' and inside ( )")
        if len(parts) == 1:
            return parts[0]
        return lambda c: all(p(c) for p in parts)

    def nested(self, t: _Token, read: Callable[[], Predicate]) -> Predicate:
        """``read()`` one level deeper, refusing a query nested more than ``MAX_DEPTH`` deep."""
        if self.depth >= MAX_DEPTH:
            raise QueryError(f"the query nests '(' and '-' more than {MAX_DEPTH} deep", t.pos,
                             "remove some parentheses or '-' signs")
        self.depth += 1
        try:
            return read()
        finally:
            self.depth -= 1

    def unary(self) -> Predicate:
        t = self.take()
        if t.kind == "-":
            if self.peek() is None:
                raise QueryError("'-' needs a term after it", t.pos, "e.g. -h:stark")
            inner = self.nested(t, self.unary)
            return lambda c: not inner(c)
        if t.kind == "(":
            inner = self.nested(t, self.or_expr)
            close = self.peek()
            if close is None or close.kind != ")":
                raise QueryError("'(' is not closed", t.pos, "add a ')'")
            self.take()
            return inner
        if t.kind == ")":
            raise QueryError("unexpected ')'", t.pos, "a ')' has no '(' before it")
        return _term(t, self.status)


def compile_query(query: str, status: StatusOf | None = None) -> Predicate:
    """A predicate for ``query``; a query that cannot be read raises ``QueryError``. ``status``
    answers the ``auto:`` / ``is:automated`` terms (without it they are refused)."""
    return _Parser(query, status).parse()


def search(cards: CardPool | Iterable[CardDef], query: str, status: StatusOf | None = None) -> list[CardDef]:
    """The cards matching ``query``, in pool order (``status``: see ``compile_query``)."""
    pred = compile_query(query, status)
    return [c for c in cards if pred(c)]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with control characters (and bidirectional overrides) shown as ``\\xNN`` /
    ``\\uNNNN``, safe to print on a terminal."""
    def esc(m: re.Match) -> str:
        ch = m.group(0)
        return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"

    return _CONTROL.sub(esc, text)


def card_line(card: CardDef, status: StatusOf | None = None) -> str:
    """One card in a line, for the command line: key, title, type, House, cost, STR, icons, set, and
    how the engine plays it (when ``status`` is given)."""
    cost = "X" if card.cost_x else ("-" if card.cost is None else str(card.cost))
    stats = f"cost {cost}"
    if card.type == "character":
        icons = "".join(i[0].upper() for i in ICONS if i in card.icons) or "-"
        strength = "X" if card.strength_x else (card.strength if card.strength is not None else "-")
        stats += f" STR {strength} {icons}"
    elif card.type == "plot":
        stats = f"income {card.income} init {card.initiative} claim {card.claim}"
    house = "/".join(h.capitalize() for h in card.house) or "Neutral"
    unique = "\u25c6 " if card.unique else ""
    return printable(f"{card.key:<14} {unique}{card.name}  [{card.type}, {house}; {stats}; "
                     f"{card.set or '-'}" + (f"; {status(card)}" if status else "") + "]")
