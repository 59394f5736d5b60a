"""Training data (include/nnue_training.h: the CLI's own reader): Stockfish's .plain and
bullet's 'FEN | score | result' text, read as records and written back."""
import os

from nnue._lib import ffi, lib, text
from nnue.errors import NnueError, check

FORMATS = {'bullet': 0, 'plain': 1}
FIELDS = ('position', 'move', 'score', 'ply', 'result', 'line')


def _format(path, fmt):
    if fmt is None:
        return lib.nnue_train_format_of(os.fsencode(path))
    return FORMATS[fmt]


def read(path, fmt=None):
    """Yields each record as a dict (position, move, score, ply, result, line); fmt 'plain' or
    'bullet' (default: plain for a .plain file). A malformed record raises NnueError."""
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


def format_record(record, fmt):
    """The record's text in the format, as the CLI writes it."""
    rec = ffi.new('nnue_train_record *')
    rec.position = record['position'].encode()
    rec.move = record.get('move', '').encode()
    rec.score, rec.ply = record['score'], record.get('ply', -1)
    rec.result = record['result'].encode()
    buf = ffi.new('char[]', 512)
    n = lib.nnue_train_format_record(FORMATS[fmt], rec, buf, len(buf))
    return ffi.string(buf, n).decode()


def rescore(net, src, dst, fmt=None, threads=0):
    """src written to dst with the net's scores, as `nnue rescore` does (plain: side to move's
    total; bullet: white's view of scaled). Returns the number of records."""
    name = fmt or ('plain' if _format(src, None) == 1 else 'bullet')
    records = list(read(src, name))
    e = net.evaluate([r['position'] for r in records], threads=threads)
    with open(dst, 'w') as f:
        for r, total, scaled in zip(records, e.total, e.scaled):
            white = ' w ' in r['position'] or r['position'].endswith(' w')
            r['score'] = int(total) if name == 'plain' else int(scaled if white else -scaled)
            f.write(format_record(r, name))
    return len(records)
