"""nnue: NNUE evaluation (Stockfish, YaneuraOu, bullet nets) from Python, over the C library.

    import nnue
    net = nnue.Net.load("nn-c288c895ea92.nnue")
    e = net.evaluate(["startpos", "8/8/8/8/8/8/8/K6k w - - 0 1"])   # NumPy arrays
    e.total, e.bucket
    st = nnue.State(net); st.push("e2e4"); st.evaluate()["total"]

docs/python.md is the guide."""
from nnue._lib import ffi, lib, library_path, text
from nnue.arch import Arch
from nnue.errors import NnueError
from nnue.net import Evaluations, Net
from nnue.progress import Progress
from nnue.state import State
from nnue import training

__all__ = ['Arch', 'Net', 'State', 'Evaluations', 'NnueError', 'Progress', 'version', 'isa', 'library_path']


def version():
    """The C library's version ("0.1.0")."""
    return text(lib.nnue_version())


def isa():
    """The kernel set in use ("avx2", ...)."""
    return text(lib.nnue_isa_name())
