"""Training data (include/nnue_training.h: the CLI's own reader and writer): Stockfish's .plain
and .binpack, and bullet's 'FEN | score | result' text, read as records and written back
(docs/training.md)."""
import itertools
import os
import time

from nnue._lib import ffi, lib, text
from nnue.errors import NnueError, check

FORMATS = {'bullet': 0, 'plain': 1, 'binpack': 2}
FIELDS = ('position', 'move', 'score', 'ply', 'result', 'line')


def _format(path, fmt):
    if fmt is None:
        return lib.nnue_train_format_of(os.fsencode(path))
    if fmt not in FORMATS:
        raise ValueError(f'unknown training-data format {fmt!r} (expected one of {", ".join(FORMATS)})')
    return FORMATS[fmt]


def format_of(path):
    """The format name a file name says: 'plain' for .plain, 'binpack' for .binpack, else 'bullet'."""
    return text(lib.nnue_train_format_name(lib.nnue_train_format_of(os.fsencode(path))))


def _result_value(t):
    """The result as a number: '1', '0', '-1' (plain, binpack) -> int; '1.0', '0.5' (bullet) -> float."""
    try:
        return int(t)
    except ValueError:
        return float(t)


def _result_text(v, fmt):
    """A result as its format writes it: int 1 -> '1'; float 0.5 -> '0.5' (bullet), 1.0 -> '1' in
    plain and binpack (whose results are -1, 0, 1); a str is taken as written."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f'result {v!r}: expected a number (1, 0, -1; bullet 1.0, 0.5, 0.0) or its text')
    if isinstance(v, float) and (fmt == FORMATS['bullet'] or not v.is_integer()):
        return repr(v)
    return str(int(v))


def read(path, fmt=None):
    """Yields each record as a dict (position, move, score, ply, result, line); fmt 'plain',
    'binpack' or 'bullet' (default: from the extension, .plain / .binpack, else bullet). 'line'
    is the record's line in a text file, its byte offset in a binpack. score and ply are ints;
    result is a number as the format writes it (plain and binpack: int 1, 0, -1 from the side to
    move's view; bullet: float 1.0, 0.5, 0.0 for white). A malformed record raises NnueError
    (file and line/column, or file and byte offset)."""
    for r in _read_text(path, fmt):
        r['result'] = _result_value(r['result'])
        yield r


def _read_text(path, fmt=None):
    """read() with the result as the file's text (rescore writes it back byte for byte)."""
    out, err = ffi.new('nnue_train_reader **'), ffi.new('nnue_error *')
    check(lib.nnue_train_open(os.fsencode(path), _format(path, fmt), out, err), err)
    reader = ffi.gc(out[0], lib.nnue_train_close)
    rec = ffi.new('nnue_train_record *')
    while True:
        rc = lib.nnue_train_next(reader, rec, err)
        if rc < 0:
            raise NnueError.from_c(err)
        if rc == 0:
            return
        yield {'position': text(rec.position), 'move': text(rec.move), 'score': rec.score, 'ply': rec.ply,
               'result': text(rec.result), 'line': rec.line}


def _field(record, key, default=None):
    """A string field as bytes that fit its C array with the terminating NUL (cffi would copy a
    value of exactly the array's length without one)."""
    v = (record.get(key, default) if default is not None else record[key]).encode()
    size = ffi.sizeof(ffi.typeof('nnue_train_record').fields[_FIELD_INDEX[key]][1].type)
    if len(v) >= size:
        raise ValueError(f'{key} {v[:40]!r}... is {len(v)} bytes: at most {size - 1}')
    return v


_FIELD_INDEX = {name: i for i, (name, _) in enumerate(ffi.typeof('nnue_train_record').fields)}


def _record(record, fmt):
    rec = ffi.new('nnue_train_record *')
    rec.position = _field(record, 'position')
    rec.move = _field(record, 'move', '')
    rec.score, rec.ply = record['score'], record.get('ply', -1)
    rec.result = _field({'result': _result_text(record['result'], fmt)}, 'result')
    return rec


def format_record(record, fmt):
    """The record's text in a text format, as the CLI writes it ('binpack' is binary: use write)."""
    if fmt not in ('plain', 'bullet'):
        raise ValueError(f'format_record: {fmt!r} is not a text format (plain, bullet)')
    buf = ffi.new('char[]', 512)
    n = lib.nnue_train_format_record(FORMATS[fmt], _record(record, FORMATS[fmt]), buf, len(buf))
    return ffi.string(buf, n).decode()


def write(path, records, fmt=None):
    """Writes the records (dicts as read gives them; result a number or its text) to path in the format (default: from the
    extension); the file appears whole at the end, or not at all when a record is refused
    (NnueError naming the record's number). Returns the number of records."""
    out, err = ffi.new('nnue_train_writer **'), ffi.new('nnue_error *')
    kind = _format(path, fmt)
    check(lib.nnue_train_writer_open(os.fsencode(path), kind, out, err), err)
    writer, n = out[0], 0
    try:
        for r in records:
            check(lib.nnue_train_write(writer, _record(r, kind), err), err)
            n += 1
    except BaseException:
        lib.nnue_train_writer_abort(writer)
        raise
    check(lib.nnue_train_writer_close(writer, err), err)
    return n


def rescore(net, src, dst, fmt=None, threads=0, progress=None, batch=1 << 16):
    """src written to dst with the net's scores, as `nnue rescore` does (plain, binpack: side to
    move's total; bullet: white's view of scaled), `batch` records at a time (memory stays flat
    on files of any size). progress(done, total, seconds) after each batch, total 0 (unknown)
    until the last call, which gives done == total (nnue.Progress draws the CLI's line).
    Returns the number of records; dst appears only when every record was written."""
    name = fmt or format_of(src)
    start, done = time.monotonic(), [0]

    def scored():
        records = _read_text(src, name)
        while True:
            part = list(itertools.islice(records, batch))
            if not part:
                break
            e = net.evaluate([r['position'] for r in part], threads=threads)
            for r, total, scaled in zip(part, e.total, e.scaled):
                white = ' w ' in r['position'] or r['position'].endswith(' w')
                r['score'] = int(total) if name != 'bullet' else int(scaled if white else -scaled)
                yield r
            done[0] += len(part)
            if progress and len(part) == batch:
                progress(done[0], 0, time.monotonic() - start)

    n = write(dst, scored(), name)
    if progress:
        progress(n, n, time.monotonic() - start)
    return n
