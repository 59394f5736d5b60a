"""nnue.load_extension: the toy extension of tests/extend/outside (a feature set and a layer type,
built here into a shared object against include/ and the build's libnnue) loaded from Python;
then a YAML naming its pieces loads, and a net of it (written by the tool, which loads the same
extension) evaluates to minus the same net read through built-in pieces."""
import os
import shutil
import subprocess

import pytest

import nnue
from conftest import SRC, tool_env

OUTSIDE = os.path.join(SRC, 'tests', 'extend', 'outside')


@pytest.fixture(scope='module')
def toy(tmp_path_factory):
    cc = os.environ.get('CC') or shutil.which('clang') or shutil.which('cc')
    if not cc:
        pytest.skip('no C compiler to build the toy extension')
    lib_dir = os.path.dirname(nnue.library_path)
    out = str(tmp_path_factory.mktemp('ext') / 'toy.so')
    subprocess.run([cc, '-shared', '-fPIC', '-O2', '-o', out, os.path.join(OUTSIDE, 'toy_extension.c'),
                    '-I', os.path.join(SRC, 'include'), '-L', lib_dir, f'-Wl,-rpath,{lib_dir}',
                    f'-l:{os.path.basename(nnue.library_path)}'], check=True)
    return out


def test_unknown_file_and_not_an_extension(tmp_path):
    with pytest.raises(nnue.NnueError) as e:
        nnue.load_extension(tmp_path / 'none.so')
    assert 'cannot load the extension' in str(e.value) and 'none.so' in str(e.value)
    with pytest.raises(nnue.NnueError) as e:
        nnue.load_extension(nnue.library_path)
    assert "defines no function 'nnue_extension_init'" in str(e.value)


def test_toy_pieces_evaluate_as_minus_the_builtin_ones(toy, tool, tmp_path):
    nnue.load_extension(toy)
    arch = nnue.Arch.load(os.path.join(OUTSIDE, 'toy.yaml'))
    assert 'Toy768' in arch.description and 'toy_affine[1<-64]' in arch.description
    net_path = str(tmp_path / 'toy.bin')
    subprocess.run([tool, '--extension', toy, 'init', '--seed', '3', os.path.join(OUTSIDE, 'toy.yaml'), net_path],
                   check=True, capture_output=True, env=tool_env())
    mine = nnue.Net.load(net_path, arch=os.path.join(OUTSIDE, 'toy.yaml'))
    theirs = nnue.Net.load(net_path, arch=os.path.join(OUTSIDE, 'builtin.yaml'))
    positions = ['startpos', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10',
                 '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1']
    a, b = mine.evaluate(positions), theirs.evaluate(positions)
    assert list(a.total) == [-t for t in b.total]
    assert any(t != 0 for t in b.total)
