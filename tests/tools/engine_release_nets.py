"""tests/tools/engine_release_nets.py UCI SHARED: Stockfish's release nets through the example
engine, as an engine author loads them: `setoption name EvalFile` with no architecture named
(detected from the header), then `position fen ...` and `eval` for the first rows of each net's
golden file (printed by the engine that ships the net): bucket, psqt, positional and total must
be the golden ones. The nets come from ~/.cache/nnue-nets (NNUE_NETS_DIR), fetched by
scripts/setup.sh; exits 77 naming the missing net when they are absent."""
import os
import subprocess
import sys

uci, shared = sys.argv[1:3]
nets_dir = os.environ.get('NNUE_NETS_DIR') or os.path.join(os.environ.get('HOME', '/tmp'), '.cache', 'nnue-nets')
nets = [('nn-1c0000000000.nnue', 'golden-sf17-A.tsv'), ('nn-c288c895ea92.nnue', 'golden-sf18-A.tsv'),
        ('nn-37f18f62d772.nnue', 'golden-sf18small-A.tsv'), ('nn-1a298aa575a0.nnue', 'golden-sf19-A.tsv')]
ROWS = 60
for net, golden in nets:
    path = os.path.join(nets_dir, net)
    if not os.path.exists(path):
        print(f'SKIP: {path} is absent (scripts/setup.sh fetches it); this test did not run', file=sys.stderr)
        sys.exit(77)
    rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(shared, 'oracle', 'chess', golden))][1:ROWS + 1]
    script = f'uci\nsetoption name EvalFile value {path}\nisready\n'
    script += ''.join(f'position fen {r[0]}\neval\n' for r in rows) + 'quit\n'
    out = subprocess.run([uci], input=script, capture_output=True, text=True, timeout=300).stdout
    evals = [l.split() for l in out.splitlines() if l.startswith('info string eval ')]
    if len(evals) != len(rows) or 'info string error' in out:
        print(f'FAIL {net}: {len(evals)} evals for {len(rows)} positions:\n{out[-2000:]}')
        sys.exit(1)
    for r, e in zip(rows, evals):
        got = [e[4], e[6], e[8], e[10]]  # bucket, psqt, positional, total
        if got != r[1:5]:
            print(f'FAIL {net}: {r[0]}: engine {got}, golden {r[1:5]}')
            sys.exit(1)
    print(f'ok {net}: {len(rows)} positions through EvalFile equal {golden}')
