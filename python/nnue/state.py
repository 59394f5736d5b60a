"""State: incremental evaluation for engines written in Python. The position lives in C (the
net's game adapter through its nnue_game descriptor); push/pop play and take back moves in the
game's protocol notation (UCI for chess, USI for shogi) and update the accumulators as an
engine's make/unmake would."""
from nnue._lib import ffi, lib, text
from nnue.errors import NnueError


def _error(code, message):
    err = ffi.new('nnue_error *')
    err.code, err.offset = code, -1
    err.message = message.encode()[:767]
    return NnueError.from_c(err)


class State:
    """State(net, position="startpos", max_ply=1024). .push(move), .pop(), .evaluate(),
    .position (the text), .legal_moves(), .moves (played since the root)."""

    def __init__(self, net, position='startpos', max_ply=1024):
        if not isinstance(max_ply, int) or not 0 <= max_ply <= 100000:
            raise ValueError(f'max_ply must be 0 to 100000, got {max_ply!r}')
        self.net, self._game = net, net._game
        self._max_ply = max_ply
        ptr = lib.nnue_state_new(net._ptr, max_ply)
        if ptr == ffi.NULL:
            raise MemoryError('nnue_state_new failed')
        self._ptr = ffi.gc(ptr, lib.nnue_state_free)
        self._pos = ffi.new('char[]', self._game.pos_size)
        self._delta = ffi.new('nnue_delta *')
        # A net with threat inputs takes each move's threat changes from the game's adapter
        # (nnue_state_takes_threats: the library's one rule), only the pairs the net reads
        # (nnue_state_threat_filter); others make and push plainly.
        self._threats = ffi.new('nnue_threats *') if lib.nnue_state_takes_threats(ptr) else None
        self.reset(position)

    def _board(self):
        return self._game.board(self._pos)

    def reset(self, position='startpos'):
        """A new root position (FEN / SFEN text or "startpos")."""
        if position.strip() == 'startpos':
            position = text(self._game.start)
        err = ffi.new('nnue_error *')
        # Parsed aside: a text that does not parse leaves the state as it was (a half-written or
        # zeroed position under the old move stack was read out of bounds by the next call).
        parsed = ffi.new('char[]', self._game.pos_size)
        if self._game.parse(parsed, position.strip().encode(), err) != 0:
            raise NnueError.from_c(err)
        ffi.memmove(self._pos, parsed, self._game.pos_size)
        self._moves, self._stack = [], []
        if lib.nnue_state_reset(self._ptr, self._board()) != 0:
            raise NnueError.from_c(lib.nnue_state_error(self._ptr))

    def push(self, move):
        """Plays a legal move given in protocol notation ("e2e4", "7g7f")."""
        if len(self._stack) >= self._max_ply:
            raise _error(lib.NNUE_E_ARG, f'the state is {self._max_ply} plies deep (max_ply)')
        m, err = ffi.new('nnue_move *'), ffi.new('nnue_error *')
        if self._game.parse_move(self._pos, move.encode(), m, err) != 0:
            raise NnueError.from_c(err)
        if self._threats is not None and lib.nnue_game_make_threats_filtered(
                self._game, self._pos, m[0], self._delta, self._threats, lib.nnue_state_threat_filter(self._ptr)):
            pushed = lib.nnue_state_push_threats(self._ptr, self._board(), self._delta, self._threats)
        else:
            self._game.make(self._pos, m[0], self._delta)
            pushed = lib.nnue_state_push(self._ptr, self._board(), self._delta)
        self._stack.append(m[0])
        self._moves.append(move)
        if pushed != 0:
            raise NnueError.from_c(lib.nnue_state_error(self._ptr))

    def pop(self):
        """Takes back the last pushed move."""
        if not self._stack:
            raise IndexError('pop from a state at its root')
        self._game.unmake(self._pos, self._stack.pop())
        self._moves.pop()
        lib.nnue_state_pop(self._ptr)

    def evaluate(self):
        """The current position: a dict of bucket, psqt, positional, total, scaled."""
        d = ffi.new('nnue_eval_detail *')
        lib.nnue_evaluate(self._ptr, self._board(), d)
        if d.bucket < 0:
            raise NnueError.from_c(lib.nnue_state_error(self._ptr))
        return {'bucket': d.bucket, 'psqt': d.psqt, 'positional': d.positional, 'total': d.total,
                'scaled': d.scaled}

    @property
    def position(self):
        buf = ffi.new('char[]', 512)
        self._game.format(self._pos, buf, len(buf))
        return text(buf)

    @property
    def moves(self):
        return list(self._moves)

    def legal_moves(self):
        moves = ffi.new('nnue_move[]', 600)
        n = self._game.legal_moves(self._pos, moves)
        buf, out = ffi.new('char[]', 16), []
        for i in range(n):
            self._game.format_move(moves[i], buf, len(buf))
            out.append(text(buf))
        return out

    def in_check(self):
        return bool(self._game.in_check(self._pos))
