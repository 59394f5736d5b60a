"""A seeded random walk through the Python API with hostile arguments mixed in (issue 40: "Python
API calls from a fuzzer-driven script"). Every call either works or raises one of the documented
exceptions (NnueError, ValueError, TypeError, IndexError); after any failure the objects keep
working, and every evaluation the walk reaches equals a fresh evaluation of the same position.
Run under ASan too (the sanitizer build's python suite), where a bad read in C is a crash.
NNUE_FUZZ_STEPS sets the walk's length (default 1500 per game), NNUE_FUZZ_SEED its seed."""
import os
import random
import subprocess

import pytest

import nnue
from conftest import tool_env

ALLOWED = (nnue.NnueError, ValueError, TypeError, IndexError)
ARCHS = {'chess': os.path.join('tests', 'nets', 'tiny_sf.yaml'),
         'shogi': os.path.join('tests', 'threads', 'tiny_shogi.yaml')}


@pytest.fixture(scope='module', params=sorted(ARCHS))
def net(request, tool, tmp_path_factory):
    src = os.path.join(os.path.dirname(__file__), '..', '..', ARCHS[request.param])
    path = str(tmp_path_factory.mktemp('fuzz') / f'{request.param}.nnue')
    subprocess.run([tool, 'init', '--seed', '5', src, path], check=True, capture_output=True, env=tool_env())
    return nnue.Net.load(path, arch=src)


def junk(rng):
    """A hostile value: wrong types, NUL bytes, huge or empty texts, damaged positions."""
    pick = rng.randrange(9)
    if pick == 0:
        return rng.choice([None, 5, -1, 3.5, [], {}, b'\0' * 8, bytearray(b'x')])
    if pick == 1:
        return 'startpos\0' + 'x' * rng.randrange(4)
    if pick == 2:
        return ''.join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randrange(0, 80)))
    if pick == 3:
        return 'x' * rng.randrange(10000, 100000)
    if pick == 4:
        return ' '
    return None


def damaged(rng, text):
    """The text with a few characters replaced, cut or doubled."""
    t = list(text)
    for _ in range(rng.randrange(1, 4)):
        if not t:
            break
        i = rng.randrange(len(t))
        op = rng.randrange(3)
        if op == 0:
            t[i] = rng.choice('pnbrqkPNBRQK12345678/ -wb+*lsgLSG9x')
        elif op == 1:
            del t[i:]
        else:
            t.insert(i, t[i])
    return ''.join(t)


def same_as_fresh(st, net):
    """The state's evaluation equals a fresh one of its position, or both refuse it."""
    try:
        got = st.evaluate()
    except nnue.NnueError:
        with pytest.raises(nnue.NnueError):
            net.evaluate_one(st.position)
        return
    assert got == net.evaluate_one(st.position), st.position


def test_random_walk_with_hostile_calls(net):
    rng = random.Random(int(os.environ.get('NNUE_FUZZ_SEED', '40')))
    steps = int(os.environ.get('NNUE_FUZZ_STEPS', '1500'))
    st = nnue.State(net, max_ply=64)
    counts = {'ok': 0, 'refused': 0}
    for _ in range(steps):
        op = rng.randrange(8)
        bad = junk(rng)
        try:
            if op == 0:
                moves = st.legal_moves()
                if moves and rng.random() < 0.8:
                    st.push(rng.choice(moves))
                else:
                    st.push(bad if isinstance(bad, str) else damaged(rng, rng.choice(moves or ['e2e4'])))
            elif op == 1:
                st.pop()
            elif op == 2:
                st.reset(bad if isinstance(bad, str) else damaged(rng, st.position))
            elif op == 3:
                same_as_fresh(st, net)
            elif op == 4:
                batch = [st.position, damaged(rng, st.position), bad if bad is not None else 'startpos']
                e = net.evaluate(batch, errors=rng.choice(['mask', 'raise']),
                                 threads=rng.choice([0, 1, 2, -3, 5000]), chunk=rng.choice([1, 2, 0, -1]))
                assert len(e.total) == len(batch)
            elif op == 5:
                st.reset('startpos')
            elif op == 6:
                nnue.State(net, position=bad if isinstance(bad, str) else 'startpos',
                           max_ply=rng.choice([0, 1, 64, -5]))
            else:
                nnue.Arch.from_yaml(bad if isinstance(bad, str) else damaged(rng, 'name: x\ngame: chess\n'))
            counts['ok'] += 1
        except ALLOWED:
            counts['refused'] += 1
        # whatever happened, the state still answers consistently
        moves = st.legal_moves()
        assert all(isinstance(m, str) for m in moves)
        if rng.random() < 0.05:
            same_as_fresh(st, net)
    assert counts['ok'] > steps // 10 and counts['refused'] > steps // 10, counts
