"""tests/tools/engine_release_nets.py UCI SRC: Stockfish's release nets through the example
engine, as an engine author loads them: `setoption name EvalFile` with no architecture named
(detected from the header), then `position fen ...` and `eval` for the first rows of each net's
golden file (printed by the engine that ships the net; the repository's copies in
SRC/tests/reference/chess): bucket, psqt, positional and total must be the golden ones. The nets
come from ~/.cache/nnue-nets (NNUE_NETS_DIR), fetched by SRC/scripts/fetch_nets.py when missing;
exits 77 naming the net when it cannot be had (offline)."""
import os
import subprocess
import sys

uci, src = sys.argv[1:3]
nets_dir = os.environ.get('NNUE_NETS_DIR') or os.path.join(os.environ.get('HOME', '/tmp'), '.cache', 'nnue-nets')
nets = [('nn-1c0000000000.nnue', 'golden-sf17-A.tsv'), ('nn-c288c895ea92.nnue', 'golden-sf18-A.tsv'),
        ('nn-37f18f62d772.nnue', 'golden-sf18small-A.tsv'), ('nn-1a298aa575a0.nnue', 'golden-sf19-A.tsv')]
ROWS = 60
missing = [n for n, _ in nets if not os.path.exists(os.path.join(nets_dir, n))]
if missing:   # the fetcher's own messages go to stderr; it holds a lock, so parallel callers wait
    subprocess.run([sys.executable, os.path.join(src, 'scripts', 'fetch_nets.py'), '--dir', nets_dir] + missing,
                   stdout=subprocess.DEVNULL)
for net, golden in nets:
    path = os.path.join(nets_dir, net)
    if not os.path.exists(path):
        print(f'SKIP: {path} is absent and scripts/fetch_nets.py could not fetch it; this test did not run',
              file=sys.stderr)
        sys.exit(77)
    with open(os.path.join(src, 'tests', 'reference', 'chess', golden)) as f:
        rows = [line.rstrip('\n').split('\t') for line in f][1:ROWS + 1]
    script = f'uci\nsetoption name EvalFile value {path}\nisready\n'
    script += ''.join(f'position fen {r[0]}\neval\n' for r in rows) + 'quit\n'
    out = subprocess.run([uci], input=script, capture_output=True, text=True, timeout=300).stdout
    evals = [line.split() for line in out.splitlines() if line.startswith('info string eval ')]
    if len(rows) != ROWS or len(evals) != len(rows) or 'info string error' in out:
        print(f'FAIL {net}: {len(evals)} evals for {len(rows)} positions (want {ROWS}):\n{out[-2000:]}')
        sys.exit(1)
    for r, e in zip(rows, evals):
        got = [e[4], e[6], e[8], e[10]]  # bucket, psqt, positional, total
        if got != r[1:5]:
            print(f'FAIL {net}: {r[0]}: engine {got}, golden {r[1:5]}')
            sys.exit(1)
    print(f'ok {net}: {len(rows)} positions through EvalFile equal {golden}')
