"""Never lose a game: undo, saves, the autosave and recovery after a crash.

A game is its start plus its answers (``engine.replay``): undo rebuilds the
game from ``setup_spec`` and ``history[:-k]``. The state's random generator is
seeded by the setup, so the rebuilt game has the same shuffles and random
discards: undoing never deals again.

A **table save** is an engine save (``engine.replay.save_game``: the setup, the
answers, the final digest) plus a ``table`` section with what the table needs:
the seats, the computer seats, privacy, the mode switches (advise/enforce, by
history length), who had the screen, and — for a game opened from a scenario —
the scenario's text, so a save never sends the loader to an arbitrary path.

The **autosave** (``autosave.json`` in the user data folder, ``$MAESTER_HOME``,
else ``$XDG_DATA_HOME/maester``, else ``~/.local/share/maester``) is written
after every answer and free move. Every write is atomic: a temporary file in
the same folder, flushed and fsynced, then ``os.replace``; a temporary file a
killed process left behind is removed at the next start (``clean_orphans``).

Reading a save never raises anything but ``cards.errors.DataError``, whose
``str()`` is one line: the file, what is wrong, what to do.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from cards.errors import DataError
from cards.files import atomic_write, load_json_text, read_bytes, read_utf8
from cards.pool import ensure_data_dir
from engine.decisions import GameOver
from engine.game import Game, Options
from engine.replay import SAVE_FORMAT, SAVE_VERSION, ReplayError, apply_history, save_game, start_from_spec
from engine.replay import _decode as decode_answer
from engine.save_schema import SaveShapeError, check_save  # the inverse of save_game's answer encoding

TABLE_VERSION = 1
AUTOSAVE_NAME = "autosave.json"
PREVIOUS_NAME = "autosave-previous.json"
DAMAGED_NAME = "autosave-damaged.json"
NEWER_NAME = "autosave-newer.json"
ORPHAN_AGE_S = 3600.0
"""A temporary file older than this is an orphan even if a process with its pid runs (pid reuse)."""
_TMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[0-9a-f]{8}\.tmp$")
OPEN_HINT = "open another save, or the autosave"


def data_dir() -> Path:
    from cards.pool import user_data_dir

    return user_data_dir()


def autosave_path(folder: Path | None = None) -> Path:
    return (folder or data_dir()) / AUTOSAVE_NAME


def folder_problem(folder: Path | None = None) -> str | None:
    """Why Maester cannot keep its data (the autosave) in ``folder``, as one line saying what, where and
    what to do; None when it can (the folder is made if it is missing, by the one maker of the data
    folder, ``cards.pool.ensure_data_dir``)."""
    folder = folder or data_dir()
    try:
        ensure_data_dir(folder)
    except DataError as err:
        return f"{err.message} ({folder}), so games cannot be autosaved there: {err.hint}"
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    return (f"the data folder {folder} is not writable, so games cannot be autosaved there: set MAESTER_HOME "
            f"to a folder Maester may write in")


# ---------------------------------------------------------------------------
# Autosave slots: one per running table
# ---------------------------------------------------------------------------

SLOTS = 8
"""The most tables autosaving at once in one data folder: ``autosave.json``, ``autosave-2.json``..."""
_held: dict[Path, int] = {}
"""The slots this process autosaves to, with the open file of each one's lock."""


def slot_paths(folder: Path | None = None) -> list[Path]:
    folder = folder or data_dir()
    return [folder / (AUTOSAVE_NAME if n == 1 else f"autosave-{n}.json") for n in range(1, SLOTS + 1)]


def _lock_file(slot: Path) -> Path:
    return slot.with_name(f".{slot.stem}.lock")


