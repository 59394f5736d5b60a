"""python/nnue/_cdef.py against include/: the package repeats the C declarations by hand, so every
struct it declares must have the headers' size, field names, offsets and field types, every enum
the headers' values, and every function the headers' signature (cffi ignores const, as the ABI
does). The headers are run through the C preprocessor (no system headers: cffi knows the
fixed-width types) and parsed by cffi itself, then compared with the package's own ffi; a struct
or signature that changes in C without _cdef.py fails here instead of breaking Python silently."""
import os
import shutil
import subprocess

import cffi
import pytest

from nnue._lib import ffi, lib, library_path
from nnue._cdef import CDEF

SRC = os.path.join(os.path.dirname(__file__), '..', '..')
HEADERS = ['nnue.h', 'nnue_chess.h', 'nnue_shogi.h', 'nnue_protocol.h', 'nnue_training.h', 'nnue_extend.h']


@pytest.fixture(scope='module')
def header_ffi(tmp_path_factory):
    cc = os.environ.get('CC') or shutil.which('clang') or shutil.which('cc')
    if not cc:
        pytest.skip('no C compiler for the preprocessor')
    d = tmp_path_factory.mktemp('cdef')
    stubs = d / 'stubs'
    stubs.mkdir()
    for h in ('stddef.h', 'stdint.h', 'stdio.h', 'stdbool.h'):
        (stubs / h).write_text('')  # cffi knows size_t, uint8_t, ...
    (d / 'all.h').write_text(''.join(f'#include "{h}"\n' for h in HEADERS))
    text = subprocess.run([cc, '-E', '-P', '-nostdinc', '-DNNUE_NO_DEPRECATED', '-I', str(stubs),
                           '-I', os.path.join(SRC, 'include'),
                           str(d / 'all.h')], capture_output=True, text=True, check=True).stdout
    parsed = cffi.FFI()
    parsed.cdef(text)
    return parsed, parsed.dlopen(library_path)


def declared_functions():
    import re
    return sorted(set(re.findall(r'\b(nnue_\w+)\s*\(', CDEF)))


def test_every_function_has_the_headers_signature(header_ffi):
    parsed, parsed_lib = header_ffi
    names = declared_functions()
    assert len(names) >= 40
    for name in names:
        ours = ffi.typeof(getattr(lib, name)).cname
        theirs = parsed.typeof(getattr(parsed_lib, name)).cname
        assert ours == theirs, f'{name}: _cdef.py says {ours}, include/ says {theirs}'


def test_every_struct_has_the_headers_layout(header_ffi):
    parsed, _ = header_ffi
    _, structs, _ = ffi.list_types()
    checked = 0
    for name in structs:
        ours = ffi.typeof(f'struct {name}')
        if ours.fields is None:  # opaque in both (nnue_net, nnue_state, ...)
            continue
        theirs = parsed.typeof(f'struct {name}')
        assert theirs.fields is not None, f'struct {name} is opaque in include/ but not in _cdef.py'
        assert ffi.sizeof(ours) == parsed.sizeof(theirs), f'sizeof(struct {name})'
        mine = [(n, f.offset, f.type.cname) for n, f in ours.fields]
        real = [(n, f.offset, f.type.cname) for n, f in theirs.fields]
        assert mine == real, f'struct {name}: _cdef.py {mine} != include/ {real}'
        checked += 1
    assert checked >= 8


def test_every_enum_has_the_headers_values(header_ffi):
    parsed, _ = header_ffi
    typedefs, _, _ = ffi.list_types()
    checked = 0
    for name in typedefs:
        t = ffi.typeof(name)
        if t.kind == 'enum':
            assert t.relements == parsed.typeof(name).relements, name
            checked += 1
    assert checked >= 2
