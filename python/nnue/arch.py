"""Arch: an architecture (a built-in name such as "sfnnv5", or a YAML file) and its identity."""
import os

from nnue._lib import ffi, lib, text
from nnue.errors import check


class Arch:
    """Arch.load(name_or_path); .name, .description, .file_hash, .ft_hash, .network_hash, .game,
    .parameters, .file_size; .random_net(seed): a net of random weights as bytes."""

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

    def _layout(self):
        out = ffi.new('nnue_arch_layout *')
        lib.nnue_arch_layout_get(self._ptr, out, ffi.sizeof('nnue_arch_layout'))
        return out

    @property
    def parameters(self):
        """Weights and biases over all stacks."""
        return int(self._layout().parameters)

    @property
    def file_size(self):
        """Exact bytes of a net file as `nnue arch` prints them (0 when they vary: LEB128)."""
        return int(self._layout().file_size)

    def random_net(self, seed=0):
        """The bytes `nnue init --seed SEED` writes for this architecture (nnue_net_random_memory)."""
        if not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise ValueError(f'seed must be an integer from 0 to 2^64 - 1, got {seed!r}')
        data, size, err = ffi.new('void **'), ffi.new('size_t *'), ffi.new('nnue_error *')
        check(lib.nnue_net_random_memory(self._ptr, seed, data, size, err), err)
        try:
            return bytes(ffi.buffer(data[0], size[0]))
        finally:
            lib.nnue_bytes_free(data[0])

    def __repr__(self):
        return f'<nnue.Arch {self.name} game={self.game} file_hash=0x{self.file_hash:08X}>'