def _take(slot: Path) -> int | None:
    """The open lock of ``slot`` if no running table holds it (``fcntl.flock``: the system releases it
    when the process dies, even by kill -9), else None."""
    if slot in _held:
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX: every table uses the first slot
        return -1
    try:
        fd = os.open(_lock_file(slot), os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def in_use(slot: Path) -> bool:
    """Whether a running table (this process's or another's) autosaves to ``slot``."""
    fd = _take(slot)
    if fd is None:
        return True
    if fd >= 0:
        os.close(fd)
    return False


def claim_autosave(folder: Path | None = None, slot: Path | None = None) -> Path | None:
    """Take an autosave slot for this table for as long as the process runs: ``slot`` (the game
    recovered from it goes on there), else the first slot no running table holds, one without an
    unfinished game first. None when it is held (``slot``) or every slot is (or the folder cannot be
    used: ``folder_problem``)."""
    if folder_problem(slot.parent if slot is not None else folder):
        return None
    if slot is not None:
        fd = _take(slot)
        if fd is None:
            return None
        _held[slot] = fd
        return slot
    fallback = None
    for path in slot_paths(folder):
        fd = _take(path)
        if fd is None:
            continue
        if not isinstance(_recovery(path), Recovery):
            _held[path] = fd
            return path
        if fd >= 0:
            os.close(fd)
        fallback = fallback or path
    return claim_autosave(folder, fallback) if fallback is not None else None


def release_autosave(slot: Path) -> None:
    """Let another table take ``slot`` (the process ends: the system does it)."""
    fd = _held.pop(slot, None)
    if fd is not None and fd >= 0:
        os.close(fd)


# ---------------------------------------------------------------------------
# Atomic writes
# ---------------------------------------------------------------------------

# Saves and the autosave are written with ``cards.files.atomic_write``.


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def clean_orphans(folder: Path | None = None, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files of atomic writes that a killed process left in ``folder``
    (its process is gone, or the file is over an hour old). Returns what was removed."""
    folder = folder or data_dir()
    removed = []
    now = time.time() if now is None else now
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        m = _TMP.match(entry.name)
        if m is None:
            continue
        try:
            old = now - entry.stat().st_mtime > ORPHAN_AGE_S
        except OSError:
            continue
        if old or not _alive(int(m["pid"])):
            try:
                entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed


# ---------------------------------------------------------------------------
# What the table keeps beside the engine's save
# ---------------------------------------------------------------------------

@dataclass
class TableInfo:
    """The table's side of a game: seats, computers, privacy, mode switches, the screen."""

    names: list[str]
    decks: list[str] = field(default_factory=list)
    computer: list[str] = field(default_factory=list)
    ruleset: str = "lcg"
    privacy: bool = True
    levels: dict = field(default_factory=dict)
    """Each computer seat's level (``engine.ai``); heuristic when absent."""
    prompt_all: bool = False
    modes: list[list] = field(default_factory=lambda: [[0, "enforce"]])
    """``[history length, mode]`` pairs: the mode the answers from that point on were given in."""
    viewer: str | None = None
    scenario_text: str | None = None
    """A scenario game's scenario file, as it was when the game started."""
    scenario_name: str | None = None
    log_title: bool = True
    """The table logs ``scenario: TITLE`` after building a scenario game (``GameSetup``)."""
    prompting: dict = field(default_factory=dict)
    """When the table stops for each person (*Stop for…*, ``TableController.prompting``)."""
    phase_pass: dict = field(default_factory=dict)
    """*Pass for the rest of this phase*: name -> [round, phase serial, history length when it was asked]."""

    @classmethod
    def of(cls, setup, game: Game) -> "TableInfo":
        """The table info of a game the table just started from ``setup`` (an ``app.dialogs.GameSetup``)."""
        text = name = None
        if setup.scenario:
            text = _scenario_text(setup.scenario)
            name = Path(setup.scenario).name
        return cls(names=list(game.state.player_names), decks=list(setup.decks), computer=list(setup.computer),
                   levels=dict(getattr(setup, "levels", None) or {}), ruleset=game.state.ruleset, privacy=setup.privacy, prompt_all=game.options.prompt_all,
                   modes=[[len(game.history), game.options.mode]], scenario_text=text, scenario_name=name,
                   prompting=dict(getattr(setup, "prompting", None) or {}))

    @property
    def mode(self) -> str:
        return self.modes[-1][1]

    def note_mode(self, at: int, mode: str) -> None:
        """The mode switched when the history had ``at`` answers."""
        if mode == self.modes[-1][1]:
            return
        if self.modes[-1][0] == at and len(self.modes) > 1:
            self.modes.pop()
            if self.modes[-1][1] == mode:
                return
        self.modes.append([at, mode])

    def cut(self, length: int) -> "TableInfo":
        """The info of the same game cut back to ``length`` answers (undo)."""
        modes = [m for m in self.modes if m[0] <= length] or self.modes[:1]
        passes = {n: list(p) for n, p in self.phase_pass.items() if p[2] < length}  # its answer is kept
        return TableInfo(**{**self.__dict__, "modes": [list(m) for m in modes], "prompting": dict(self.prompting),
                            "phase_pass": passes})

    def setup(self, seed: int | None = None):
        from app.dialogs import GameSetup

        return GameSetup(names=list(self.names), decks=list(self.decks) or ["practice:stark"] * len(self.names),
                         computer=list(self.computer), levels=dict(self.levels), ruleset=self.ruleset,
                         mode=self.modes[0][1], seed=seed,
                         privacy=self.privacy, scenario=None, prompting=dict(self.prompting))

    def to_json(self) -> dict:
        return {"version": TABLE_VERSION, "names": self.names, "decks": self.decks, "computer": self.computer,
                "ruleset": self.ruleset, "privacy": self.privacy, "prompt_all": self.prompt_all,
                "modes": self.modes, "viewer": self.viewer, "scenario": self.scenario_text,
                "scenario_name": self.scenario_name, "log_title": self.log_title, "levels": self.levels,
                "prompting": self.prompting, "phase_pass": self.phase_pass}


# ---------------------------------------------------------------------------
# Rebuilding a game (undo, load)
# ---------------------------------------------------------------------------

def _scenario_text(path: str | Path) -> str | None:
    """A scenario file's text through the reading layer (a regular file under the size limit), or None."""
    try:
        return read_utf8(path, "the scenario", kind="scenario")
    except DataError:
        return None


def _scenario_copy(text: str) -> Path:
    """The scenario text as a file of Maester's own (``scenarios/<hash>.yaml`` in the data folder):
    a save's scenario is read from the text it embeds, never from a path it names."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
    path = data_dir() / "scenarios" / f"{digest}.yaml"
    if _scenario_text(path) == text:
        return path
    atomic_write(path, text)
    return path


def _scenario_path(info: TableInfo, spec: dict, folder: Path | None) -> Path:
    if info.scenario_text is not None:
        original = Path(str(spec.get("scenario", "")))
        if original.is_file() and _scenario_text(original) == info.scenario_text:
            return original  # unchanged since: no copy needed (undo)
        return _scenario_copy(info.scenario_text)
    # An engine save (no table section) names its scenario by path: only a .yaml file inside the
    # save's own folder is followed.
    named = str(spec.get("scenario", ""))
    rel = PurePosixPath(named.replace("\\", "/"))
    if folder is None or rel.is_absolute() or ".." in rel.parts or rel.suffix.lower() not in (".yaml", ".yml"):
        raise DataError(f"the save names the scenario file {named!r} but does not contain it",
                        hint="put the scenario beside the save and name it relative to the save, or save "
                             "the game again from the table (table saves contain their scenario)")
    path = (folder / Path(*rel.parts)).resolve()
    if folder.resolve() not in path.parents or not path.is_file():
        raise DataError(f"the scenario file {named!r} the save names is not beside the save",
                        hint="put the scenario file in the save's folder")
    return path


def fresh_game(spec: dict, info: TableInfo, pool: Any, folder: Path | None = None) -> Game:
    """The game as it started (no answers), from an engine ``setup_spec`` and the table info."""
    options = Options(prompt_all=info.prompt_all, mode=info.modes[0][1])
    if "scenario" in spec:
        from engine.scenario import load_scenario

        sc = load_scenario(_scenario_path(info, spec, folder), options)
        if info.log_title:
            sc.game.log(f"scenario: {sc.title}")  # as app.dialogs.GameSetup does
        return sc.game
    return start_from_spec(spec, pool, options)


def answer_again(game: Game, history: list, info: TableInfo) -> Game:
    """Answer ``history`` again, switching advise/enforce where the table did."""
    switches = {at: mode for at, mode in info.modes[1:]}
    total = len(history)
    for i, entry in enumerate(history):
        if i in switches:
            game.options.mode = switches[i]
        try:
            apply_history(game, [entry])
        except ReplayError as err:
            why = str(err).split(" was refused: ", 1)[-1].split(": the game already ended", 1)[-1]
            raise ReplayError(f"answer {i + 1} of {total} ({entry[0]}) cannot be given again: {why}") from None
    if total in switches:
        game.options.mode = switches[total]
    return game


def rebuild(game: Game, info: TableInfo, length: int) -> Game:
    """``game`` rebuilt with its first ``length`` answers (undo)."""
    fresh = fresh_game(dict(game.setup_spec), info, game.pool)
    return answer_again(fresh, list(game.history[:length]), info)


def undo_point(history: list, humans: list[str], auto: set[int] | frozenset = frozenset()) -> int | None:
    """How many answers to keep to undo the last answer of a person at the screen (with the
    computer answers, and the passes the table gave by a player's prompting setting (``auto``,
    history positions), that followed it), or None when there is nothing to undo."""
    i = len(history)
    while i > 0 and (history[i - 1][0] not in humans or i - 1 in auto):
        i -= 1
    return i - 1 if i > 0 else None


# ---------------------------------------------------------------------------
# Saves
# ---------------------------------------------------------------------------

def table_save(game: Game, info: TableInfo) -> dict:
    """A save of ``game`` (``engine.replay.save_game``) with the table's section."""
    data = save_game(game)
    table = info.to_json()
    st = game.state
    table.update(saved_at=time.time(), round=st.round, phase=st.phase, winner=st.winner,
                 answers=len(game.history))
    data["table"] = table
    return data


def write_save(path: str | Path, game: Game, info: TableInfo, *, indent: int | None = None) -> float:
    """Write a table save atomically; returns the seconds it took."""
    t = time.perf_counter()
    text = json.dumps(table_save(game, info), ensure_ascii=False, indent=indent,
                      separators=(",", ":") if indent is None else None)
    atomic_write(path, text)
    return time.perf_counter() - t


def read_json(path: str | Path) -> dict:
    """A save file's data, checked to be a Maester save (``DataError`` otherwise)."""
    file = str(path)

    def fail(what: str, todo: str = OPEN_HINT) -> DataError:
        return DataError(what, file=file, hint=todo)

    if not os.path.lexists(path):
        raise fail("no such file", "check the name and the folder")
    raw = read_bytes(path, "the save", kind="save")  # a regular file under the size limit
    if not raw.strip():
        raise fail("the file is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("not a Maester save (not text)", "open a .json file saved by Maester") from None
    try:
        data = load_json_text(text, file)
    except DataError as err:
        if err.message.startswith("not valid JSON: "):
            raise fail(f"damaged or cut short: not valid JSON ({err.message[16:]}: line {err.line})") from None
        raise fail(f"damaged: {err.message}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise fail(f"not a Maester save (its format is not {SAVE_FORMAT!r})", "open a .json file saved by Maester")
    version = data.get("version")
    if version != SAVE_VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > SAVE_VERSION:
            raise fail(f"written by a newer Maester (save version {version}; this one reads {SAVE_VERSION})",
                       "update Maester to open it")
        raise fail(f"save version {version!r} is not one this Maester reads (it reads {SAVE_VERSION})",
                   "open it with the Maester that saved it")
    table = data.get("table")
    if table is not None:
        if not isinstance(table, dict):
            raise fail("damaged: its table section is not an object")
        tv = table.get("version", 1)
        if isinstance(tv, int) and not isinstance(tv, bool) and tv > TABLE_VERSION:
            raise fail(f"written by a newer Maester (table version {tv}; this one reads {TABLE_VERSION})",
                       "update Maester to open it")
    setup = data.get("setup")
    if not isinstance(setup, dict) or not ("decks" in setup or "scenario" in setup):
        raise fail("damaged: it has no setup (how the game started)")
    history = data.get("history")
    if not isinstance(history, list) or not all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], dict)
            for e in history):
        raise fail("damaged: its answers are not a list of [player, answer] pairs")
    try:
        check_save(data)
    except SaveShapeError as err:
        raise fail(f"damaged: {err}") from None
    if table is not None:
        _check_table(table, fail)
    return data


