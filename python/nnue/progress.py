"""Progress as the CLI shows it (positions/s, ETA), for the progress= callbacks of Net.evaluate,
training.rescore and examples/python/dask_rescore.py.

    net.evaluate(fens, progress=nnue.Progress())          # a line on stderr, redrawn in place
    p = nnue.Progress(stream=None); ...; p.rate, p.eta     # figures only, no drawing"""
import sys
import time


def eta_seconds(done, total, seconds):
    """Seconds left at the rate so far (None while nothing is done or the total is unknown)."""
    if not total or done <= 0 or seconds <= 0:
        return None
    return max(total - done, 0) * seconds / done


def format_line(done, total, seconds):
    """The CLI's progress text: '42.0% [##########..............] 420/1000  5000 pos/s  ETA 0:01'."""
    rate = done / seconds if seconds > 0 else 0.0
    if not total:
        return f'{done} positions  {rate:.0f} pos/s  {int(seconds) // 60}:{int(seconds) % 60:02d} elapsed'
    shown = min(done, total)
    width = 24
    filled = int(width * shown / total)
    eta = int(eta_seconds(shown, total, seconds) or 0)
    return (f'{100.0 * shown / total:5.1f}% [{"#" * filled}{"." * (width - filled)}] {shown}/{total}  '
            f'{rate:.0f} pos/s  ETA {eta // 60}:{eta % 60:02d}')


class Progress:
    """A progress(done, total, seconds) callback keeping the latest figures (done, total,
    seconds, rate, eta) and, with a stream (default stderr), drawing the CLI's line there at most
    every `every` seconds; close() ends the line. On a terminal (terminal=None asks the stream's
    isatty()) the line is redrawn in place (carriage return, erase to end of line; every 0.2 s by
    default); elsewhere (a log file, a pipe) each figure is a plain line of its own, no escape
    codes (every 10 s by default, and the last one)."""

    def __init__(self, stream=sys.stderr, every=None, terminal=None):
        self.stream = stream
        if terminal is None:
            isatty = getattr(stream, 'isatty', None)
            terminal = bool(isatty and isatty())
        self.terminal = terminal
        self.every = every if every is not None else 0.2 if terminal else 10.0
        self.done = self.total = 0
        self.seconds = 0.0
        self._drawn = None

    @property
    def rate(self):
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def eta(self):
        return eta_seconds(self.done, self.total, self.seconds)

    def __call__(self, done, total, seconds):
        self.done, self.total, self.seconds = done, total, seconds
        if self.stream is None:
            return
        now = time.monotonic()
        if self._drawn is None or now - self._drawn >= self.every or done >= total:
            self._drawn = now
            line = format_line(done, total, seconds)
            self.stream.write('\r' + line + '\033[K' if self.terminal else line + '\n')
            self.stream.flush()

    def close(self):
        if self.stream is not None and self._drawn is not None and self.terminal:
            self.stream.write('\r\033[K')
            self.stream.flush()
