"""Reading the keyword line at the top of a card's rules text (KW-01) and "House X only" (DCK-04).

Keywords sit at the top of the text, as short sentences: ``Deadly. Renown.``. The
community data also puts other things there: the deck restriction ``House Stark
only.``, the income/influence/initiative symbols written ``[+1 Income]``,
``Limit 1 per deck.``, and keywords of later LCG sets the engine does not model
(``Ambush.``, ``Prized 2.``, ``No attachments except Item.``; ``No attachments except Weapon.``
is modelled). The block ends
at the first sentence that is none of these (an ability, usually ``Trigger: ...``);
a line made only of such sentences lets the block continue on the next line.

"House X only" restricts deck building wherever it stands as a sentence of its
own; "House X character only" (an attachment's restriction) does not, and the
keyword block reads past it (``Unique House X character only. Setup.``).

Example (invented text): ``"House Stark only. Deadly. Ambush.\\nAny Phase: ..."``
gives keywords ``deadly``, deck restriction ``stark`` and the unknown ``ambush``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.model import HOUSES
from cards.schema import NEUTRAL, normalise_keyword

_HOUSE_ONLY = re.compile(r"^house ([a-z]+)((?:(?:,| or|, or) (?:house )?[a-z]+)*) only$")
_NEUTRAL_ONLY = re.compile(r"^neutral faction(?: house card)? only$")
_EXCEPT = re.compile(r"^any house except (?:house )?([a-z]+)$")
_LIMIT = re.compile(r"^limit (\d+) per (?:plot )?deck$")
_SYMBOL = re.compile(r"\[\s*([+-]?\d+)\s+(income|influence|initiative)\s*\]", re.I)
_WORDISH = re.compile(r"^[a-z][a-z'-]*(?: \d+)?$")
_NO_ATTACHMENTS_EXCEPT = re.compile(r"^no (?:attachments except .+|[a-z]+ attachments)$")
_ATTACH_ONLY = re.compile(r"^[a-z0-9 '\[\]-]+ (?:character|location|card|attachment)s? only$")
"""An attachment's restriction ("House Stark character only"): skipped inside the keyword block."""
_SPLIT_HOUSES = re.compile(r",|\bor\b")


@dataclass
class KeywordBlock:
    """What the top of a card's text says, beyond its abilities."""

    keywords: list[str] = field(default_factory=list)
    """Keywords the engine models (``deadly``, ``immune to events`` ...), lower case."""
    unknown: list[str] = field(default_factory=list)
    """Keyword-like sentences the engine does not model, lower case (``ambush``, ``prized 1``)."""
    deck_houses: tuple[str, ...] = ()
    """From "House X only" / "House X or Y only" / "Any House except X" / "Neutral Faction only"."""
    unknown_restrictions: list[str] = field(default_factory=list)
    """"House X only" naming something that is not a Great House."""
    limit: int | None = None
    """From "Limit N per deck"."""
    symbols: dict[str, int] = field(default_factory=dict)
    """From ``[+N Income]`` style symbols: {"income": N, ...}."""


def _norm(sentence: str) -> str:
    return " ".join(sentence.replace("\u2019", "'").split()).lower()


def _sentences(line: str):
    """(kind, value) pieces of one line: ("symbol", match) or ("sentence", text)."""
    pos = 0
    n = len(line)
    while pos < n:
        while pos < n and line[pos].isspace():
            pos += 1
        if pos >= n:
            return
        m = _SYMBOL.match(line, pos)
        if m:
            yield "symbol", m
            pos = m.end()
            continue
        end = line.find(".", pos)
        if end < 0:
            end = n
        yield "sentence", line[pos:end]
        pos = end + 1


def deck_restriction(sentence: str) -> tuple[str, ...] | str | None:
    """The Houses a deck-building sentence allows, the unknown name it restricts to (a str), or None."""
    s = _norm(sentence).rstrip(".")
    m = _HOUSE_ONLY.match(s)
    if m:
        names = [m.group(1)] + [x.strip() for x in _SPLIT_HOUSES.split(m.group(2)) if x.strip()]
        names = [x[len("house "):] if x.startswith("house ") else x for x in names]
        if all(x in HOUSES for x in names):
            return tuple(dict.fromkeys(names))
        return s
    if _NEUTRAL_ONLY.match(s):
        return (NEUTRAL,)
    m = _EXCEPT.match(s)
    if m:
        if m.group(1) in HOUSES:
            return tuple(h for h in HOUSES if h != m.group(1)) + (NEUTRAL,)
        return s
    return None