def _check_table(table: dict, fail) -> None:
    """The types of a table section (``TableInfo.to_json``)."""
    def texts(key: str, most: int = 8) -> bool:
        v = table.get(key)
        return v is None or isinstance(v, list) and len(v) <= most and all(isinstance(x, str) for x in v)

    for key in ("names", "decks", "computer"):
        if not texts(key):
            raise fail(f"damaged: its table's {key} are not a list of names")
    if table.get("scenario") is not None and not isinstance(table["scenario"], str):
        raise fail("damaged: its table's scenario is not text")
    for key in ("scenario_name", "viewer", "ruleset"):
        if table.get(key) is not None and not isinstance(table[key], str):
            raise fail(f"damaged: its table's {key} is not text")
    if table.get("levels") is not None and not isinstance(table["levels"], dict):
        raise fail("damaged: its table's levels are not a mapping")
    prompting = table.get("prompting")
    if prompting is not None and not (isinstance(prompting, dict) and len(prompting) <= 8 and all(
            isinstance(k, str) and isinstance(v, str) for k, v in prompting.items())):
        raise fail("damaged: its table's prompting is not a mapping of names to settings")
    passes = table.get("phase_pass")
    if passes is not None and not (isinstance(passes, dict) and len(passes) <= 8 and all(
            isinstance(k, str) and isinstance(v, list) and len(v) == 3 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in v) for k, v in passes.items())):
        raise fail("damaged: its table's phase_pass is not a mapping of names to [round, phase, answer]")


