"""Every message of the Maester online protocol, declared once (docs/protocol.md).

Messages are JSON objects sent as WebSocket text frames. Each has a ``t`` field naming its type; the
types are ``msgspec`` Structs grouped in two tagged unions: ``ClientMsg`` (what a client may send) and
``ServerMsg`` (what the server sends). ``decode_client`` is the one door every incoming frame passes:
it checks the frame's size, the JSON, the type tag, every field's type and every length limit, and
raises ``BadMessage`` (one line saying what is wrong) for anything else, before any game reads it.

Why msgspec (not pydantic): one small C extension without dependencies, strict decoding (no silent
coercion of ``"1"`` to ``1``), tagged unions and length constraints in the type declaration, and it is
several times faster at encoding the views the server sends after every answer.

A command may carry ``ref`` (a number the client picks); the server's reply to that command (``ack``,
``attached``, ``refused``, ``error``, ``games``, ``pong``) carries the same ``ref``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

import msgspec
from msgspec import Meta, Struct

PROTOCOL_VERSION = 1
MAX_MESSAGE = 64 * 1024
"""The largest frame (bytes of UTF-8 JSON) the server reads; larger ones are answered with an error."""
MAX_FRAME = 1024 * 1024
"""The transport's limit (``websockets`` ``max_size``): a larger frame closes the connection (1009)."""

