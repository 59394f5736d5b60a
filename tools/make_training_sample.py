#!/usr/bin/python3
"""Writes data/training/: small Stockfish training-data samples made by the project's own
writer (nnue.training), for the README, docs/training.md and the Dask example. Seeded random
chess games (the moves chosen here from the library's legal moves, so the files are the same
on every run), each record scored with Stockfish 15.1's net (the side to move's `total`, as
`nnue rescore` writes .plain and .binpack), result 0 (the games stop at a ply cap, undecided).
  games.plain      every record, Stockfish's text format
  shard-1.binpack  the first half of the games, binpack (as nnue-pytorch writes it)
  shard-2.binpack  the second half
Usage (from a build, after tools/starter_data.sh):
  NNUE_LIBRARY=build/libnnue.so PYTHONPATH=python /usr/bin/python3 tools/make_training_sample.py \\
      build/nets/sf151.nnue data/training"""
import os
import random
import sys

import nnue
from nnue import training

GAMES, PLIES, SEED = 8, 40, 2026


def games(net):
    rng = random.Random(SEED)
    out = []
    for _ in range(GAMES):
        st, records = nnue.State(net), []
        for ply in range(PLIES):
            legal = sorted(st.legal_moves())
            if not legal:
                break
            move = rng.choice(legal)
            records.append({'position': st.position, 'move': move, 'ply': ply, 'result': 0})
            st.push(move)
        out.append(records)
    return out


def main(net_path, out_dir):
    net = nnue.Net.load(net_path)
    played = games(net)
    for records in played:
        for r, total in zip(records, net.evaluate([r['position'] for r in records]).total):
            r['score'] = int(total)
    half = len(played) // 2
    flat = [r for g in played for r in g]
    os.makedirs(out_dir, exist_ok=True)
    training.write(os.path.join(out_dir, 'games.plain'), flat, 'plain')
    training.write(os.path.join(out_dir, 'shard-1.binpack'), [r for g in played[:half] for r in g], 'binpack')
    training.write(os.path.join(out_dir, 'shard-2.binpack'), [r for g in played[half:] for r in g], 'binpack')
    print(f'{out_dir}: {len(flat)} records of {len(played)} games')


if __name__ == '__main__':
    main(*sys.argv[1:3])
