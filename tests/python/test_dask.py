"""Beyond one machine: examples/python/dask_rescore.py on a LocalCluster of 2 worker processes
over 4 shards gives, shard by shard, the files a single process writes (nnue.training.rescore)
and the CLI writes (`nnue rescore`), with the net loaded once per worker."""
import json
import os
import subprocess
import sys

import pytest

from nnue import training

SCRIPT = os.path.join(os.path.dirname(__file__), '..', '..', 'examples', 'python', 'dask_rescore.py')


def test_local_cluster_equals_single_process(shared, tool, sf151_path, sf151, tmp_path):
    pytest.importorskip('distributed', reason='python3-distributed is not installed (scripts/setup.sh installs it)')
    recs = list(training.read(os.path.join(shared, 'oracle', 'chess', 'training', 'games.plain')))
    shards = []
    for k in range(4):   # every 4th record: each shard holds positions of every game
        p = tmp_path / f'shard{k}.plain'
        p.write_text(''.join(training.format_record(r, 'plain') for r in recs[k::4]))
        shards.append(str(p))
    out = tmp_path / 'out'
    run = subprocess.run([sys.executable, SCRIPT, '--net', sf151_path, '--out', str(out), '--local-workers', '2',
                          '--json', *shards], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)
    assert s['shards'] == 4 and s['positions'] == len(recs) == 2882
    assert s['loads_per_worker'] == [1, 1]   # two workers, the net loaded once on each
    for shard in shards:
        name = os.path.basename(shard)
        single, cli = tmp_path / f'single-{name}', tmp_path / f'cli-{name}'
        training.rescore(sf151, shard, str(single))
        subprocess.run([tool, 'rescore', '--net', sf151_path, '--quiet', shard, str(cli)], check=True)
        got = (out / name).read_text()
        assert got == single.read_text() == cli.read_text()
        # the scores really are the net's, not the input's
        assert got != open(shard).read()
    assert not [f for f in os.listdir(out) if '.part-' in f]
