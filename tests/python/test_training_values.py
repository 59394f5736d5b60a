"""Training records as numbers (issue 39): read gives result as a number like score and ply,
write takes it as read gives it (int 1 crashed write before), and the text comes back the same."""
import pytest

from nnue import training

PLAIN = ('fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 12\nply 0\nresult 1\ne\n'
         'fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nmove e7e5\nscore -8\nply 1\nresult -1\ne\n')
BULLET = ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 12 | 1.0\n'
          'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 8 | 0.5\n')


@pytest.mark.parametrize('fmt, text, results', [('plain', PLAIN, [1, -1]), ('bullet', BULLET, [1.0, 0.5])])
def test_read_gives_numbers_and_write_takes_them(tmp_path, fmt, text, results):
    src, dst = tmp_path / f'a.{fmt}', tmp_path / f'b.{fmt}'
    src.write_text(text)
    recs = list(training.read(str(src), fmt))
    assert [r['result'] for r in recs] == results
    assert all(type(r['result']) is type(results[0]) for r in recs)
    assert all(isinstance(r['score'], int) and isinstance(r['ply'], int) for r in recs)
    assert training.write(str(dst), recs, fmt) == 2
    assert dst.read_text() == text


def test_write_takes_int_float_and_text(tmp_path):
    rec = {'position': 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'move': 'e2e4', 'score': 3,
           'ply': 0}
    for result in (1, 1.0, '1'):
        assert training.format_record({**rec, 'result': result}, 'plain').endswith('result 1\ne\n')
    assert training.format_record({**rec, 'result': 0.5}, 'bullet').endswith('| 3 | 0.5\n')
    assert training.format_record({**rec, 'result': 0}, 'bullet').endswith('| 3 | 0\n')
    with pytest.raises(TypeError, match='expected a number'):
        training.format_record({**rec, 'result': None}, 'plain')
    out = tmp_path / 'c.binpack'
    assert training.write(str(out), [{**rec, 'result': 1}], 'binpack') == 1
    assert [r['result'] for r in training.read(str(out))] == [1]