def _info_of(data: dict) -> TableInfo:
    setup = data["setup"]
    opts = data.get("options") if isinstance(data.get("options"), dict) else {}
    table = data.get("table") or {}
    if "decks" in setup:
        decks = setup["decks"]
        names = list(setup.get("seats") or decks) if isinstance(decks, dict) else []
        start_mode = setup.get("mode", opts.get("mode", "enforce"))
        prompt_all = setup.get("prompt_all", opts.get("prompt_all", True))
    else:
        names = []
        start_mode = opts.get("mode", "enforce")
        prompt_all = opts.get("prompt_all", True)
    if not table:  # an engine save: the seats all played by people at this screen
        return TableInfo(names=[str(n) for n in names], decks=[], computer=[], ruleset=setup.get("ruleset", "lcg"),
                         privacy=True, prompt_all=bool(prompt_all), modes=[[0, str(start_mode)]],
                         scenario_text=None, log_title=False)
    modes = table.get("modes") or [[0, str(start_mode)]]
    if not (isinstance(modes, list) and all(isinstance(m, list) and len(m) == 2 and isinstance(m[0], int)
                                            and m[1] in ("enforce", "advise") for m in modes)):
        raise ValueError("its mode switches are unreadable")
    text = table.get("scenario")
    return TableInfo(names=[str(n) for n in table.get("names") or names], decks=[str(d) for d in table.get("decks") or []],
                     computer=[str(n) for n in table.get("computer") or []], ruleset=str(table.get("ruleset", "lcg")),
                     privacy=bool(table.get("privacy", True)), prompt_all=bool(table.get("prompt_all", prompt_all)),
                     modes=[list(m) for m in modes], viewer=table.get("viewer"),
                     scenario_text=text if isinstance(text, str) else None,
                     scenario_name=table.get("scenario_name"), log_title=bool(table.get("log_title", True)),
                     levels={str(k): str(v) for k, v in (table.get("levels") or {}).items()},
                     prompting=dict(table.get("prompting") or {}),
                     phase_pass={k: list(v) for k, v in (table.get("phase_pass") or {}).items()})