def keep_unmodelled_keywords(text: str, keywords: str) -> str:
    """``text`` with the sentences of the keyword line ``keywords`` that the engine does not model
    (``Stalwart``, ``No attachments except Boon``, an unknown "House X only") put first, as a line
    of their own, unless the text's own keyword block already has them. For card data that keeps
    keywords apart from the text (AGoTDB, OCTGN): the card keeps them, shows them, and
    ``cards.report`` counts it as played by hand (partial) for them, as for the LCG text."""
    block = parse_keyword_block(" ".join((keywords or "").split()))
    have = parse_keyword_block(text or "")
    missing = [w for w in block.unknown + block.unknown_restrictions
               if w not in have.unknown and w not in have.unknown_restrictions]
    kept = [s.strip() for s in re.split(r"\.", " ".join((keywords or "").split())) if _norm(s) in missing]
    if not kept:
        return text
    line = ". ".join(dict.fromkeys(kept)) + "."
    return f"{line}\n{text}" if text else line


def parse_keyword_block(text: str) -> KeywordBlock:
    """Parse the top of ``text`` (see the module doc); never raises."""
    block = KeywordBlock()
    houses: list[str] = []

    def restrict(found) -> None:
        if isinstance(found, tuple):
            houses.extend(h for h in found if h not in houses)
        elif found not in block.unknown_restrictions:
            block.unknown_restrictions.append(found)

    lines = (text or "").splitlines()
    in_block = True
    for line in lines:
        if in_block:
            for kind, piece in _sentences(line):
                if kind == "symbol":
                    block.symbols[piece.group(2).lower()] = int(piece.group(1))
                    continue
                s = _norm(piece)
                if not s:
                    continue
                keyword = normalise_keyword(s)
                if keyword is not None:
                    if keyword not in block.keywords:
                        block.keywords.append(keyword)
                    continue
                found = deck_restriction(s)
                if found is not None:
                    restrict(found)
                    continue
                m = _LIMIT.match(s)
                if m:
                    block.limit = int(m.group(1))
                    continue
                if _ATTACH_ONLY.match(s):
                    continue
                if _WORDISH.match(s) or _NO_ATTACHMENTS_EXCEPT.match(s):
                    if s not in block.unknown:
                        block.unknown.append(s)
                    continue
                in_block = False
                break
            if in_block:
                continue
        # Past the keyword block: only a stand-alone "House X only." still counts.
        for sentence in re.split(r"[.\n]", line):
            if "only" in sentence.lower() or "except" in sentence.lower():
                found = deck_restriction(sentence)
                if found is not None:
                    restrict(found)
    block.deck_houses = tuple(houses)
    return block


# --- text that needs no ability data (the automation status reads these: engine.automation) -------

_STATUS_SYMBOL = re.compile(r"\[\s*[+-]?\d+\s+(?:income|influence|initiative)\s*\]", re.I)
_LIMIT_PER_DECK = re.compile(r"^limit \d+ per (?:plot )?deck$")


def text_sentences(text: str) -> list[str]:
    """The text's sentences, lower case, symbols removed (a line break also ends a sentence)."""
    out = []
    for line in (text or "").splitlines():
        line = _STATUS_SYMBOL.sub(".", line)
        for piece in line.split("."):
            s = " ".join(piece.replace("\u2019", "'").split()).lower()
            if s:
                out.append(s)
    return out


def needs_no_ability(sentence: str) -> bool:
    """True when the engine handles ``sentence`` (lower case) without ability data: a keyword it
    models, a deck restriction, "Limit N per deck", an attachment restriction."""
    return (normalise_keyword(sentence) is not None or deck_restriction(sentence) is not None
            or bool(_LIMIT_PER_DECK.match(sentence)) or bool(_ATTACH_ONLY.match(sentence)))


def needs_no_abilities(text: str) -> bool:
    """True when every sentence of ``text`` is handled without ability data (an empty text too)."""
    return all(needs_no_ability(s) for s in text_sentences(text))


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs: its non-empty lines, in order (numbered from 1)."""
    return [line for line in (text or "").splitlines() if line.strip()]


def unmodelled_keywords(text: str) -> list[str]:
    """Keyword-like sentences at the top of ``text`` that the engine does not model."""
    return list(parse_keyword_block(text or "").unknown)
