"""Finds and opens the C library (cffi ABI mode: no compiler needed at import time).

Order: $NNUE_LIBRARY (a path: the build tree's build/libnnue.so in tests), the copy meson
installs beside this file (pip install), then the system's libnnue.so.1."""
import ctypes.util
import glob
import os

import cffi

from nnue._cdef import CDEF

ffi = cffi.FFI()
ffi.cdef(CDEF)


def _candidates():
    env = os.environ.get('NNUE_LIBRARY')
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, '_libnnue*.so')))
    system = ctypes.util.find_library('nnue')
    return found + ([system] if system else []) + ['libnnue.so.1']


def _open():
    errors = []
    for path in _candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            errors.append(f'{path}: {e}')
    raise ImportError('nnue: cannot open the C library (set NNUE_LIBRARY to libnnue.so): ' + '; '.join(errors))


lib, library_path = _open()


def text(ptr):
    """A C string as str ('' for NULL)."""
    return ffi.string(ptr).decode('utf-8', 'replace') if ptr != ffi.NULL else ''
