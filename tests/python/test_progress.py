"""nnue.Progress: the CLI's progress line (positions/s, ETA) as a Python callback."""
import io

import nnue
from nnue.progress import eta_seconds, format_line


def test_eta_and_line():
    assert eta_seconds(0, 100, 1.0) is None
    assert eta_seconds(25, 100, 5.0) == 15.0          # 25 done in 5 s: 75 more at 5/s
    assert format_line(420, 1000, 0.084) == (' 42.0% [##########..............] 420/1000  5000 pos/s  ETA 0:00')
    assert format_line(250, 1000, 50.0) == (' 25.0% [######..................] 250/1000  5 pos/s  ETA 2:30')
    assert format_line(300, 0, 65.0) == '300 positions  5 pos/s  1:05 elapsed'


def test_callback_keeps_figures_and_draws(sf151):
    out = io.StringIO()
    p = nnue.Progress(stream=out, every=0, terminal=True)
    e = sf151.evaluate(['startpos'] * 10, chunk=4, progress=p)
    assert len(e.total) == 10
    assert (p.done, p.total) == (10, 10) and p.rate > 0 and p.eta == 0
    lines = out.getvalue().split('\r')[1:]
    assert len(lines) == 3 and lines[0].startswith(' 40.0% [#########') and '4/10' in lines[0]
    assert lines[-1].startswith('100.0% [########################] 10/10')
    p.close()
    assert out.getvalue().endswith('\r\033[K')


def test_no_escape_codes_off_a_terminal(sf151, tmp_path):
    # Issue 39: a log file got '\r' and '\033[K'; now plain lines, one per figure.
    for out in (io.StringIO(), open(tmp_path / 'log', 'w')):
        p = nnue.Progress(stream=out, every=0)
        sf151.evaluate(['startpos'] * 10, chunk=4, progress=p)
        p.close()
        out.flush()
        text = out.getvalue() if isinstance(out, io.StringIO) else (tmp_path / 'log').read_text()
        assert '\r' not in text and '\033' not in text, repr(text)
        lines = text.split('\n')
        assert len(lines) == 4 and lines[-1] == '' and lines[-2].startswith('100.0% [####') and '4/10' in lines[0]


def test_rescore_progress(shared, sf151, tmp_path):
    import os
    from nnue import training
    src = os.path.join(shared, 'oracle', 'chess', 'training', 'games.plain')
    p = nnue.Progress(stream=None)
    assert training.rescore(sf151, src, str(tmp_path / 'out.plain'), progress=p) == 2882
    assert (p.done, p.total) == (2882, 2882) and p.rate > 0
