"""Hostile and mistaken calls from Python (issue 40's review): each gives a clear exception and
leaves the objects usable; none reads out of bounds. A shogi net with random weights is made by
`nnue init` from tests/threads/tiny_shogi.yaml, so nothing here needs the reference data."""
import os
import subprocess

import pytest

import nnue
from conftest import tool_env


@pytest.fixture(scope='module')
def shogi_net(tool, tmp_path_factory):
    src = os.path.join(os.path.dirname(__file__), '..', 'threads', 'tiny_shogi.yaml')
    path = str(tmp_path_factory.mktemp('nets') / 'tiny_shogi.nnue')
    subprocess.run([tool, 'init', '--seed', '3', src, path], check=True, capture_output=True, env=tool_env())
    return nnue.Net.load(path, arch=src)


def test_failed_shogi_reset_keeps_the_state(shogi_net):
    """A reset to a bad SFEN once left a zeroed board under the old move stack: the next
    legal_moves()/push()/pop() read out of bounds (ASan: heap-buffer-overflow in the ray scan)."""
    st = nnue.State(shogi_net)
    st.push('7g7f')
    st.push('3c3d')
    position, moves, value = st.position, st.legal_moves(), st.evaluate()
    for bad in ('lnsgkgsnl/9 b - 1', 'not an sfen', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1'):
        with pytest.raises(nnue.NnueError):
            st.reset(bad)
        assert st.position == position
        assert st.legal_moves() == moves
        assert st.evaluate() == value
    st.push('2g2f')
    st.pop()
    st.pop()
    st.pop()
    assert st.position == nnue.State(shogi_net).position
    with pytest.raises(IndexError):
        st.pop()


def test_evaluate_refuses_what_is_not_a_position(shogi_net):
    good = shogi_net.evaluate(['startpos'])
    with pytest.raises(TypeError, match='position 1: expected str or bytes, got int'):
        shogi_net.evaluate(['startpos', 5])   # bytes(5) would be five NUL bytes
    with pytest.raises(ValueError, match='position 0: a NUL byte at column 9'):
        shogi_net.evaluate(['startpos\0 trailing text'])
    with pytest.raises(ValueError, match='chunk must be a positive integer'):
        shogi_net.evaluate(['startpos'], chunk=-1)   # once returned nothing
    with pytest.raises(ValueError, match='chunk must be a positive integer'):
        shogi_net.evaluate(['startpos'], chunk=0)
    assert list(shogi_net.evaluate(['startpos'] * 3, chunk=1).total) == [good.total[0]] * 3


def test_threads_are_bounded(shogi_net):
    with pytest.raises(ValueError, match='threads must be 0'):
        shogi_net.evaluate(['startpos'], threads=2000)   # once left 2000 OpenMP threads alive
    with pytest.raises(ValueError, match='threads must be 0'):
        shogi_net.evaluate(['startpos'], threads=-1)
    assert shogi_net.evaluate(['startpos'] * 2, threads=8).ok.all()
