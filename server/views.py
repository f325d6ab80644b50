"""What one seat (or a spectator) is sent: the game as ``engine.visibility`` lets it see, with per-view ids.

Which cards a viewer may see is decided by ``engine.visibility.visible_cards`` and nothing else; this
module only shapes the state it is allowed to send:

- **Ids.** Engine card ids are never sent (they are numbered in deck-list order, so they would tell
  what a hidden card is). A card the viewer may see gets a random id that stays the same while he keeps
  seeing it; when it goes where he cannot see it (a hand, a deck, facedown) the id is forgotten, and it
  gets a new one if it comes back. A hidden card gets a new random id in every view, so nothing follows
  a hidden card between views or zones. Answers come back with view ids and are translated here
  (``Viewer.to_engine``); the mapping lives only in the server's memory.
- **Hidden cards** carry the key ``hidden`` and nothing that tells them apart (no label, tokens, note,
  X); piles of hidden cards are listed in the order of their random ids (random), except the top cards a
  seat is looking at.
- **No seed, no random state, no counters keyed by card**: nothing that predicts a shuffle or a draw.
- **Text** (the log, a decision's prompt, a refusal) naming the title of a card the viewer may not see,
  and has never seen a card of, has that title replaced by ``a hidden card`` (``Viewer.scrub``).
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable

import msgspec

from engine.advise import MOVE_FIELDS
from engine.decisions import ANSWER_FIELDS, CardId, Decision, Either, ListOf, MapOf, Shape
from engine.game import Game
from engine.visibility import HIDDEN_KEY, visible_cards

MAX_VIEW_ID = 2**31 - 1
HIDDEN_TEXT = "a hidden card"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def map_by_shape(value: Any, shape: Shape, f: Callable[[int], Any]) -> Any:
    """``value`` with every card id (as ``shape`` types it: engine.decisions) passed through ``f``."""
    if isinstance(shape, CardId):
        return f(value) if _is_int(value) else value
    if isinstance(shape, Either):
        for s in shape.shapes:
            if isinstance(s, ListOf) and isinstance(value, list) or isinstance(s, MapOf) and isinstance(value, dict) \
                    or isinstance(s, CardId) and _is_int(value):
                return map_by_shape(value, s, f)
        return value
    if isinstance(shape, ListOf) and isinstance(value, list):
        return [map_by_shape(v, shape.item, f) for v in value]
    if isinstance(shape, MapOf) and isinstance(value, dict):
        return {map_by_shape(k, shape.key, f): map_by_shape(v, shape.value, f) for k, v in value.items()}
    return value


def map_answer(answer: Any, f: Callable[[int], Any], fields: dict | None = None) -> Any:
    """An answer (or, with ``fields=MOVE_FIELDS``, a free move) with its card ids passed through ``f``.
    Keys the command does not take are left alone (the engine refuses them)."""
    if not isinstance(answer, dict):
        return answer
    if fields is None:
        cmd = next((k for k in answer if isinstance(k, str) and k in ANSWER_FIELDS), None)
        table = ANSWER_FIELDS.get(cmd, {}) if cmd else {}
    else:
        kind = next((k for k in fields if k in answer), None)
        table = fields.get(kind, {}) if kind else {}
    return {k: (map_by_shape(v, table[k], f) if isinstance(k, str) and k in table else v)
            for k, v in answer.items()}


def map_move(move: Any, f: Callable[[int], Any]) -> Any:
    return map_answer(move, f, MOVE_FIELDS)


_UNKNOWN = object()


class UnknownCard(Exception):
    """An answer names a view id the seat was never sent (or that no longer means a card)."""

    def __init__(self, vid: Any, hidden: bool = False):
        super().__init__(f"card {vid}: you cannot see that card" if hidden else f"there is no card {vid} on your table")


def card_def(d) -> dict:
    """A card definition as plain data for a client (its source file left out; its abilities kept, so the
    table knows which of its text the engine plays). Only ever sent for cards the viewer sees."""
    out = msgspec.to_builtins(d, order="sorted")
    out.pop("source", None)
    return out


class Viewer:
    """One seat's (``seat``; None: spectators) ids and knowledge in one game."""

    def __init__(self, seat: str | None, *, unsafe: bool = False):
        self.seat = seat
        self.unsafe = unsafe
        """Test hook: no filtering at all (every card seen, engine ids). The leak test must fail with it."""
        self.stable: dict[int, int] = {}
        """engine id -> view id of the cards this viewer sees now."""
        self.frame: dict[int, int] = {}
        """view id -> engine id of the last view built (hidden ids included): answers are read with it."""
        self.known_names: set[str] = set()
        """Titles of every card this viewer has been shown (text naming them is not scrubbed)."""
        self.secret_names: list[str] = []
        self._ids: list[int] = []

    # -- ids ------------------------------------------------------------------------------------------
    def _new_id(self, used: set[int]) -> int:
        """A fresh random id (from the operating system's secure generator: ids drawn from a predictable
        generator would tell the order they were drawn in, which is the engine's id order)."""
        while True:
            if not self._ids:
                raw = os.urandom(4 * 256)
                self._ids = [int.from_bytes(raw[i:i + 4], "big") & MAX_VIEW_ID for i in range(0, len(raw), 4)]
            v = self._ids.pop()
            if v and v not in used:
                used.add(v)
                return v

    def forget_hidden(self, seen: set[int]) -> None:
        """Forget the ids of cards the viewer no longer sees. Done at every view built (after every change
        of the game while the viewer is connected); a viewer with no connection forgets every id
        (``forget_all``), so an id never follows a card through a stretch the viewer did not see."""
        for eid in [e for e in self.stable if e not in seen]:
            del self.stable[eid]

    def forget_all(self) -> None:
        self.stable.clear()
        self.frame.clear()

    def to_engine(self, vid: Any) -> int:
        if self.unsafe:
            return vid
        eid = self.frame.get(vid, _UNKNOWN) if _is_int(vid) else _UNKNOWN
        if eid is _UNKNOWN:
            raise UnknownCard(vid)
        return eid

    # -- text -----------------------------------------------------------------------------------------
    def scrub(self, text: str) -> str:
        if self.unsafe:
            return text
        for name in self.secret_names:
            if name in text:
                text = text.replace(name, HIDDEN_TEXT)
        return text

    def scrub_engine_ids(self, text: str, used: dict[int, Any]) -> str:
        """A refusal names a hidden card it was sent as ``card <engine id>``: put the view id back."""
        if self.unsafe or not used:
            return text
        return re.sub(r"\bcard (\d+)\b", lambda m: f"card {used.get(int(m[1]), '?')}", text)

    # -- the view -------------------------------------------------------------------------------------
    def build(self, game: Game, d: dict | None = None) -> tuple[dict, set[str]]:
        """The state as this viewer may see it (``GameState.to_dict`` shape) and the keys of the cards it
        shows face up. ``d``: a fresh copy of ``game.state.to_dict()`` to shape (it is changed)."""
        st = game.state
        d = st.to_dict() if d is None else d
        if self.unsafe:
            self.frame = {cid: cid for cid in st.cards}
            d["log"] = []
            return d, {c.key for c in st.cards.values()}
        seen = visible_cards(game, self.seat)
        self.forget_hidden(seen)
        used = set(self.stable.values())
        ids: dict[int, int] = {}
        for eid in st.cards:
            if eid in seen:
                vid = self.stable.get(eid)
                if vid is None:
                    vid = self.stable[eid] = self._new_id(used)
            else:
                vid = self._new_id(used)
            ids[eid] = vid
        self.frame = {v: e for e, v in ids.items()}

        def m(eid):
            return ids.get(eid) if _is_int(eid) else None

        cards = {}
        keys = set()
        for eid, c in d["cards"].items():
            eid = int(eid)
            c["id"] = ids[eid]
            c["attached_to"] = m(c["attached_to"])
            c["attachments"] = [m(x) for x in c["attachments"]]
            c["duplicates"] = [m(x) for x in c["duplicates"]]
            if eid in seen:
                keys.add(c["key"])
            else:
                c.update(key=HIDDEN_KEY, label=None, x=0)
                c.pop("tokens", None)
                c.pop("note", None)
            cards[str(ids[eid])] = c
        d["cards"] = dict(sorted(cards.items(), key=lambda kv: int(kv[0])))
        me = self.seat
        for p in d["players"]:
            for zone in ("discard", "dead", "used_plots", "in_play", "played"):
                p[zone] = [ids[x] for x in p[zone]]
            for zone in ("revealed_plot", "house_card", "agenda"):
                p[zone] = m(p[zone])
            deck = p["deck"]
            n = 0
            while n < len(deck) and deck[n] in seen:  # the top cards being looked at keep their order
                n += 1
            p["deck"] = [ids[x] for x in deck[:n]] + sorted(ids[x] for x in deck[n:])
            for zone in ("hand", "plot_deck"):
                if p["name"] == me:
                    p[zone] = [ids[x] for x in p[zone]]
                else:
                    p[zone] = sorted((ids[x] for x in p[zone]), key=lambda v: (self.frame[v] not in seen, v))
        ch = d.get("challenge")
        if ch:
            ch["attackers"] = [m(x) for x in ch["attackers"]]
            ch["defenders"] = [m(x) for x in ch["defenders"]]
            ch["stealth"] = {str(m(int(k))): m(v) for k, v in ch["stealth"].items()}
        d["effects"] = [dict(e, target=m(e["target"]), source=m(e["source"])) for e in d["effects"]
                        if m(e["target"]) is not None]
        windows = [{"kind": w["kind"], "name": w["name"], "initiator": w["initiator"], "step": w["step"]}
                   for w in d["windows"]]
        d["reducers"] = [{"player": r.get("player"), "amount": r.get("amount"), "until": r.get("until"),
                          "source": m(r.get("source"))} for r in d["reducers"]]
        d["granted"] = [{"card": m(g.get("card")), "ability": g.get("ability"), "player": g.get("player"),
                         "until": g.get("until")} for g in d["granted"]]
        if "revealed" in d:
            d["revealed"] = [m(x) for x in d["revealed"]]
        d.setdefault("seed", 0)
        d["counters"] = {k: v for k, v in d["counters"].items() if not re.search(r"\d", k)}
        d.update(seed=0, rng_state=None, next_id=0, log=[])
        names = {game.pool[st.cards[e].key].name for e in seen if st.cards[e].key in game.pool}
        self.known_names |= names
        secret = {game.pool[c.key].name for e, c in st.cards.items() if e not in seen and c.key in game.pool}
        self.secret_names = sorted(secret - self.known_names, key=len, reverse=True)
        for w in windows:  # a window is named after its event, which may name a card
            w["name"] = self.scrub(w["name"]) if isinstance(w["name"], str) else w["name"]
        d["windows"] = windows
        return d, keys

    def decision(self, d: Decision, at: int) -> dict:
        """The pending decision as its seat is sent it (call right after ``build``: same ids)."""
        ids = {e: v for v, e in self.frame.items()}

        def f(eid):
            return ids.get(eid, eid if self.unsafe else None)

        ctx = {}
        for k, v in d.context.items():
            if k == "card":
                ctx[k] = f(v) if _is_int(v) else None
            elif k == "attackers":
                ctx[k] = [f(x) for x in v]
            elif k == "by_hand":
                ctx[k] = [map_answer(x, f) for x in v] if isinstance(v, list) else bool(v)
            elif isinstance(v, str):
                ctx[k] = self.scrub(v)
            elif isinstance(v, bool) or _is_int(v):
                ctx[k] = v
            elif isinstance(v, list) and all(isinstance(x, str) for x in v):
                ctx[k] = [self.scrub(x) for x in v]
        return {"at": at, "kind": d.kind, "prompt": self.scrub(d.prompt),
                "options": [map_answer(o, f) for o in d.options],
                "choices": [f(c) if _is_int(c) else c for c in d.choices],
                "min_count": d.min_count, "max_count": d.max_count, "can_pass": d.can_pass, "context": ctx}
