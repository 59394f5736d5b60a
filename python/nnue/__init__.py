"""nnue: NNUE evaluation (Stockfish, YaneuraOu, bullet nets) from Python, over the C library.

    import nnue
    net = nnue.Net.load("nn-c288c895ea92.nnue")
    e = net.evaluate(["startpos", "8/8/8/8/8/8/8/K6k w - - 0 1"])   # NumPy arrays
    e.total, e.bucket
    st = nnue.State(net); st.push("e2e4"); st.evaluate()["total"]

docs/python.md is the guide."""
from nnue._lib import ffi, lib, library_path, text
from nnue.arch import Arch
from nnue.errors import NnueError, check
from nnue.net import Evaluations, Net
from nnue.netfile import Choice, choose, convert
from nnue.progress import Progress
from nnue.state import State
from nnue import training

__all__ = ['Arch', 'Net', 'State', 'Evaluations', 'NnueError', 'Progress', 'Choice', 'choose', 'convert', 'version',
           'isa', 'library_path', 'load_extension']


def version():
    """The C library's version ("0.1.0")."""
    return text(lib.nnue_version())


def isa():
    """The kernel set in use ("avx2", ...)."""
    return text(lib.nnue_isa_name())


def load_extension(path=None):
    """Loads an extension (include/nnue_extend.h): a shared object whose nnue_extension_init
    registers layer types, feature sets or games that YAML architectures can then name. Without a
    path, the files listed in the environment variable NNUE_EXTENSIONS (':'-separated). Raises
    NnueError naming the file when it cannot be opened or is not an extension."""
    err = ffi.new('nnue_error *')
    if path is None:
        check(lib.nnue_ext_load_env(err), err)
    else:
        check(lib.nnue_ext_load(str(path).encode(), err), err)
