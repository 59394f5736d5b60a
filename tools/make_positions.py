#!/usr/bin/env python3
"""Writes data/positions.fen: chess positions from seeded random games, for the README's
examples and `nnue bench`. Debian's stockfish (/usr/games/stockfish) lists the legal moves
(`go perft 1`) and prints the FEN (`d`); the moves are chosen here, so the file is the same on
every run. Usage: tools/make_positions.py [COUNT [OUT]]"""
import random
import subprocess
import sys


class Engine:
    def __init__(self, exe='/usr/games/stockfish'):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, command, until='readyok'):
        # `go perft` runs in the search thread: wait for its own last line, not readyok.
        self.p.stdin.write(command + ('\nisready\n' if until == 'readyok' else '\n'))
        lines = []
        for line in self.p.stdout:
            if line.startswith(until):
                return lines
            lines.append(line.rstrip('\n'))
        raise SystemExit('stockfish ended early')

    def moves_and_fen(self, moves):
        pos = 'position startpos' + (' moves ' + ' '.join(moves) if moves else '')
        legal = [l.split(':')[0] for l in self.ask(pos + '\ngo perft 1', 'Nodes searched') if ':' in l]
        board = self.ask('d')
        fen = [l[5:] for l in board if l.startswith('Fen: ')][0]
        checkers = [l for l in board if l.startswith('Checkers:')][0].split()[1:]
        return legal, fen, bool(checkers)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    out = sys.argv[2] if len(sys.argv) > 2 else 'data/positions.fen'
    rng = random.Random(20261125)
    engine = Engine()
    fens = []
    while len(fens) < count:
        moves = []
        for ply in range(rng.randrange(20, 90)):
            legal, fen, check = engine.moves_and_fen(moves)
            if not legal:
                break
            # Every 7th ply out of check (both sides to move): openings, middlegames and endings, all evaluable.
            if ply % 7 == 5 and not check and len(fens) < count:
                fens.append(fen)
            moves.append(rng.choice(legal))
    with open(out, 'w') as f:
        f.write('# %d positions from seeded random games (tools/make_positions.py)\n' % len(fens))
        f.write('\n'.join(fens) + '\n')


if __name__ == '__main__':
    main()
