#!/usr/bin/python3
"""The user docs' commands need only what a fresh checkout has after the main job (issue 39):
no `../shared` data, no net the checkout does not make. Checks the command lines of README.md's
sh blocks, docs/engines.md, docs/training.md and docs/python.md's sh blocks: each
`build/nets/NAME` is the starter net (tools/starter_data.sh: sf151.nnue) or made by an
`nnue init ... build/nets/NAME` line before it in the same file, each `data/...` path exists,
and none reads `../shared` or a release net by its bare name. The README has a xiangqi example,
and the repository's training samples (data/training) are read by `nnue eval --file` and
re-scored by `nnue rescore` as docs/training.md shows (with a random net in place of the starter
net). Usage: docs_fresh_checkout.py NNUE_TOOL SOURCE_ROOT BUILD_ROOT"""
import glob
import os
import re
import subprocess
import sys

tool, source, build = sys.argv[1:4]
failures = []


def command_lines(path):
    """(number, line) of a file's commands: fenced sh blocks and 4-space indented lines that start
    with a program (./, cc, nnue, python3, /usr/bin/python3, NNUE_LIBRARY=)."""
    out, fence, going_on = [], None, False
    for n, line in enumerate(open(os.path.join(source, path)).read().split('\n'), 1):
        if line.startswith('```'):
            fence = line[3:].strip() if fence is None else None
        elif fence == 'sh' or (fence is None and (going_on or re.match(
                r'^    (\./|cc |nnue |/usr/bin/python3 |NNUE_LIBRARY=)', line))):
            out.append((n, line.strip()))
            going_on = fence is None and line.endswith('\\')   # a command's next line
    return out


for doc in ['README.md', 'docs/engines.md', 'docs/training.md', 'docs/python.md']:
    made = {'sf151.nnue'}
    for n, line in command_lines(doc):
        where = f'{doc}:{n}: {line}'
        if '../shared' in line:
            failures.append(f'{where}: reads ../shared, which a checkout does not have')
        for net in re.findall(r'(?<![\w/.-])nn-[0-9a-f]{12}\.nnue', line):
            failures.append(f'{where}: {net} by its bare name (no such file in a checkout)')
        init = re.search(r'\binit\b.*\sbuild/nets/(\S+)', line)
        for name in re.findall(r'build/nets/([\w.-]+)', line):
            if name not in made and not (init and init.group(1) == name):
                failures.append(f'{where}: build/nets/{name} is neither the starter net nor made above')
        if init:
            made.add(init.group(1))
        for path in re.findall(r'(?<![\w/.-])(data/[\w./*-]+)', line):
            if not glob.glob(os.path.join(source, path)):
                failures.append(f'{where}: {path} is not in the repository')

readme = [line for _, line in command_lines('README.md')]
if not any('xiangqi' in line or 'pikafish' in line for line in readme):
    failures.append('README.md: no xiangqi example in its sh blocks')

# The samples, as docs/training.md runs them.
net = os.path.join(build, 'docs-fresh-sfnnv5.nnue')
subprocess.run([tool, 'init', 'sfnnv5', net], check=True, capture_output=True)
for name, records in [('games.plain', 320), ('shard-1.binpack', 160), ('shard-2.binpack', 160)]:
    path = os.path.join(source, 'data', 'training', name)
    if not os.path.exists(path):
        failures.append(f'data/training/{name} is missing')
        continue
    run = subprocess.run([tool, 'eval', '--quiet', '--net', net, '--file', path], capture_output=True, text=True)
    rows = run.stdout.splitlines()[1:]
    if run.returncode != 0 or len(rows) != records:
        failures.append(f'eval --file data/training/{name}: exit {run.returncode}, {len(rows)} rows, expected '
                        f'{records}: {run.stderr}')
    out = os.path.join(build, 'docs-fresh-' + name)
    run = subprocess.run([tool, 'rescore', '--quiet', '--net', net, path, out], capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(out):
        failures.append(f'rescore data/training/{name}: exit {run.returncode}: {run.stderr}')
os.remove(net)

for f in failures:
    print('FAIL: ' + f)
if failures:
    sys.exit(1)
print('ok: the docs need nothing a checkout lacks after the main job; samples read and re-scored')
