"""Arch identity, State (incremental = from scratch), errors with their location."""
import json
import os
import subprocess

import pytest

import nnue
from conftest import REFERENCE, read_golden


def test_arch_identity_equals_cli(tool):
    arch = nnue.Arch.load('sfnnv5')
    path = os.path.join(os.environ.get('NNUE_ARCHS_DIR', 'archs'), 'sfnnv5.yaml')
    info = json.loads(subprocess.run([tool, 'arch', '--json', path], capture_output=True, text=True,
                                     check=True).stdout)[0]
    assert arch.name == info['name'] and arch.description == info['description']
    assert (arch.file_hash, arch.ft_hash, arch.network_hash) == tuple(
        int(info[k], 16) for k in ('file_hash', 'ft_hash', 'network_hash'))
    assert arch.game == 'chess'
    assert 'sfnnv5' in nnue.Arch.builtin_names()


def test_net_arch(sf151):
    assert sf151.arch.name == 'SFNNv5' and sf151.game == 'chess'
    assert sf151.arch.file_hash == nnue.Arch.load('sfnnv5').file_hash


def test_state_incremental_equals_batch(sf18):
    st = nnue.State(sf18)
    moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1g1', 'f6e4', 'd2d4', 'e5d4']
    seen = [st.evaluate()]
    fens = [st.position]
    for m in moves:
        assert m in st.legal_moves()
        st.push(m)
        seen.append(st.evaluate())
        fens.append(st.position)
    e = sf18.evaluate(fens)
    assert [s['total'] for s in seen] == list(e.total)
    assert [s['psqt'] for s in seen] == list(e.psqt)
    for _ in moves:
        st.pop()
    assert st.position == fens[0] and st.evaluate() == seen[0]
    with pytest.raises(IndexError):
        st.pop()


def test_state_reset_golden(sf18):
    fen, bucket, psqt, positional, total = read_golden(os.path.join(REFERENCE, 'golden-sf18-A.tsv'))[1]
    st = nnue.State(sf18, fen)
    assert st.evaluate()['total'] == total and st.evaluate()['bucket'] == bucket


def test_illegal_move(sf18):
    st = nnue.State(sf18)
    with pytest.raises(nnue.NnueError) as e:
        st.push('e2e5')
    assert e.value.status and e.value.message
    assert st.moves == []


def test_arch_error_location(tmp_path):
    p = tmp_path / 'bad.yaml'
    p.write_text('name: x\ngame: chess\nfeature_transformer: [\n')
    with pytest.raises(nnue.NnueError) as e:
        nnue.Arch.load(str(p))
    assert e.value.file.endswith('bad.yaml') and e.value.line >= 3 and e.value.column >= 1
    assert str(e.value).startswith(e.value.file)


def test_net_error_offset(tmp_path, sf151_path):
    p = tmp_path / 'short.nnue'
    p.write_bytes(open(sf151_path, 'rb').read(1000))
    with pytest.raises(nnue.NnueError) as e:
        nnue.Net.load(str(p), arch='sfnnv5')
    assert e.value.offset >= 0 and e.value.code == e.value.code  # a byte offset into the file
    with pytest.raises(nnue.NnueError) as e:
        nnue.Net.load(str(tmp_path / 'missing.nnue'))
    assert e.value.status


def test_batch_errors(sf18):
    fens = ['startpos', 'rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'startpos']
    with pytest.raises(nnue.NnueError) as e:
        sf18.evaluate(fens)
    assert e.value.index == 1 and e.value.column == 14
    m = sf18.evaluate(fens, errors='mask')
    assert list(m.ok) == [True, False, True] and m.total[0] == m.total[2] == 44


def test_cdef_matches_headers():
    """Every function the package declares is one include/*.h declares (same names)."""
    import re
    import subprocess
    import sys
    from nnue._cdef import CDEF
    src = os.path.join(os.path.dirname(__file__), '..', '..')
    headers = [os.path.join(src, 'include', h) for h in os.listdir(os.path.join(src, 'include'))]
    out = subprocess.run([sys.executable, os.path.join(src, 'scripts', 'api_symbols.py'), '--list', *headers],
                         capture_output=True, text=True, check=True).stdout.split()
    used = set(re.findall(r'\b(nnue_\w+)\s*\(', CDEF))
    assert used <= set(out), used - set(out)