def _needed_keys(setup: dict) -> list[str]:
    keys: list[str] = []
    for deck in (setup.get("decks") or {}).values():
        keys += list(deck.get("plots") or []) + list(deck.get("cards") or [])
        keys += [k for k in (deck.get("agenda"), deck.get("house_card")) if k]
    return sorted(set(keys))


@dataclass
class Loaded:
    game: Game
    info: TableInfo
    warning: str | None = None
    """Set when the game loaded but replayed differently from the save (a one-line explanation)."""
    saved_at: float | None = None
    slot: Path | None = None
    """The autosave slot a recovered game came from (its table goes on autosaving there)."""


def read_save(path: str | Path, pool: Any = None) -> Loaded:
    """Load a save (a table save or a plain engine save): the game replayed, the table info.
    Any problem is a ``DataError`` whose ``str()`` is one line."""
    file = str(path)
    data = read_json(path)
    try:
        info = _info_of(data)
    except (ValueError, TypeError, AttributeError) as err:
        raise DataError(f"damaged: {err}", file=file, hint=OPEN_HINT) from None
    setup = data["setup"]
    if "decks" in setup:
        if not isinstance(setup["decks"], dict):
            raise DataError("damaged: its decks are unreadable", file=file, hint=OPEN_HINT)
        if pool is None:
            from cards.pool import default_pool

            pool = default_pool()
        try:
            missing = [k for k in _needed_keys(setup) if pool.get(k) is None]
        except (AttributeError, TypeError):
            raise DataError("damaged: its decks are unreadable", file=file, hint=OPEN_HINT) from None
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            raise DataError(f"the card pool lacks {len(missing)} card(s) this game was played with: {shown}",
                            file=file, hint="import the card data it was played with: "
                                            "python -m cards.pool import FILE")
    try:
        history = [(player, decode_answer(answer)) for player, answer in data["history"]]
        game = fresh_game(setup, info, pool, Path(path).resolve().parent)
        answer_again(game, history, info)
    except DataError as err:
        raise DataError(err.message, file=file, hint=err.hint or OPEN_HINT) from None
    except ReplayError as err:
        raise DataError(f"{err}", file=file, hint="the cards or the engine changed since it was saved; open it "
                                                  "with the Maester and cards it was played with") from None
    except Exception as err:  # a scenario that no longer loads, a damaged answer...: one line, never a traceback
        from engine.scenario import ScenarioError

        if isinstance(err, ScenarioError):
            raise DataError(f"its scenario does not load: step {err.step}: {err.reason}", file=file,
                            hint=OPEN_HINT) from None
        raise DataError(f"damaged: {type(err).__name__}: {err}".rstrip(": "), file=file, hint=OPEN_HINT) from None
    seats = list(game.state.player_names)
    if info.names and list(info.names) != seats or any(n not in seats for n in info.computer):
        what = (f"the players {', '.join(info.names)}" if list(info.names) != seats else
                f"the computer seat{'s' if len(info.computer) > 1 else ''} {', '.join(info.computer)}")
        raise DataError(f"damaged: its table section names {what}, but the game's seats are {', '.join(seats)}",
                        file=file, hint="open another save, or the autosave; a save without its table section "
                                        "opens with the game's seats")
    warning = None
    digest = data.get("digest")
    if digest and game.state.digest() != digest:
        warning = (f"{file}: loaded, but the game replayed differently from the saved one (the cards or the "
                   f"engine changed since it was saved)")
    if not info.names:
        info.names = list(game.state.player_names)
    table = data.get("table") or {}
    saved_at = table.get("saved_at") if isinstance(table.get("saved_at"), (int, float)) else None
    return Loaded(game, info, warning, saved_at)


