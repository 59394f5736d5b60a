"""Batch evaluation equals the goldens (Stockfish's own numbers) and the CLI, bit for bit."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import REFERENCE, read_golden

CASES = [('sf151', 'golden-sf151-A.tsv'), ('sf18', 'golden-sf18-A.tsv')]


@pytest.mark.parametrize('net_name,golden', CASES)
def test_golden_rows(request, net_name, golden):
    net = request.getfixturevalue(net_name)
    rows = read_golden(os.path.join(REFERENCE, golden))
    e = net.evaluate(np.array([r[0] for r in rows]))
    want = np.array([r[1:] for r in rows], dtype=np.int32)
    got = np.stack([e.bucket, e.psqt, e.positional, e.total], axis=1)
    mismatched = np.nonzero((got != want).any(axis=1))[0]
    assert len(rows) == 2981 and len(mismatched) == 0, f'{len(mismatched)} rows differ, first {rows[mismatched[0]]}'


@pytest.mark.parametrize('net_name', ['sf151_path', 'sf18_path'])
def test_equals_cli(request, tool, tmp_path, net_name):
    path = request.getfixturevalue(net_name)
    corpus = os.path.join(REFERENCE, 'corpusA.fen')
    out = subprocess.run([tool, 'eval', '--net', path, '--file', corpus, '--quiet'], capture_output=True,
                         text=True, check=True).stdout.splitlines()[1:]
    cli = np.array([[int(x) for x in line.split('\t')[1:6]] for line in out], dtype=np.int32)
    import nnue
    net = nnue.Net.load(path)
    with open(corpus) as f:
        fens = [line.strip() for line in f if line.strip() and not line.startswith('#')]
    e = net.evaluate(fens)
    got = np.stack([e.bucket, e.psqt, e.positional, e.total, e.scaled], axis=1)
    assert got.shape == cli.shape and (got == cli).all()


def test_threads_agree(sf18):
    rows = read_golden(os.path.join(REFERENCE, 'golden-sf18-A.tsv'))
    fens = [r[0] for r in rows[:500]]
    one, two = sf18.evaluate(fens, threads=1), sf18.evaluate(fens, threads=2)
    for a, b in zip(one, two):
        assert (a == b).all()


def test_chunks_and_progress(sf18):
    rows = read_golden(os.path.join(REFERENCE, 'golden-sf18-A.tsv'))[:300]
    seen = []
    e = sf18.evaluate([r[0] for r in rows], chunk=128, progress=lambda done, total, s: seen.append((done, total)))
    assert seen == [(128, 300), (256, 300), (300, 300)]
    assert list(e.total) == [r[4] for r in rows]


# The 2026 nets (shared/oracle/third/<engine>/FACTS.md), read as the engines ship them (the .xz ones
# unpacked; the build's unpacked copy when the C tests made one): the golden column `total` must
# equal (the engine's raw output; PlentyChess's scaled `nnue`) and, where the net has an output
# scale, the column `scaled` must equal (Stormphrax's `nnue`: raw * 400 / 2^24).
THIRD = [('reckless', 'reckless-random.bin.xz', 2, None), ('viridithas', 'viridithas-random.nnue.zst', 2, None),
         ('stormphrax', 'stormphrax-random.nnue.xz', 2, 4), ('plentychess', 'plentychess-random.bin.xz', 4, None)]


@pytest.mark.parametrize('engine,net_file,total_col,scaled_col', THIRD)
def test_third_party_goldens(shared, tmp_path, engine, net_file, total_col, scaled_col):
    import lzma
    import nnue
    folder = os.path.join(shared, 'oracle', 'third', engine)
    path = os.path.join(folder, net_file)
    if not os.path.exists(path):
        pytest.skip(f'{path} is absent')
    if path.endswith('.xz'):
        built = os.path.join(os.environ.get('NNUE_BUILD_DIR', ''), 'nets', net_file[:-3])
        if os.environ.get('NNUE_BUILD_DIR') and os.path.exists(built):
            path = built
        else:
            with lzma.open(path) as src, open(tmp_path / 'net.bin', 'wb') as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            path = str(tmp_path / 'net.bin')
    net = nnue.Net.load(path, arch=engine)
    with open(os.path.join(folder, 'goldensA.tsv')) as f:
        next(f)
        rows = [line.rstrip('\n').split('\t') for line in f]
    e = net.evaluate([r[0] for r in rows])
    want = np.array([[int(r[1]), int(r[total_col])] for r in rows], dtype=np.int64)
    got = np.stack([e.bucket, e.total], axis=1)
    bad = np.nonzero((got != want).any(axis=1))[0]
    assert len(rows) == 2981 and len(bad) == 0, f'{len(bad)} rows differ, first {rows[bad[0]] if len(bad) else None}'
    if scaled_col is not None:
        assert (e.scaled == np.array([int(r[scaled_col]) for r in rows])).all()
