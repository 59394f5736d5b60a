#!/usr/bin/python3
"""nnue eval's cp column on Stockfish's release nets (17.1, 18, 19) against the engines' own
`eval` output (issue 39): tests/tools/cp_release_golden.tsv holds, per position, the "NNUE
evaluation ... (white side)" figure printed by Stockfish 17.1 (tag sf_17.1), 18 (sf_18) and
master 762dd1da (whose network code evaluates Stockfish 19's net as the release does), each built
from source (`make build ARCH=x86-64-avx2`; 17.1 and 18 with their release nets embedded, master
with -DNNUE_EMBEDDING_OFF and 19's net set by EvalFile: SF19=NET) and fed `position fen F` +
`eval` by the `make` mode below. Our cp (side to move's view) turned to white's view in pawns
with two decimals must print the same text. A net absent from the cache
(scripts/setup.sh fetches them) is skipped by name; all absent: exit 77.
Usage: eval_cp_release.py NNUE_TOOL GOLDEN
       eval_cp_release.py make POSITIONS SF17_1 SF18 SF19[=NET] > GOLDEN"""
import os
import re
import subprocess
import sys

NETS = [('sf17.1', 'nn-1c0000000000.nnue'), ('sf18', 'nn-c288c895ea92.nnue'), ('sf19', 'nn-1a298aa575a0.nnue')]


def engine_evals(engine, fens):
    """ENGINE or ENGINE=NET (a build without the net embedded: EvalFile)."""
    exe, _, net = engine.partition('=')
    script = 'uci\n' + (f'setoption name EvalFile value {net}\n' if net else '') + 'isready\n'
    script += ''.join(f'position fen {f}\neval\n' for f in fens) + 'quit\n'
    out = subprocess.run([exe], input=script, capture_output=True, text=True, check=True).stdout
    got = re.findall(r'^NNUE evaluation\s+([-+][0-9.]+) \(white side\)', out, re.M)
    if len(got) != len(fens):
        sys.exit(f'{exe}: {len(got)} NNUE evaluations for {len(fens)} positions')
    return got


def make(positions, *engines):
    fens = [l.strip() for l in open(positions) if l.strip() and not l.startswith('#')]
    columns = [engine_evals(e, fens) for e in engines]
    print('# NNUE evaluation (white side, pawns) printed by each engine\'s eval: tests/tools/eval_cp_release.py')
    print('fen\t' + '\t'.join(name for name, _ in NETS))
    for i, fen in enumerate(fens):
        print(fen + '\t' + '\t'.join(c[i] for c in columns))


def check(tool, golden):
    rows = [l.rstrip('\n').split('\t') for l in open(golden) if not l.startswith('#')]
    header, rows = rows[0], rows[1:]
    fens = [r[0] for r in rows]
    cache = os.environ.get('NNUE_NETS_DIR') or os.path.expanduser('~/.cache/nnue-nets')
    positions = os.path.join(os.environ.get('TMPDIR', '/tmp'), f'eval-cp-release-{os.getpid()}.fen')
    with open(positions, 'w') as f:
        f.write('\n'.join(fens) + '\n')
    checked, failures = 0, []
    for name, file in NETS:
        net = os.path.join(cache, file)
        if not os.path.exists(net):
            print(f'SKIP (one net): {net} is absent (scripts/setup.sh fetches it)')
            continue
        col = header.index(name)
        out = subprocess.run([tool, 'eval', '--quiet', '--net', net, '--file', positions], capture_output=True,
                             text=True)
        ours = [l.split('\t') for l in out.stdout.splitlines()[1:]]
        if out.returncode != 0 or len(ours) != len(rows):
            failures.append(f'{name}: exit {out.returncode}, {len(ours)} rows for {len(rows)}: {out.stderr}')
            continue
        for r, o in zip(rows, ours):
            cp = int(o[6]) * (1 if r[0].split()[1] == 'w' else -1)
            text = f'{cp / 100:+.2f}'
            if text != r[col]:
                failures.append(f'{name}: {r[0]}: ours {text} (cp {o[6]}, side to move), engine {r[col]}')
        checked += 1
    os.remove(positions)
    for f in failures:
        print('FAIL: ' + f)
    if failures:
        sys.exit(1)
    if not checked:
        sys.exit(77)
    print(f'ok: {checked} release nets, {len(rows)} positions each, cp as the engines print it')


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(*sys.argv[2:6])
    else:
        check(*sys.argv[1:3])
