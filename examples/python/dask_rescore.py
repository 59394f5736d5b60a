#!/usr/bin/python3
"""examples/python/dask_rescore.py: re-score sharded training data on a Dask cluster, one task per
shard, the net loaded once per worker process (docs/python.md, "More positions than one machine").

    # two local worker processes (a LocalCluster), one core each
    /usr/bin/python3 examples/python/dask_rescore.py --net NET --out OUTDIR --local-workers 2 shards/*.plain
    # a real cluster: start `dask-scheduler` on one machine and `dask-worker tcp://HOST:8786
    # --nthreads 1` on each; every worker needs the nnue package, the net at the same path and the
    # shards on a shared file system
    /usr/bin/python3 examples/python/dask_rescore.py --net NET --out OUTDIR --scheduler tcp://HOST:8786 shards/*

Each shard is written to OUTDIR under its own name, in its own format (nnue.training.rescore:
what `nnue rescore` writes for that file), so the result does not depend on which worker took
which shard. Prints one line per finished shard and a summary (positions/s overall and per
worker), and with --json the same as one JSON object."""
import argparse
import json
import os
import sys
import time

from distributed import Client, LocalCluster, WorkerPlugin, as_completed, get_worker


class NetOnWorker(WorkerPlugin):
    """Loads the net once when a worker starts (or joins later) and keeps it on the worker."""

    name = 'nnue-net'

    def __init__(self, net_path, arch):
        self.net_path, self.arch = net_path, arch

    def setup(self, worker):
        import nnue
        worker.nnue_net = nnue.Net.load(self.net_path, self.arch)
        worker.nnue_loads = getattr(worker, 'nnue_loads', 0) + 1   # checked by the test: 1


def rescore_shard(src, dst, fmt, threads):
    """One task: a shard re-scored with the worker's net; returns its figures."""
    from nnue import training
    worker = get_worker()
    start = time.perf_counter()
    tmp = f'{dst}.part-{os.getpid()}'   # a task re-run after a worker died never leaves half a file
    count = training.rescore(worker.nnue_net, src, tmp, fmt, threads)
    os.replace(tmp, dst)
    return {'shard': src, 'out': dst, 'positions': count, 'seconds': time.perf_counter() - start,
            'worker': worker.address}


def rescore_shards(client, shards, out_dir, net_path, arch=None, fmt=None, threads=1, progress=None):
    """Submits one task per shard and waits for all; progress(summary_of_one_shard, done, total)
    after each. Returns the per-shard summaries in the order of shards."""
    client.register_worker_plugin(NetOnWorker(os.path.abspath(net_path), arch), name=NetOnWorker.name)
    os.makedirs(out_dir, exist_ok=True)
    futures = {}
    for s in shards:
        dst = os.path.join(out_dir, os.path.basename(s))
        futures[client.submit(rescore_shard, os.path.abspath(s), os.path.abspath(dst), fmt, threads,
                              pure=False)] = s
    done = {}
    for fut in as_completed(futures):
        done[futures[fut]] = fut.result()   # a failed shard raises its NnueError here
        if progress:
            progress(done[futures[fut]], len(done), len(shards))
    return [done[s] for s in shards]


def summary(results, seconds):
    positions = sum(r['positions'] for r in results)
    busy = {}
    for r in results:
        busy.setdefault(r['worker'], [0, 0.0])
        busy[r['worker']][0] += r['positions']
        busy[r['worker']][1] += r['seconds']
    return {'shards': len(results), 'positions': positions, 'seconds': seconds,
            'positions_per_second': positions / seconds if seconds > 0 else 0.0,
            'per_worker': {w: {'positions': p, 'busy_seconds': t, 'positions_per_second': p / t if t > 0 else 0.0}
                           for w, (p, t) in sorted(busy.items())}}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--net', required=True)
    ap.add_argument('--arch', help='a built-in architecture name or a YAML (default: from the net header)')
    ap.add_argument('--out', required=True, help='directory for the re-scored shards')
    ap.add_argument('--format', choices=['plain', 'bullet', 'binpack'], help='default: from each file name')
    ap.add_argument('--threads', type=int, default=1, help='OpenMP threads per task (default 1)')
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument('--scheduler', help='address of a running dask-scheduler')
    where.add_argument('--local-workers', type=int, help='start a LocalCluster of N worker processes')
    ap.add_argument('--json', action='store_true')
    ap.add_argument('shards', nargs='+')
    a = ap.parse_args(argv)

    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    with client:
        def show(r, done, total):
            if not a.json:
                print(f"{done}/{total} {r['shard']}: {r['positions']} positions in {r['seconds']:.2f} s "
                      f"on {r['worker']}", file=sys.stderr)
        start = time.perf_counter()
        results = rescore_shards(client, a.shards, a.out, a.net, a.arch, a.format, a.threads, show)
        s = summary(results, time.perf_counter() - start)
        s['loads_per_worker'] = sorted(client.run(lambda dask_worker: getattr(dask_worker, 'nnue_loads', 0)).values())
    if a.json:
        print(json.dumps(s))
    else:
        print(f"{s['positions']} positions in {s['shards']} shards, {s['seconds']:.2f} s: "
              f"{s['positions_per_second']:.0f} positions/s")
        for w, f in s['per_worker'].items():
            print(f"  {w}: {f['positions']} positions, {f['positions_per_second']:.0f} positions/s while busy")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
