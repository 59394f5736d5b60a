"""Training data: the shared reader gives back games.plain byte for byte (from games.plain and
from games.binpack), the writer gives games.binpack byte for byte, and `nnue rescore` (the CLI)
and nnue.training.rescore write the net's scores, equal to the batch evaluation."""
import os
import subprocess

import pytest

import nnue
from nnue import training


def plain(shared):
    return os.path.join(shared, 'oracle', 'chess', 'training', 'games.plain')


def binpack(shared):
    return os.path.join(shared, 'oracle', 'chess', 'training', 'games.binpack')


def test_plain_roundtrip(shared):
    recs = list(training.read(plain(shared)))
    assert len(recs) == 2882 and recs[0]['move'] == 'a2a3' and recs[0]['ply'] == 0
    text = ''.join(training.format_record(r, 'plain') for r in recs)
    assert text == open(plain(shared)).read()


def test_binpack_reads_as_games_plain(shared):
    recs = list(training.read(binpack(shared)))
    assert len(recs) == 2882 and recs[0]['line'] == 8 and training.format_of(binpack(shared)) == 'binpack'
    assert ''.join(training.format_record(r, 'plain') for r in recs) == open(plain(shared)).read()


def test_binpack_writer_gives_the_reference_bytes(shared, tmp_path):
    out = tmp_path / 'games.binpack'
    assert training.write(str(out), training.read(plain(shared))) == 2882
    assert out.read_bytes() == open(binpack(shared), 'rb').read()


@pytest.mark.parametrize('fmt', ['plain', 'bullet', 'binpack'])
def test_rescore_cli_equals_python(shared, tool, sf151_path, sf151, tmp_path, fmt):
    recs = list(training.read(plain(shared)))
    src = tmp_path / f'in.{fmt}'
    if fmt == 'binpack':
        training.write(str(src), recs)
    else:
        with open(src, 'w') as f:
            for r in recs:
                f.write(training.format_record(r if fmt == 'plain' else {**r, 'result': '0.5'}, fmt))
    cli_out, py_out = tmp_path / 'cli.out', tmp_path / 'py.out'
    subprocess.run([tool, 'rescore', '--net', sf151_path, '--format', fmt, '--quiet', str(src), str(cli_out)],
                   check=True)
    assert training.rescore(sf151, str(src), str(py_out), fmt) == 2882
    assert cli_out.read_bytes() == py_out.read_bytes()
    e = sf151.evaluate([r['position'] for r in recs])
    got = list(training.read(str(cli_out), fmt))
    assert [g['position'] for g in got] == [r['position'] for r in recs]
    if fmt != 'bullet':
        assert [g['score'] for g in got] == list(e.total)
        assert [(g['move'], g['ply'], g['result']) for g in got] == [(r['move'], r['ply'], r['result']) for r in recs]
    else:
        sign = [1 if ' w ' in r['position'] else -1 for r in recs]
        assert [g['score'] for g in got] == [s * int(x) for s, x in zip(sign, e.scaled)]


def test_malformed_record(tmp_path):
    p = tmp_path / 'bad.plain'
    p.write_text('fen 8/8/8/8/8/8/8/K6k w - - 0 1\nmove a1a2\nscore x1\nply 0\nresult 0\ne\n')
    with pytest.raises(nnue.NnueError) as e:
        list(training.read(str(p)))
    assert e.value.line == 3 and e.value.column == 7 and e.value.file.endswith('bad.plain')


def test_malformed_binpack(tmp_path):
    p = tmp_path / 'bad.binpack'
    p.write_bytes(b'BINP\x05\x00\x00\x00abc')
    with pytest.raises(nnue.NnueError) as e:
        list(training.read(str(p)))
    assert e.value.offset == 4 and e.value.file.endswith('bad.binpack') and 'runs past the end' in e.value.message
    with pytest.raises(ValueError):
        training.format_record({'position': 'x', 'score': 0, 'result': '0'}, 'binpack')


def test_writer_refuses_and_leaves_no_file(tmp_path):
    out = tmp_path / 'out.binpack'
    good = {'position': 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'move': 'e2e4', 'score': 3,
            'ply': 0, 'result': '0'}
    with pytest.raises(nnue.NnueError) as e:
        training.write(str(out), [good, {**good, 'move': 'e2e5'}])
    assert 'record 2: move' in e.value.message and not out.exists()