# ---------------------------------------------------------------------------
# The autosave and recovery
# ---------------------------------------------------------------------------

class Session:
    """The table's record of one game: its ``TableInfo`` and its autosave."""

    def __init__(self, info: TableInfo, autosave: Path | None = None, *, new_game: bool = False):
        """``new_game``: the autosave (an earlier game, perhaps) is kept until this game's first answer."""
        self.info = info
        self.autosave = autosave
        self.new_game = new_game
        self.saved: tuple[int, str] | None = None
        self.write_times: list[float] = []
        self.error: str | None = None

    def checkpoint(self, game: Game, viewer: str | None, *, force: bool = False) -> bool:
        """Autosave ``game`` if it changed since the last autosave. Returns True if it wrote."""
        if self.autosave is None:
            return False
        mark = (len(game.history), self.info.mode, repr(sorted(self.info.prompting.items())),
                repr(sorted(self.info.phase_pass.items())))  # a changed setting is autosaved too
        if mark == self.saved and not force or self.new_game and not game.history:
            return False
        self.info.viewer = viewer
        try:
            self.write_times.append(write_save(self.autosave, game, self.info))
        except (OSError, ReplayError) as err:
            self.error = f"{self.autosave}: the autosave could not be written ({err})"
            return False
        self.saved = mark
        self.error = None
        return True

    def note_mode(self, game: Game) -> None:
        self.info.note_mode(len(game.history), game.options.mode)


