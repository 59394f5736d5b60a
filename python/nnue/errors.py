"""nnue_error as a Python exception: what the C library said and where."""
from nnue._lib import ffi, lib, text


class NnueError(Exception):
    """code: the nnue_status value; status: its name ("syntax error"); file, line, column
    (1-based, 0 when not applicable), offset (byte offset in a binary file, -1 when not
    applicable), message; index: the position's index in a batch, None elsewhere."""

    def __init__(self, code, status, file, line, column, offset, message, formatted, index=None):
        super().__init__(formatted if index is None else f'position {index}: {formatted}')
        self.code, self.status = code, status
        self.file, self.line, self.column, self.offset = file, line, column, offset
        self.message, self.index = message, index

    @classmethod
    def from_c(cls, err, index=None):
        buf = ffi.new('char[]', 1200)
        lib.nnue_error_format(err, buf, len(buf))
        return cls(int(err.code), text(lib.nnue_status_name(err.code)), text(err.file), err.line, err.column,
                   err.offset, text(err.message), text(buf), index)


def check(status, err):
    if status != lib.NNUE_OK:
        raise NnueError.from_c(err)
