"""tests/tools/engine_third_nets.py UCI SHARED NETS_DIR: the 2026 nets of Stormphrax, PlentyChess,
Reckless and Viridithas (shared/oracle/third/<engine>/, random weights in each engine's own file
format) through the example engine as its user loads them: `setoption name EvalFile` (the file as
the engine ships it; the .xz ones unpacked into NETS_DIR) and `setoption name EvalArch` (the
built-in architecture's name: these files carry no description), then `position fen` + `eval`
for the first rows of the engine's goldensA.tsv: bucket and total must be the golden ones (total:
the engine's raw output; PlentyChess's is its scaled `nnue`). Then `go depth 4` from the start
position must give a bestmove with no error and scores inside the evaluation clamp (the search
works on `scaled`: Stormphrax's raw output, 2^24 per 400 cp, clamped at every node before).
Exits 77 when the shared data is absent. One line per net; exit 1 on the first failure."""
import lzma
import os
import re
import shutil
import subprocess
import sys

uci, shared, nets_dir = sys.argv[1:4]
# engine, file in shared/oracle/third/<engine>/, golden column of `total`
NETS = [('stormphrax', 'stormphrax-random.nnue.xz', 2), ('plentychess', 'plentychess-random.bin.xz', 4),
        ('reckless', 'reckless-random.bin.xz', 2), ('viridithas', 'viridithas-random.nnue.zst', 2)]
ROWS = 40
CLAMP_CP = 20000 * 100 // 208   # SCORE_EVAL_LIMIT (examples/engine/engine.h) in the engine's cp


def net_path(engine, name):
    src = os.path.join(shared, 'oracle', 'third', engine, name)
    if not os.path.exists(src):
        print(f'SKIP: {src} is absent; this test did not run', file=sys.stderr)
        sys.exit(77)
    if not name.endswith('.xz'):
        return src
    out = os.path.join(nets_dir, name[:-3])
    if not os.path.exists(out):
        os.makedirs(nets_dir, exist_ok=True)
        tmp = f'{out}.tmp{os.getpid()}'
        with lzma.open(src) as f, open(tmp, 'wb') as g:
            shutil.copyfileobj(f, g, 1 << 20)
        os.replace(tmp, out)
    return out


for engine, name, total_col in NETS:
    path = net_path(engine, name)
    with open(os.path.join(shared, 'oracle', 'third', engine, 'goldensA.tsv')) as f:
        rows = [line.rstrip('\n').split('\t') for line in f][1:ROWS + 1]
    script = f'uci\nsetoption name EvalFile value {path}\nsetoption name EvalArch value {engine}\nisready\n'
    script += ''.join(f'position fen {r[0]}\neval\n' for r in rows)
    script += 'position startpos\ngo depth 4\n'
    p = subprocess.Popen([uci], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(script)
    p.stdin.flush()
    lines = []
    for line in p.stdout:   # quit only after the search's bestmove (quit would stop it)
        lines.append(line)
        if line.startswith('bestmove'):
            break
    p.stdin.write('quit\n')
    p.stdin.close()
    out = ''.join(lines) + p.stdout.read()
    p.wait(timeout=60)
    evals = [line.split() for line in out.splitlines() if line.startswith('info string eval ')]
    if p.returncode != 0 or 'info string error' in out or len(rows) != ROWS or len(evals) != ROWS:
        print(f'FAIL {engine}: exit {p.returncode}, {len(evals)} evals for {len(rows)} positions:\n{out[-2000:]}')
        sys.exit(1)
    for r, e in zip(rows, evals):
        got, want = [e[4], e[10]], [r[1], r[total_col]]   # bucket, total
        if got != want:
            print(f'FAIL {engine}: {r[0]}: engine bucket/total {got}, golden {want}')
            sys.exit(1)
    scores = [int(m) for m in re.findall(r'^info depth \d+ .*score cp (-?\d+)', out, re.M)]
    best = re.search(r'^bestmove (\S+)', out, re.M)
    if not best or len(scores) < 4 or any(abs(s) >= CLAMP_CP for s in scores):
        print(f'FAIL {engine}: go depth 4: bestmove {best and best.group(1)}, scores {scores} '
              f'(must stay inside +-{CLAMP_CP}):\n{out[-1500:]}')
        sys.exit(1)
    print(f'ok {engine}: {ROWS} positions through EvalFile + EvalArch equal goldensA.tsv; '
          f'go depth 4: bestmove {best.group(1)}, scores {scores}')
