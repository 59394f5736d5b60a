"""Training data: the shared reader gives back games.plain byte for byte, and `nnue rescore`
(the CLI) and nnue.training.rescore write the net's scores, equal to the batch evaluation."""
import os
import subprocess

import pytest

import nnue
from nnue import training


def plain(shared):
    return os.path.join(shared, 'oracle', 'chess', 'training', 'games.plain')


def test_plain_roundtrip(shared):
    recs = list(training.read(plain(shared)))
    assert len(recs) == 2882 and recs[0]['move'] == 'a2a3' and recs[0]['ply'] == 0
    text = ''.join(training.format_record(r, 'plain') for r in recs)
    assert text == open(plain(shared)).read()


@pytest.mark.parametrize('fmt', ['plain', 'bullet'])
def test_rescore_cli_equals_python(shared, tool, sf151_path, sf151, tmp_path, fmt):
    recs = list(training.read(plain(shared)))
    src = tmp_path / f'in.{fmt}'
    with open(src, 'w') as f:
        for r in recs:
            f.write(training.format_record(r if fmt == 'plain' else {**r, 'result': '0.5'}, fmt))
    cli_out, py_out = tmp_path / 'cli.out', tmp_path / 'py.out'
    subprocess.run([tool, 'rescore', '--net', sf151_path, '--format', fmt, '--quiet', str(src), str(cli_out)],
                   check=True)
    assert training.rescore(sf151, str(src), str(py_out), fmt) == 2882
    assert cli_out.read_text() == py_out.read_text()
    e = sf151.evaluate([r['position'] for r in recs])
    got = list(training.read(str(cli_out), fmt))
    assert [g['position'] for g in got] == [r['position'] for r in recs]
    if fmt == 'plain':
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
