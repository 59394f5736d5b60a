"""Net: a loaded net and its batch evaluation (nnue_eval_batch: OpenMP threads, GIL released)."""
import os
import time
from typing import NamedTuple

import numpy as np

from nnue._lib import ffi, lib, text
from nnue.arch import Arch
from nnue.errors import NnueError, check

# nnue_eval_detail as NumPy sees the C array (five int32 fields, no padding)
_DETAIL = np.dtype([('bucket', '<i4'), ('psqt', '<i4'), ('positional', '<i4'), ('total', '<i4'),
                    ('scaled', '<i4')])
assert ffi.sizeof('nnue_eval_detail') == _DETAIL.itemsize


class Evaluations(NamedTuple):
    """One int32 array per field of nnue_eval_detail; bucket is -1 for a position that failed
    (errors='mask'); ok is bucket >= 0."""
    bucket: np.ndarray
    psqt: np.ndarray
    positional: np.ndarray
    total: np.ndarray
    scaled: np.ndarray

    @property
    def ok(self):
        return self.bucket >= 0


class Net:
    """Net.load(path, arch=None): arch None picks a built-in architecture from the file's header
    (nnue_net_load_auto); else an Arch, a built-in name or a YAML path."""

    def __init__(self, ptr, path=None):
        self._ptr, self._path = ptr, path
        self.arch = Arch(lib.nnue_net_arch(ptr), owner=self)
        self._game = lib.nnue_arch_game(lib.nnue_net_arch(ptr))
        # the centipawn rule (include/nnue.h nnue_cp_rule_for_file: the file is read for its
        # SHA-256 only where only the release tells, SFNNv9)
        self._cp = ffi.new('nnue_cp_rule *')
        lib.nnue_cp_rule_for_file(lib.nnue_net_arch(ptr), os.fsencode(path) if path else ffi.NULL, self._cp)

    @classmethod
    def load(cls, path, arch=None):
        out, err = ffi.new('nnue_net **'), ffi.new('nnue_error *')
        if arch is None:
            check(lib.nnue_net_load_auto(os.fsencode(path), out, err), err)
        else:
            arch = arch if isinstance(arch, Arch) else Arch.load(arch)
            check(lib.nnue_net_load(arch._ptr, os.fsencode(path), out, err), err)
        return cls(ffi.gc(out[0], lib.nnue_net_free), path)

    def save(self, path, encoding='plain'):
        """Writes the file this net was loaded from in another encoding to path (nnue.convert:
        'plain', 'leb128', 'zstd', 'unzstd'), with the net's architecture; never half a file."""
        from nnue.netfile import convert
        if self._path is None:
            raise ValueError('this net was not loaded from a file')
        convert(self._path, path, encoding, arch=self.arch)

    @property
    def game(self):
        return text(self._game.name)

    @property
    def start(self):
        """The game's start position text (what "startpos" means)."""
        return text(self._game.start)

    @property
    def warning(self):
        """The net's overflow warning (docs/units.md), or None. Computed on first use (a pass
        over every weight, about 0.1 s on a release net), not by Net.load."""
        w = lib.nnue_net_warning(self._ptr)
        return text(w) if w != ffi.NULL else None

    @property
    def centipawns_engine(self):
        """Whose centipawn conversion the net's values follow ('Stockfish 18'; '' for a bullet
        net's scaled value), or None when the net has no checked conversion (docs/units.md)."""
        return text(self._cp.engine) if self._cp.kind != lib.NNUE_CP_NONE else None

    @property
    def centipawns_why(self):
        """Why the net has no checked centipawn conversion, or None when it has one."""
        return text(self._cp.why) if self._cp.kind == lib.NNUE_CP_NONE else None

    def centipawns(self, positions, evaluations=None):
        """Centipawns as the net's own engine prints them (include/nnue.h nnue_cp_convert), one
        int per position of the side to move's view; evaluations: Net.evaluate's result for the
        same positions (evaluated here when None). Raises ValueError saying why when the net has
        no checked conversion."""
        if self._cp.kind == lib.NNUE_CP_NONE:
            raise ValueError('no centipawns: ' + text(self._cp.why))
        if isinstance(positions, (str, bytes)):
            positions = [positions]
        e = self.evaluate(positions) if evaluations is None else evaluations
        d, cp = ffi.new('nnue_eval_detail *'), ffi.new('int *')
        out = np.zeros(len(positions), dtype=np.int32)
        for i, p in enumerate(self._encode(positions)):
            d.bucket, d.psqt, d.positional = int(e.bucket[i]), int(e.psqt[i]), int(e.positional[i])
            d.total, d.scaled = int(e.total[i]), int(e.scaled[i])
            lib.nnue_cp_convert(self._cp, d, p, cp)
            out[i] = cp[0]
        return out

    def _encode(self, positions, offset=0):
        """Position texts as bytes. Only text is a position: bytes(5) would be five NUL bytes, and
        C reads a text only up to its first NUL, so both are refused, naming the index."""
        start = self._game.start
        out = []
        for i, p in enumerate(positions):
            if isinstance(p, str):
                b = p.encode()
            elif isinstance(p, (bytes, bytearray, memoryview)):
                b = bytes(p)
            else:
                raise TypeError(f'position {offset + i}: expected str or bytes, got {type(p).__name__}')
            if b'\0' in b:
                raise ValueError(f'position {offset + i}: a NUL byte at column {b.index(0) + 1} '
                                 '(the text would end there)')
            b = b.strip()
            out.append(ffi.string(start) if b == b'startpos' and start != ffi.NULL else b)
        return out

    def _batch(self, encoded, threads, errors, offset):
        n = len(encoded)
        buf = b'\0'.join(encoded) + b'\0'
        lengths = np.fromiter((len(b) + 1 for b in encoded), dtype=np.uint64, count=n)
        starts = np.zeros(n, dtype=np.uint64)
        np.cumsum(lengths[:-1], out=starts[1:])
        cbuf = ffi.from_buffer('char[]', buf)
        addrs = starts + np.uint64(int(ffi.cast('uintptr_t', cbuf)))
        ptrs = ffi.cast('const char *const *', ffi.from_buffer(addrs))
        result = np.zeros(n, dtype=_DETAIL)
        out = ffi.cast('nnue_eval_detail *', ffi.from_buffer(result))
        err, first = ffi.new('nnue_error *'), ffi.new('size_t *')
        bad = lib.nnue_eval_batch(self._ptr, ptrs, n, threads, out, err, first)  # GIL released
        if bad and errors == 'raise':
            raise NnueError.from_c(err, index=offset + int(first[0]))
        return result

    def evaluate(self, positions, threads=0, errors='raise', chunk=1 << 18, progress=None):
        """Evaluates a sequence (list, NumPy array) of position texts (FEN / SFEN, "startpos").
        threads: OpenMP threads (0: OpenMP's default, OMP_NUM_THREADS). errors: 'raise' (an
        NnueError naming the first bad position's index and column) or 'mask' (bucket -1).
        progress(done, total, seconds) is called after each chunk of positions."""
        if errors not in ('raise', 'mask'):
            raise ValueError("errors must be 'raise' or 'mask'")
        if not isinstance(chunk, int) or chunk < 1:
            raise ValueError(f'chunk must be a positive integer, got {chunk!r}')
        if not isinstance(threads, int) or not 0 <= threads <= lib.NNUE_MAX_BATCH_THREADS:
            raise ValueError(f'threads must be 0 (OpenMP\'s default) to {lib.NNUE_MAX_BATCH_THREADS}, got {threads!r}')
        if isinstance(positions, (str, bytes)):
            positions = [positions]
        total = len(positions)
        parts, t0 = [], time.monotonic()
        for lo in range(0, total, chunk):
            enc = self._encode(positions[lo:lo + chunk], lo)
            parts.append(self._batch(enc, threads, errors, lo))
            if progress:
                progress(min(lo + chunk, total), total, time.monotonic() - t0)
        r = np.concatenate(parts) if parts else np.zeros(0, dtype=_DETAIL)
        return Evaluations(*(np.ascontiguousarray(r[f]) for f in _DETAIL.names))

    def evaluate_one(self, position):
        """One position: a dict of bucket, psqt, positional, total, scaled."""
        e = self.evaluate([position])
        return {f: int(getattr(e, f)[0]) for f in _DETAIL.names}

    def __repr__(self):
        return f'<nnue.Net {self.arch.name} game={self.game}>'