Name = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
"""A seat's (player's) name: 1-40 printable characters."""
Token = Annotated[str, Meta(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Invite = Annotated[str, Meta(min_length=4, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Ref = Annotated[int, Meta(ge=0, le=2**31 - 1)]
Seq = Annotated[int, Meta(ge=0, le=2**53)]
DeckRef = Annotated[str, Meta(min_length=1, max_length=20_000)]
"""``practice:stark``, ``practice:lannister``, or the text of a deck list (any format ``cards.deck``
reads: a text list, OCTGN .o8d XML, a deckbuilder export)."""
ChatText = Annotated[str, Meta(min_length=1, max_length=500)]
Level = Literal["random", "heuristic", "strong", "normal", "easy", "hard"]
Phase = Literal["setup", "plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation"]


class Base(Struct, tag_field="t", forbid_unknown_fields=True, omit_defaults=True):
    pass


# ---------------------------------------------------------------------------------------------------------
# Client -> server
# ---------------------------------------------------------------------------------------------------------

class SeatSpec(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One seat of a new game. ``computer``: the seat is played by the server's computer player at that
    level; otherwise a person takes it (the creator, or whoever joins with the invite code)."""
    name: Name
    deck: Optional[DeckRef] = None
    """The seat's deck; a person joining may bring his own instead (``Join.deck``)."""
    computer: Optional[Level] = None


class Stops(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """When the server stops for a seat (asks him) in an optional window: an action window other than his
    own marshalling, a response or a save/cancel opportunity. Every other decision is always his to answer.
    The server decides from public facts only (kind, phase, whose challenge), never from whether the seat
    has a legal play, so the prompts and their timing tell the others nothing (docs/protocol.md)."""
    actions: list[Phase] = msgspec.field(default_factory=lambda: ["marshalling", "challenges"])
    """Phases in whose action windows he is asked."""
    responses: bool = True
    """Asked in response windows."""
    saves: bool = True
    """Asked in save/cancel windows."""
    own_challenges_only: bool = False
    """In the challenges phase, asked only during challenges he attacks or defends in."""


class Create(Base, tag="create"):
    """Create a game: 2-4 seats. ``my_seat``: the seat the creator takes (his token comes back), or None
    to create a game for others only (then every person joins with the invite code)."""
    seats: Annotated[list[SeatSpec], Meta(min_length=2, max_length=4)]
    title: Annotated[str, Meta(max_length=80)] = ""
    ruleset: Literal["lcg", "ccg-winter"] = "lcg"
    mode: Literal["enforce", "advise"] = "enforce"
    era: Optional[Literal["ccg", "lcg"]] = None
    casual: bool = True
    """Casual deck rules (no banned/restricted lists, DCK-05/07); False checks tournament rules too."""
    away_minutes: Annotated[int, Meta(ge=1, le=60 * 24 * 14)] = 10
    """How long a disconnected seat waits before the others may hand it to the computer or end the game."""
    my_seat: Optional[Annotated[int, Meta(ge=0, le=3)]] = 0
    ref: Optional[Ref] = None


class Join(Base, tag="join"):
    """Take a free seat of the game with this invite code (``seat``: by name; None: the first free one)."""
    invite: Invite
    seat: Optional[Name] = None
    deck: Optional[DeckRef] = None
    ref: Optional[Ref] = None


class Watch(Base, tag="watch"):
    """Watch a game as a spectator (public information only)."""
    invite: Invite
    ref: Optional[Ref] = None


class Resume(Base, tag="resume"):
    """Come back to a seat with its token. ``last_seq``: the last event seen; the server sends what was
    missed (or a snapshot)."""
    token: Token
    last_seq: Seq = 0
    ref: Optional[Ref] = None


class Answer(Base, tag="answer"):
    """The answer to this seat's pending decision, in the engine's vocabulary (docs/engine.md,
    scenario-format.md "Commands"): ``{"pass": true}``, ``{"marshal": ID}``... with the card ids of the
    seat's view. ``at``: the decision's ``at`` (a stale answer is refused)."""
    answer: dict[str, Any]
    at: Optional[Seq] = None
    ref: Optional[Ref] = None


class FreeMove(Base, tag="free"):
    """Advise mode only: a free move (engine.advise: move, kneel, stand, power, gold, draw, shuffle, tool)."""
    move: dict[str, Any]
    at: Optional[Seq] = None
    ref: Optional[Ref] = None


class Chat(Base, tag="chat"):
    text: ChatText
    ref: Optional[Ref] = None


class SetStops(Base, tag="stops"):
    stops: Stops
    ref: Optional[Ref] = None


class Concede(Base, tag="concede"):
    ref: Optional[Ref] = None


class UndoRequest(Base, tag="undo"):
    """Ask to take back this seat's last answer; every other person must accept."""
    ref: Optional[Ref] = None


class UndoReply(Base, tag="undo_reply"):
    accept: bool
    ref: Optional[Ref] = None


class AwayAction(Base, tag="away"):
    """When ``seat`` has been away longer than the game's ``away_minutes``: hand it to the computer
    (``computer``) or end the game without a winner (``end``)."""
    seat: Name
    action: Literal["computer", "end"]
    level: Level = "heuristic"
    ref: Optional[Ref] = None


class MyGames(Base, tag="my_games"):
    """The games of these seat tokens, those waiting for you first."""
    tokens: Annotated[list[Token], Meta(max_length=200)]
    ref: Optional[Ref] = None


class Ping(Base, tag="ping"):
    ref: Optional[Ref] = None


ClientMsg = Union[Create, Join, Watch, Resume, Answer, FreeMove, Chat, SetStops, Concede, UndoRequest,
                  UndoReply, AwayAction, MyGames, Ping]


# ---------------------------------------------------------------------------------------------------------
# Server -> client
# ---------------------------------------------------------------------------------------------------------

class Error(Base, tag="error"):
    """A message the server could not take (malformed, unknown, too big, too fast, not allowed now).
    Nothing changed. ``code``: bad_message, too_big, rate, not_attached, not_found, forbidden, full,
    deck, busy, internal."""
    code: str
    message: str
    ref: Optional[int] = None


class Refused(Base, tag="refused"):
    """The engine refused an answer or free move: nothing changed. ``rule``: the checklist id when the
    reason names one (e.g. ``MAR-05``)."""
    message: str
    rule: Optional[str] = None
    ref: Optional[int] = None


class Ack(Base, tag="ack"):
    """The command was accepted and stored; ``seq``: the game's event number after it."""
    seq: int
    ref: Optional[int] = None


class Attached(Base, tag="attached"):
    """This connection now plays ``seat`` (or watches, ``seat`` None) in ``game``. ``token``: keep it,
    it is all you need to come back (only sent when the seat was just taken)."""
    game: str
    invite: str
    seat: Optional[str] = None
    token: Optional[str] = None
    ref: Optional[int] = None


class SeatInfo(Struct, omit_defaults=True):
    name: str
    kind: str
    """``person``, ``computer`` or ``open`` (nobody has taken it yet)."""
    connected: bool = False
    away_s: Optional[int] = None
    """Seconds since the seat's person went away (None: here, or a computer)."""


class DecisionMsg(Struct, omit_defaults=True):
    """The question this seat must answer (only ever sent to that seat). Card ids are the view's."""
    at: int
    kind: str
    prompt: str
    options: list[dict] = []
    choices: list[Any] = []
    min_count: int = 0
    max_count: int = 0
    can_pass: bool = False
    context: dict = {}


class View(Struct, omit_defaults=True):
    """What one seat (or a spectator) may know of the game now.

    ``state``: an ``engine.state.GameState.to_dict()`` as the seat may see it (``engine.visibility``):
    hidden cards have the key ``hidden``, per-view ids that change with every event, and are listed in
    random order; there is no seed, random state or log (``log`` is separate). ``defs``: card definitions
    (by key) this connection has not been sent yet. ``log``: the seat's log lines from index
    ``log_start`` on."""
    at: int
    """How many answers the game holds (a decision's ``at``)."""
    status: str
    """``waiting`` (for people to join), ``playing``, ``over``, ``ended`` (without a winner)."""
    seats: list[SeatInfo]
    state: Optional[dict] = None
    defs: dict = {}
    log: list[str] = []
    log_start: int = 0
    decision: Optional[DecisionMsg] = None
    waiting_for: list[str] = []
    winner: Optional[str] = None
    reason: Optional[str] = None
    undo_asked_by: Optional[str] = None
    warnings: list[str] = []
    you: Optional[str] = None


class ChatLine(Struct, omit_defaults=True):
    seq: int
    seat: str
    text: str
    time: float


class Event(Base, tag="event"):
    """A sequenced game event. Each of a game's events has the next ``seq``; every seat and spectator gets
    every event (its content filtered for it), so there are no gaps. ``view`` after a change of the game;
    ``chat`` for a chat line."""
    game: str
    seq: int
    view: Optional[View] = None
    chat: Optional[ChatLine] = None


class Snapshot(Base, tag="snapshot"):
    """Everything the connection needs (after joining, resuming, an undo, a restart): the full view with
    all definitions and the whole log, and the chat lines after ``last_seq``."""
    game: str
    seq: int
    view: View
    chat: list[ChatLine] = []


class Notice(Base, tag="notice"):
    """Not an event (no ``seq``): presence changes (``Bob is away (2 min)``), undo requests, warnings.
    A presence notice (``kind`` ``away`` or ``back``) carries ``seats``: every seat as a view lists them
    (``connected``, ``away_s``), so a client reads who is away, and since when, from data, not text."""
    game: str
    text: str
    kind: str = "info"
    seats: Optional[list[SeatInfo]] = None


class GameEntry(Struct, omit_defaults=True):
    game: str
    invite: str
    seat: str
    title: str
    status: str
    waiting_for_you: bool
    waiting_for: list[str] = []
    round: int = 0
    phase: str = ""
    updated: float = 0.0
    token: str = ""


class Games(Base, tag="games"):
    games: list[GameEntry]
    ref: Optional[int] = None


class Pong(Base, tag="pong"):
    time: float
    ref: Optional[int] = None


ServerMsg = Union[Error, Refused, Ack, Attached, Event, Snapshot, Notice, Games, Pong]


# ---------------------------------------------------------------------------------------------------------
# Encoding and decoding
# ---------------------------------------------------------------------------------------------------------

class BadMessage(Exception):
    """A frame that is not a valid client message; ``str()`` says what is wrong (one line)."""

    def __init__(self, message: str, code: str = "bad_message", ref: int | None = None):
        super().__init__(message)
        self.code, self.ref = code, ref


_client_decoder = msgspec.json.Decoder(ClientMsg)
_server_decoder = msgspec.json.Decoder(ServerMsg)
_encoder = msgspec.json.Encoder()


def _ref_of(frame: bytes) -> int | None:
    """The ``ref`` of a frame that did not decode, when it has a plain one (so the error can name it)."""
    try:
        raw = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return None
    ref = raw.get("ref") if isinstance(raw, dict) else None
    return ref if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < 2**31 else None


def decode_client(frame: bytes | str) -> ClientMsg:
    """The client message in ``frame``, or ``BadMessage``."""
    if isinstance(frame, str):
        frame = frame.encode("utf-8", "surrogatepass")
    if len(frame) > MAX_MESSAGE:
        raise BadMessage(f"message of {len(frame)} bytes; the limit is {MAX_MESSAGE}", "too_big")
    try:
        return _client_decoder.decode(frame)
    except msgspec.ValidationError as err:
        text = str(err)
        if "Invalid value" in text and "`$.t`" in text:
            text = "unknown message type (field t); see docs/protocol.md"
        raise BadMessage(text[:300], ref=_ref_of(frame)) from None
    except (msgspec.DecodeError, UnicodeError, RecursionError) as err:
        raise BadMessage(f"not valid JSON: {str(err)[:200]}") from None


def decode_server(frame: bytes | str) -> ServerMsg:
    if isinstance(frame, str):
        frame = frame.encode()
    return _server_decoder.decode(frame)


def encode(msg: Any) -> bytes:
    return _encoder.encode(msg)


def to_builtins(msg: Any) -> Any:
    return msgspec.to_builtins(msg)
