"""Net files as files (include/nnue_netfile.h): which architecture a file is, by the library's one
chooser (the tool and nnue_net_load_auto use the same rules: docs/detection.md), and writing a net
in another encoding (plain, LEB128, zstd, self-describing), under a temporary name and renamed."""
import os
from typing import NamedTuple

from nnue._lib import ffi, lib, text
from nnue.arch import Arch
from nnue.errors import NnueError, check

KINDS = {lib.NNUE_CHOICE_NO_HASH: 'no_hash', lib.NNUE_CHOICE_SIZE_MISMATCH: 'size_mismatch',
         lib.NNUE_CHOICE_ONLY: 'only', lib.NNUE_CHOICE_KNOWN_NET: 'known_net',
         lib.NNUE_CHOICE_WRITTEN_FOR: 'written_for', lib.NNUE_CHOICE_DEFAULT: 'default',
         lib.NNUE_CHOICE_AMBIGUOUS: 'ambiguous', lib.NNUE_CHOICE_NAMED_MISSING: 'named_missing',
         lib.NNUE_CHOICE_NAMED_SIZE: 'named_size', lib.NNUE_CHOICE_SELF_DESCRIBING: 'self_describing',
         lib.NNUE_CHOICE_RAW: 'raw'}

ENCODINGS = {'plain': lib.NNUE_WRITE_PLAIN, 'leb128': lib.NNUE_WRITE_LEB128, 'zstd': lib.NNUE_WRITE_ZSTD,
             'unzstd': lib.NNUE_WRITE_UNZSTD, 'self-describing': lib.NNUE_WRITE_SELF_DESCRIBING}


class Candidate(NamedTuple):
    """An architecture with the file's version and file hash: its name, where it came from
    ("built-in (archs/sfnnv5.yaml)", a YAML path), whether the file's size fits it, the size it expects."""
    name: str
    source: str
    size_fits: bool
    expected_bytes: int


class Choice(NamedTuple):
    """kind: how the choice was made ('only', 'known_net', 'default', ...; 'ambiguous', 'size_mismatch',
    'named_size', ... when none was); candidates; chosen: the index or None; arch: the chosen Arch or
    None; error: an NnueError saying why none was chosen (naming the file), else None; named: the
    architecture the description names ('' when none); sha256 ('' unless computed); known_net."""
    kind: str
    candidates: list
    chosen: object
    arch: object
    error: object
    named: str
    sha256: str
    known_net: object


def choose(path, dirs=(), sha256=False):
    """The architecture of the net file at path among the built-in ones and the *.yaml files of
    dirs (and, for an `nnue init` net, of its own folder). Raises NnueError only when the file
    cannot be read."""
    keep = [ffi.new('char[]', os.fsencode(d)) for d in dirs]
    arr = ffi.new('const char *[]', keep) if keep else ffi.NULL
    out, err = ffi.new('nnue_choice **'), ffi.new('nnue_error *')
    flags = lib.NNUE_CHOOSE_BESIDE_NET | (lib.NNUE_CHOOSE_SHA256 if sha256 else 0)
    check(lib.nnue_arch_choose(os.fsencode(path), arr, len(keep), flags, out, err), err)
    c = ffi.gc(out[0], lib.nnue_choice_free)
    cands = [Candidate(text(lib.nnue_arch_name(lib.nnue_choice_arch(c, i))), text(lib.nnue_choice_source(c, i)),
                       bool(lib.nnue_choice_size_fits(c, i)), int(lib.nnue_choice_expected_bytes(c, i)))
             for i in range(lib.nnue_choice_count(c))]
    arch_out = ffi.new('nnue_arch **')
    arch, error = None, None
    if lib.nnue_choice_result(c, arch_out, err) == lib.NNUE_OK:
        arch = Arch(ffi.gc(arch_out[0], lib.nnue_arch_free))
    else:
        error = NnueError.from_c(err)
    i = lib.nnue_choice_chosen(c)
    known = lib.nnue_choice_known_net(c, ffi.NULL)
    return Choice(KINDS[lib.nnue_choice_kind_of(c)], cands, i if i >= 0 else None, arch, error,
                  text(lib.nnue_choice_named(c)), text(lib.nnue_choice_sha256(c)),
                  text(known) if known != ffi.NULL else None)


def convert(src, dst, to, arch=None, arch_yaml=None):
    """Writes the net file src in another encoding to dst (never half a file at dst): to is 'plain',
    'leb128' (Stockfish format, one feature set of i16 weights), 'zstd', 'unzstd' or
    'self-describing' (needs arch_yaml, the YAML file of the header-less net). arch: an Arch, a
    built-in name or a YAML path; None: chosen from the file (choose). Raises NnueError saying why."""
    if to not in ENCODINGS:
        raise ValueError(f"to must be one of {', '.join(ENCODINGS)}, got {to!r}")
    err = ffi.new('nnue_error *')
    if arch is None and to != 'self-describing':
        c = choose(src)
        if c.error is not None:
            raise c.error
        arch = c.arch
    elif arch is not None and not isinstance(arch, Arch):
        arch = Arch.load(arch)
    yaml = os.fsencode(arch_yaml) if arch_yaml is not None else ffi.NULL
    check(lib.nnue_net_convert(arch._ptr if arch is not None else ffi.NULL, os.fsencode(src), ENCODINGS[to], yaml,
                               os.fsencode(dst), err), err)
