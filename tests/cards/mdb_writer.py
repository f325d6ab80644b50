"""Write small Access (Jet 4) ``.mdb`` files for tests: the pages the ``access-parser`` package reads.

Only what the reader needs: the file header (page 0), the catalog (``MSysObjects``: its table
definition on page 2, its rows on page 3), then for each table a table-definition page and one
data page, and one page of long-value records for memos that do not fit in their row. Columns are
``int`` (32-bit), ``short`` (16-bit), ``text`` or ``memo``; a value may be None.

Damaged files for the malformed-input corpus (``damage=``):

- ``"tdef-self"``: the first table's definition page names itself as its next page;
- ``"tdef-cycle"``: it names a second definition page that names the first again;
- ``"catalog-self"``: the catalog's definition page names itself;
- ``"memo-self"``: the first table's first memo is a long value whose page chain names itself;
- ``"memo-cycle"``: two long-value records that name each other.

Nothing here is card data from a publisher: the tests write invented cards.
"""
from __future__ import annotations

import struct

PAGE = 4096
INT, SHORT, TEXT, MEMO = "int", "short", "text", "memo"
_TYPE = {INT: 4, SHORT: 3, TEXT: 10, MEMO: 12}
_FIXED = {INT: 4, SHORT: 2}


def _page(data: bytes) -> bytes:
    assert len(data) <= PAGE, f"a page of {len(data)} bytes"
    return data + b"\x00" * (PAGE - len(data))


def _header() -> bytes:
    return _page(b"\x00\x01\x00\x00" + b"Standard Jet DB\x00" + struct.pack("<I", 1) + b"\x00" * 126)


def _tdef(columns: list[tuple[str, str]], next_page: int = 0, system: bool = False) -> bytes:
    """A table-definition page for ``columns`` [(name, kind)]."""
    variable = sum(1 for _, kind in columns if kind not in _FIXED)
    head = b"\x02\x01" + struct.pack("<H", 0) + struct.pack("<I", next_page)
    head += struct.pack("<8I", 0, 0, 0, 0, 0, 0, 0, 0)
    head += struct.pack("<BHHH", 0x53 if system else 0x4E, len(columns), variable, len(columns))
    head += struct.pack("<4I", 0, 0, 0, 0)
    body, fixed_at, var_no = b"", 0, 0
    for i, (_, kind) in enumerate(columns):
        fixed = kind in _FIXED
        flags = bytes([0x03 if fixed else 0x02, 0])
        body += struct.pack("<BIHHH", _TYPE[kind], 0, i, 0 if fixed else var_no, i) + b"\x00" * 4 + flags
        body += struct.pack("<IHH", 0, fixed_at if fixed else 0, _FIXED.get(kind, 0))
        if fixed:
            fixed_at += _FIXED[kind]
        else:
            var_no += 1
    for name, _ in columns:
        raw = name.encode("utf-16-le")
        body += struct.pack("<H", len(raw)) + raw
    return _page(head + body)


def _record(columns: list[tuple[str, str]], row: dict) -> bytes:
    fixed, var, offsets, present = b"", b"", [], 0
    for i, (name, kind) in enumerate(columns):
        value = row.get(name)
        if value is not None:
            present |= 1 << i
        if kind in _FIXED:
            fixed += struct.pack("<i" if kind == INT else "<h", value or 0)
    pos = 2 + len(fixed)
    for name, kind in columns:
        if kind in _FIXED:
            continue
        value = row.get(name)
        if value is None:
            data = b""
        elif kind == TEXT:
            data = value.encode("utf-16-le")
        elif isinstance(value, int):  # a memo given as a long-value pointer (a damaged file)
            data = struct.pack("<III", 0, value, 0)
        else:
            raw = value.encode("utf-16-le")
            data = struct.pack("<III", 0x80000000 | len(raw), 0, 0) + raw  # inline
        offsets.append(pos)
        var += data
        pos += len(data)
    tail = struct.pack("<H", pos) + b"".join(struct.pack("<H", o) for o in reversed(offsets))
    tail += struct.pack("<H", len(offsets))
    mask = present.to_bytes((len(columns) + 7) // 8, "little")
    return struct.pack("<H", len(columns)) + fixed + var + tail + mask


def _data_page(owner: int, records: list[bytes]) -> bytes:
    """A data page: record 0 at the end of the page, each next one before it."""
    offsets, end = [], PAGE
    for record in records:
        end -= len(record)
        offsets.append(end)
    head = b"\x01\x01" + struct.pack("<HII", 0, owner, 0) + struct.pack("<H", len(records))
    head += b"".join(struct.pack("<H", o) for o in offsets)
    assert len(head) <= end, "the records do not fit in one page"
    page = bytearray(_page(head))
    for record, at in zip(records, offsets):
        page[at:at + len(record)] = record
    return bytes(page)


CATALOG = [("Id", INT), ("Name", TEXT), ("Type", SHORT), ("Flags", INT)]


def mdb_bytes(tables: dict[str, tuple[list[tuple[str, str]], list[dict]]], damage: str | None = None) -> bytes:
    """An ``.mdb`` holding ``tables`` {name: (columns, rows)}, damaged as ``damage`` says (module doc)."""
    names = list(tables)
    first_tdef = 4
    pages_of = {name: first_tdef + 2 * i for i, name in enumerate(names)}
    lval_page = first_tdef + 2 * len(names)
    extra_page = lval_page + 1
    catalog_rows = [{"Id": 2, "Name": "MSysObjects", "Type": 1, "Flags": 2}]
    catalog_rows += [{"Id": pages_of[n], "Name": n, "Type": 1, "Flags": 0} for n in names]
    pages = [_header(), _page(b""),
             _tdef(CATALOG, next_page=2 if damage == "catalog-self" else 0, system=True),
             _data_page(2, [_record(CATALOG, r) for r in catalog_rows])]
    long_values = [struct.pack("<I", (lval_page << 8) | 0) + b"x" * 8]  # record 0 names itself
    if damage == "memo-cycle":
        long_values = [struct.pack("<I", (lval_page << 8) | 1) + b"x" * 8,
                       struct.pack("<I", (lval_page << 8) | 0) + b"y" * 8]
    for n, name in enumerate(names):
        columns, rows = tables[name]
        rows = [dict(r) for r in rows]
        if n == 0 and damage in ("memo-self", "memo-cycle"):
            memo = next(c for c, kind in columns if kind == MEMO)
            rows[0][memo] = (lval_page << 8) | 0  # a long value (LVAL type 2) at record 0
        nxt = 0
        if n == 0 and damage == "tdef-self":
            nxt = pages_of[name]
        elif n == 0 and damage == "tdef-cycle":
            nxt = extra_page
        pages.append(_tdef(columns, next_page=nxt))
        pages.append(_data_page(pages_of[name], [_record(columns, r) for r in rows]))
    pages.append(_data_page(0, long_values))
    if damage == "tdef-cycle":
        pages.append(_tdef([], next_page=pages_of[names[0]]))
    return b"".join(pages)


AGOTDB_COLUMNS = [("UniversalId", INT), ("OriginalName", TEXT), ("Name", TEXT), ("Type", TEXT), ("House", TEXT),
                  ("Set", TEXT), ("Keywords", TEXT), ("Text", MEMO)]


def agotdb_mdb(rows: list[dict], damage: str | None = None) -> bytes:
    """An AGoTDB-like database: the ``AGoT-db`` table with the columns the importer needs."""
    return mdb_bytes({"AGoT-db": (AGOTDB_COLUMNS, rows)}, damage)
