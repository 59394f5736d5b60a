"""tests/reference/check.py SRC SHARED: the repository's reference data is what its README says:
every file of tests/reference/chess listed in SHA256SUMS with that hash, none unlisted, and, when
the companion data SHARED is there, each copy equal to its original in SHARED/oracle/chess
(bench-checksums.tsv has none: it gathers figures from BENCH.md and the engines' runs)."""
import hashlib
import os
import sys

src, shared = sys.argv[1:3]
folder = os.path.join(src, 'tests', 'reference', 'chess')
bad = []
with open(os.path.join(folder, 'SHA256SUMS')) as f:
    listed = dict(reversed(line.split()) for line in f if line.strip())
present = sorted(n for n in os.listdir(folder) if n not in ('SHA256SUMS', 'README.md'))
for name in sorted(set(present) - set(listed)):
    bad.append(f'{name}: not in SHA256SUMS')
for name, want in sorted(listed.items()):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        bad.append(f'{name}: listed in SHA256SUMS but missing')
        continue
    data = open(path, 'rb').read()
    if hashlib.sha256(data).hexdigest() != want:
        bad.append(f'{name}: sha256 differs from SHA256SUMS')
    original = os.path.join(shared, 'oracle', 'chess', name)
    if os.path.exists(original) and open(original, 'rb').read() != data:
        bad.append(f'{name}: differs from {original}')
print(f'{len(listed)} files checked against SHA256SUMS' +
      ('' if os.path.isdir(os.path.join(shared, 'oracle', 'chess')) else f' ({shared} absent: copies not compared)'))
for b in bad:
    print('FAIL ' + b)
sys.exit(1 if bad else 0)
