#!/usr/bin/env python3
"""`nnue eval`'s cp column against the engine: Stockfish 15.1's net (exported by Debian's
stockfish 15.1, as scripts/main.sh does) on data/positions.fen. Stockfish 15.1 converts with
NormalizeToPawnValue = 361: UCI prints v * 100 / 361 (truncated), `eval` prints the NNUE value in
pawns, |v| / 361 to two decimals, white's view. So per position: cp == trunc(total * 100 / 361),
and the engine's rounded pawns * 100 minus |cp| is 0 or 1 with the same sign. A net with no checked
conversion prints '-'. Exits 77 without /usr/games/stockfish.
Usage: eval_cp.py NNUE_TOOL SOURCE_ROOT BUILD_ROOT"""
import os
import re
import subprocess
import sys

tool, source, build = sys.argv[1:4]
stockfish = '/usr/games/stockfish'
if not os.access(stockfish, os.X_OK):
    print('SKIP: /usr/games/stockfish is not installed')
    sys.exit(77)
subprocess.run(['bash', os.path.join(source, 'tools/starter_data.sh'), build], check=True)
net = os.path.join(build, 'nets/sf151.nnue')
positions = os.path.join(source, 'data/positions.fen')
COUNT = 60


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


out = subprocess.run([tool, 'eval', '--net', net, '--file', positions, '--quiet'], capture_output=True, text=True)
if out.returncode != 0:
    fail('eval exited %d: %s' % (out.returncode, out.stderr))
lines = out.stdout.splitlines()
if lines[0].split('\t')[:7] != ['position', 'bucket', 'psqt', 'positional', 'total', 'scaled', 'cp']:
    fail('no cp column: ' + lines[0])
rows = [l.split('\t') for l in lines[1:COUNT + 1]]
script = 'uci\nsetoption name EvalFile value %s\nisready\n' % net
script += ''.join('position fen %s\neval\n' % r[0] for r in rows) + 'quit\n'
sf = subprocess.run([stockfish], input=script, capture_output=True, text=True, check=True).stdout
engine = re.findall(r'^NNUE evaluation\s+([-+]?\s*[0-9.]+) \(white side\)', sf, re.M)
if len(engine) != len(rows):
    fail('stockfish printed %d NNUE evaluations for %d positions' % (len(engine), len(rows)))
nonzero = 0
for r, e in zip(rows, engine):
    fen, total, cp = r[0], int(r[4]), int(r[6])
    if cp != int(total * 100 / 361):
        fail('%s: cp %d, total %d' % (fen, cp, total))
    white = 1 if fen.split()[1] == 'w' else -1
    pawns = float(e.replace(' ', ''))
    engine_cp = round(abs(pawns) * 100)
    if not 0 <= engine_cp - abs(cp) <= 1 or (cp != 0 and (pawns > 0) != (cp * white > 0)):
        fail('%s: our cp %d (side to move), stockfish 15.1 eval %s pawns (white)' % (fen, cp, e))
    nonzero += cp != 0
if nonzero < COUNT // 2:
    fail('only %d non-zero values: the comparison says little' % nonzero)

# No checked conversion: '-', and a note on stderr naming the units.
other = os.path.join(build, 'nets/eval-cp-sfnnv8small.nnue')
subprocess.run([tool, 'init', 'sfnnv8small', other], check=True, capture_output=True)
out = subprocess.run([tool, 'eval', '--net', other, '--fen', 'startpos'], capture_output=True, text=True)
if out.returncode != 0 or out.stdout.splitlines()[1].split('\t')[-1] != '-' or 'internal units' not in out.stderr:
    fail('sfnnv8small: expected cp "-" and a note on units:\n' + out.stdout + out.stderr)
# ... saying why there is none (issue 39).
if 'served Stockfish 16.1, 17, 17.1 and 18, whose conversions differ' not in out.stderr:
    fail('sfnnv8small: the note does not say why there is no conversion:\n' + out.stderr)
print('ok: %d positions, cp column equal to Debian stockfish 15.1 (total * 100 / 361)' % len(rows))
