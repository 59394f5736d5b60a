"""Arch: an architecture (a built-in name such as "sfnnv5", or a YAML file) and its identity."""
import os

from nnue._lib import ffi, lib, text
from nnue.errors import check


class Arch:
    """Arch.load(name_or_path); .name, .description, .file_hash, .ft_hash, .network_hash, .game."""

    def __init__(self, ptr, owner=None):
        # owner: the Net whose copy this is (kept alive; not freed here), None when owned
        self._ptr, self._owner = ptr, owner

    @classmethod
    def load(cls, name_or_path):
        out, err = ffi.new('nnue_arch **'), ffi.new('nnue_error *')
        check(lib.nnue_arch_load_named(os.fsencode(name_or_path), out, err), err)
        return cls(ffi.gc(out[0], lib.nnue_arch_free))

    @classmethod
    def from_yaml(cls, yaml, name=None):
        data = yaml.encode() if isinstance(yaml, str) else bytes(yaml)
        out, err = ffi.new('nnue_arch **'), ffi.new('nnue_error *')
        check(lib.nnue_arch_load_string(data, len(data), name.encode() if name else ffi.NULL, out, err), err)
        return cls(ffi.gc(out[0], lib.nnue_arch_free))

    @staticmethod
    def builtin_names():
        return [text(lib.nnue_arch_builtin_name(i)) for i in range(lib.nnue_arch_builtin_count())]

    @property
    def name(self):
        return text(lib.nnue_arch_name(self._ptr))

    @property
    def description(self):
        n = lib.nnue_arch_describe(self._ptr, ffi.NULL, 0)
        buf = ffi.new('char[]', n + 1)
        lib.nnue_arch_describe(self._ptr, buf, n + 1)
        return ffi.string(buf, n).decode('utf-8', 'replace')

    def _hashes(self):
        h = ffi.new('uint32_t[3]')
        lib.nnue_arch_hashes(self._ptr, h, h + 1, h + 2)
        return int(h[0]), int(h[1]), int(h[2])

    @property
    def file_hash(self):
        return self._hashes()[0]

    @property
    def ft_hash(self):
        return self._hashes()[1]

    @property
    def network_hash(self):
        return self._hashes()[2]

    @property
    def game(self):
        return text(lib.nnue_arch_game(self._ptr).name)

    def __repr__(self):
        return f'<nnue.Arch {self.name} game={self.game} file_hash=0x{self.file_hash:08X}>'
