"""Fixtures of the Python tests: the build tree's library and tool, the reference data (the
repository's tests/reference/chess, and the shared data) and the real nets. tests/python/meson.build
sets NNUE_LIBRARY, NNUE_TOOL, NNUE_BUILD_DIR, NNUE_SHARED_DIR and PYTHONPATH (the source tree's
python/); a missing net or shared data file skips."""
import os
import shutil
import subprocess
import sys

import pytest

import nnue

SF151_SIZE = 47001499
SF18 = 'nn-c288c895ea92.nnue'
SRC = os.path.join(os.path.dirname(__file__), '..', '..')
# The repository's copies of the release-net goldens and corpus A (README.md there).
REFERENCE = os.path.join(SRC, 'tests', 'reference', 'chess')


def tool_env():
    """The environment for running the tool from a test: without the ASan runtime that the
    sanitizer build preloads for the interpreter (tests/python/asan), which the tool, linked
    with its own, refuses."""
    return {k: v for k, v in os.environ.items() if k != 'LD_PRELOAD'}


def env_path(name, default):
    return os.environ.get(name) or default


@pytest.fixture(scope='session')
def shared():
    d = env_path('NNUE_SHARED_DIR', os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared'))
    if not os.path.isdir(d):
        pytest.skip(f'reference data {d} is absent')
    return d


@pytest.fixture(scope='session')
def tool():
    t = os.environ.get('NNUE_TOOL')
    if not t:
        pytest.skip('NNUE_TOOL is not set (run through meson test)')
    return t


@pytest.fixture(scope='session')
def sf151_path():
    """Stockfish 15.1's net as Debian's stockfish exports it (tests/nets/nets_helpers.c nets_sf151)."""
    d = os.path.join(env_path('NNUE_BUILD_DIR', 'build'), 'nets')
    path = os.path.join(d, 'sf151.nnue')
    if os.path.exists(path) and os.path.getsize(path) == SF151_SIZE:
        return path
    exe = shutil.which('stockfish') or '/usr/games/stockfish'
    if not os.access(exe, os.X_OK):
        pytest.skip('Debian stockfish 15.1 is not installed')
    os.makedirs(d, exist_ok=True)
    tmp = f'{path}.tmp{os.getpid()}'
    subprocess.run([exe], input=f'export_net {tmp}\nquit\n', text=True, capture_output=True, check=True)
    os.replace(tmp, path)
    return path


@pytest.fixture(scope='session')
def sf18_path():
    folder = env_path('NNUE_NETS_DIR', os.path.expanduser('~/.cache/nnue-nets'))
    path = os.path.join(folder, SF18)
    if not os.path.exists(path):   # the project's fetcher (its reasons on stderr)
        subprocess.run([sys.executable, os.path.join(SRC, 'scripts', 'fetch_nets.py'), '--dir', folder, SF18],
                       stdout=subprocess.DEVNULL)
    if not os.path.exists(path):
        pytest.skip(f'{path} is absent and scripts/fetch_nets.py could not fetch it')
    return path


@pytest.fixture(scope='session')
def sf151(sf151_path):
    return nnue.Net.load(sf151_path)


@pytest.fixture(scope='session')
def sf18(sf18_path):
    return nnue.Net.load(sf18_path)


def read_golden(path):
    """Rows of a golden TSV: (fen, bucket, psqt, positional, total)."""
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            c = line.rstrip('\n').split('\t')
            rows.append((c[0], int(c[1]), int(c[2]), int(c[3]), int(c[4])))
    return rows