def test_rescore_score_kinds(shared, tool, sf151_path, sf151, sf18_path, tmp_path):
    """--score cp writes the checked centipawns (SF 15.1: total * 100 / 361, truncated toward
    zero), --score total the internal units; a net without a checked conversion is refused."""
    recs = list(training.read(plain(shared)))
    e = sf151.evaluate([r['position'] for r in recs])
    for kind, want in (('cp', [int(t * 100 / 361) for t in e.total]), ('total', list(e.total))):
        out = tmp_path / f'{kind}.plain'
        subprocess.run([tool, 'rescore', '--net', sf151_path, '--score', kind, '--quiet', plain(shared), str(out)],
                       check=True)
        assert [g['score'] for g in training.read(str(out))] == want
    assert any(w != t for w, t in zip([int(t * 100 / 361) for t in e.total], e.total))
    # Stockfish 18's net: its engine's material-scaled conversion, as eval's cp column (issue 39).
    out = tmp_path / 'sf18.plain'
    subprocess.run([tool, 'rescore', '--net', sf18_path, '--score', 'cp', '--quiet', plain(shared), str(out)],
                   check=True)
    col = subprocess.run([tool, 'eval', '--quiet', '--net', sf18_path, '--file', plain(shared)], check=True,
                         capture_output=True, text=True).stdout.splitlines()[1:]
    assert [g['score'] for g in training.read(str(out))] == [int(line.split('\t')[6]) for line in col]
    # A net without a checked conversion (SFNNv8-small: several engines, several conversions).
    small = tmp_path / 'small.nnue'
    subprocess.run([tool, 'init', 'sfnnv8small', str(small)], check=True, capture_output=True)
    run = subprocess.run([tool, 'rescore', '--net', str(small), '--score', 'cp', '--quiet', plain(shared),
                          str(tmp_path / 'x.plain')], capture_output=True, text=True)
    assert run.returncode == 1 and 'no checked centipawn conversion' in run.stderr, run.stderr
    assert not (tmp_path / 'x.plain').exists()
    run = subprocess.run([tool, 'rescore', '--net', sf151_path, '--score', 'pawns', plain(shared),
                          str(tmp_path / 'y.plain')], capture_output=True, text=True)
    assert run.returncode == 2 and "expected total, scaled or cp, got 'pawns'" in run.stderr


def test_fields_that_do_not_fit_are_refused(tmp_path):
    rec = {'position': 'x' * 256, 'move': 'e2e4', 'score': 0, 'ply': 0, 'result': '0'}
    with pytest.raises(ValueError, match='position .* is 256 bytes: at most 255'):
        training.write(str(tmp_path / 'o.plain'), [rec])
    assert not (tmp_path / 'o.plain').exists()
    with pytest.raises(ValueError, match='move .* at most 15'):
        training.write(str(tmp_path / 'o.plain'), [{**rec, 'position': '8/8/8/8/8/8/8/K6k w - - 0 1',
                                                    'move': 'e2e4' * 4}])


def test_rescore_in_batches_equals_one_batch(shared, sf151, tmp_path):
    one, small = tmp_path / 'one.plain', tmp_path / 'small.plain'
    seen = []
    assert training.rescore(sf151, plain(shared), str(one)) == 2882
    assert training.rescore(sf151, plain(shared), str(small), batch=1000,
                            progress=lambda d, t, s: seen.append((d, t))) == 2882
    assert one.read_text() == small.read_text()
    assert seen == [(1000, 0), (2000, 0), (2882, 2882)]


def test_text_lines_that_cannot_be_taken(tmp_path):
    """Review findings: text after a NUL byte was ignored, and a line of any length was read into
    one buffer; both are refused at their line (and column)."""
    good = '8/8/8/8/8/8/6k1/4K2R w K - 0 1 | 10 | 1.0\n'
    p = tmp_path / 'nul.txt'
    p.write_bytes(good.encode() + b'8/8/8/8/8/8/6k1/4K2R w K - 0 1 | 10 | 1.0\0junk\n')
    with pytest.raises(nnue.NnueError) as e:
        list(training.read(str(p), 'bullet'))
    assert (e.value.line, e.value.column) == (2, 42) and 'a NUL byte inside the line' in e.value.message
    p = tmp_path / 'long.plain'
    p.write_text('fen ' + 'x' * 70000 + '\n')
    with pytest.raises(nnue.NnueError) as e:
        list(training.read(str(p)))
    assert e.value.line == 1 and 'longer than 65536 bytes' in e.value.message
    p.write_text(good)
    assert len(list(training.read(str(p), 'bullet'))) == 1
