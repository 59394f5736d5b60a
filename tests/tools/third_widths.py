"""tests/tools/third_widths.py TOOL SRC WORK: "a real net of each engine must load with no code
change" (issue 36) for nets of other sizes: each 2026 architecture (archs/stormphrax.yaml,
plentychess, reckless, viridithas) with other widths, made by editing its YAML only (the edits
below; docs/nets-2026.md lists what each YAML fixes), goes through `nnue init` (the engine's own
container: CBNF, varint, plain), `nnue info --arch` and `nnue bench --mode all` on the first 200
positions of the repository's corpus: the incremental and from-scratch checksums must be equal
(incremental == full over every child of every position), and equal with the scalar kernels.
One line per architecture; exit 1 on the first failure."""
import os
import re
import subprocess
import sys

tool, src, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
# engine: [(pattern, replacement)], each must match exactly once
EDITS = {
    'stormphrax': [(r'^  width: 1024$', '  width: 512'),
                   (r'type: affine_sparse, outputs: 32,', 'type: affine_sparse, outputs: 16,'),
                   (r'\{name: l2, type: affine, outputs: 64\}', '{name: l2, type: affine, outputs: 32}')],
    'plentychess': [(r'^  width: 1024$', '  width: 512')],
    'reckless': [(r'^  width: 768$', '  width: 512')],
    'viridithas': [(r'^  width: 1024$', '  width: 512')],
}


def fail(what):
    print(f'FAIL {what}')
    sys.exit(1)


def run(args, isa=None):
    env = dict(os.environ)
    env.pop('NNUE_ISA', None)
    if isa:
        env['NNUE_ISA'] = isa
    p = subprocess.run([tool] + args, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        fail(f'nnue {" ".join(args)}: exit {p.returncode}\n{p.stdout}{p.stderr}')
    return p.stdout


with open(os.path.join(src, 'tests', 'reference', 'chess', 'corpusA.fen')) as f:
    fens = [line for line in f if line.strip() and not line.startswith('#')][:200]
corpus = os.path.join(work, 'corpus200.fen')
with open(corpus, 'w') as f:
    f.writelines(fens)

for engine, edits in EDITS.items():
    text = open(os.path.join(src, 'archs', engine + '.yaml')).read()
    text = re.sub(r'^name: \w+$', f'name: {engine}_resized', text, count=1, flags=re.M)
    for pattern, replacement in edits:
        text, n = re.subn(pattern, replacement, text, flags=re.M)
        if n != 1:
            fail(f'{engine}: the edit {pattern!r} matched {n} times')
    yaml = os.path.join(work, f'{engine}_resized.yaml')
    net = os.path.join(work, f'{engine}_resized.nnue')
    with open(yaml, 'w') as f:
        f.write(text)
    run(['init', yaml, net])
    info = run(['info', '--arch', yaml, net])
    if f'architecture  {engine}_resized' not in info:
        fail(f'{engine}: info:\n{info}')
    sums = {}
    for isa in [None, 'scalar']:
        out = run(['bench', '--net', net, '--arch', yaml, '--file', corpus, '--iter', '1', '--mode', 'all'], isa)
        for mode in ['incremental', 'refresh']:
            m = re.search(rf'mode={mode} .* evals=(\d+) .*checksum_total=(-?\d+) ', out)
            if not m:
                fail(f'{engine}: no {mode} line:\n{out}')
            sums[(isa, mode)] = m.groups()
    if len(set(sums.values())) != 1 or sums[(None, 'refresh')][0] == '0':
        fail(f'{engine}: checksums differ: {sums}')
    evals, checksum = sums[(None, 'refresh')]
    print(f'ok {engine} resized ({os.path.getsize(net)} bytes): {evals} evals, checksum {checksum} incremental == '
          f'refresh, detected kernels == scalar')