@dataclass
class Recovery:
    """An unfinished game in the autosave."""

    path: Path
    saved_at: float
    summary: str
    info: TableInfo | None = None
    """The table's side of the game (its seats and computer players), None if unreadable."""

    @property
    def when(self) -> str:
        return time.strftime("%a %d %b %H:%M", time.localtime(self.saved_at))

    @property
    def question(self) -> str:
        return f"Resume the game from {self.when}?"


def _recovery(path: Path) -> Recovery | DataError | None:
    """The autosave ``path`` if it holds an unfinished game with at least one answer; the
    ``DataError`` if it cannot be read; else None."""
    if not path.exists():
        return None
    try:
        data = read_json(path)
    except DataError as err:
        return err
    table = data.get("table") or {}
    if table.get("winner") or not data.get("history"):
        return None
    names = table.get("names") or list(data["setup"].get("seats") or data["setup"].get("decks") or [])
    saved_at = table.get("saved_at")
    if not isinstance(saved_at, (int, float)):
        saved_at = path.stat().st_mtime
    summary = (f"{' vs '.join(str(n) for n in names)}: round {table.get('round', '?')}, "
               f"{table.get('phase', '?')} phase, {len(data['history'])} answers")
    try:
        info = _info_of(data)
    except (ValueError, TypeError, AttributeError):
        info = None
    return Recovery(path, float(saved_at), summary, info)


def find_recoveries(folder: Path | None = None) -> list[Recovery | DataError]:
    """Every unfinished game in an autosave slot no running table holds (the tables that were running
    when Maester was closed, crashed or killed), the latest first. An autosave that cannot be read is
    set aside (``autosave-damaged.json``; one from a newer Maester: ``autosave-newer.json``; an earlier
    file of that name is never overwritten) and its ``DataError`` is in the list, saying so."""
    found: list[Recovery | DataError] = []
    for path in slot_paths(folder):
        if not path.exists() or in_use(path):
            continue
        rec = _recovery(path)
        if isinstance(rec, DataError):
            newer = rec.message.startswith("written by a newer Maester")
            target = _aside(path, NEWER_NAME if newer else DAMAGED_NAME)
            kept = f"; it is kept as {target.name}" if target is not None else ""
            rec = DataError(f"{rec.message}{kept}", file=rec.file,
                            hint=rec.hint if newer else "it was set aside; the next game autosaves anew")
        if rec is not None:
            found.append(rec)
    return sorted(found, key=lambda r: -r.saved_at if isinstance(r, Recovery) else float("-inf"))


def find_recovery(folder: Path | None = None) -> Recovery | DataError | None:
    """The first of ``find_recoveries``, or None."""
    found = find_recoveries(folder)
    return found[0] if found else None


def _aside(path: Path, name: str) -> Path | None:
    """Move ``path`` to ``name`` in its folder, or to ``<name>-2``, ``-3``... : an earlier file set aside
    is never overwritten. Returns where it went (None if it could not be moved)."""
    stem, suffix = os.path.splitext(name)
    for n in range(1, 1000):
        target = path.with_name(name if n == 1 else f"{stem}-{n}{suffix}")
        try:
            os.link(path, target)  # fails if the target exists: never overwrites
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links
            if target.exists():
                continue
            try:
                os.replace(path, target)
                return target
            except OSError:
                return None
        try:
            os.unlink(path)
        except OSError:
            pass
        return target
    return None


def set_aside(folder: Path | None = None, path: Path | None = None, name: str = PREVIOUS_NAME) -> Path | None:
    """A declined autosave (``path``, else the first slot) is kept as ``autosave-previous.json``, or
    ``autosave-previous-2.json``... beside it (Game ▸ Open… opens it); an earlier one is never overwritten."""
    path = path or autosave_path(folder)
    if not path.exists():
        return None
    return _aside(path, name)


def is_over(game: Game) -> bool:
    return isinstance(game.advance(), GameOver)
