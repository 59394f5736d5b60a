"""tests/eval/cli_goldens.py TOOL SHARED_DIR NETS_DIR [EXPECTED_ISA]: the `nnue eval` command on
whole corpora against the reference engines' goldens, once with the kernel set the tool detects
by itself and once for each set forced with NNUE_ISA (scalar and the detected one): a chess net
(Stockfish's SFNNv8-small layout, random weights, golden-sfnnv8small-A.tsv from Stockfish), a
shogi net (YaneuraOu HalfKP, goldensA_random.tsv from YaneuraOu) and the 2026 nets of Stormphrax
(without --arch: its CBNF header), PlentyChess, Reckless and Viridithas (goldens from the engines). EXPECTED_ISA, when given, is
the set the tool must detect (meson passes 'neon' on AArch64). In a cross build meson sets
MESON_EXE_WRAPPER (e.g. qemu-aarch64) and the tool runs under it. Exits 77 when the reference
data is absent. Prints one line per run; exit 1 on the first mismatch, naming the line."""
import lzma
import os
import re
import shlex
import subprocess
import sys

tool, shared, nets_dir = (os.path.abspath(a) for a in sys.argv[1:4])
expected_isa = sys.argv[4] if len(sys.argv) > 4 else None
wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", ""))
source_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shared_file(relative):
    path = os.path.join(shared, relative)
    if not os.path.exists(path):
        print(f"SKIP: reference file {path} is absent", file=sys.stderr)
        sys.exit(77)
    return path


def unpacked(relative):
    """The shared file, decompressed into NETS_DIR when it is .xz."""
    path = shared_file(relative)
    if not path.endswith(".xz"):
        return path
    out = os.path.join(nets_dir, os.path.basename(path)[:-3])
    if not os.path.exists(out):
        os.makedirs(nets_dir, exist_ok=True)
        tmp = f"{out}.tmp{os.getpid()}"
        with lzma.open(path) as src, open(tmp, "wb") as dst:
            dst.write(src.read())
        os.replace(tmp, out)
    return out


def run(args, isa):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("NNUE_ISA", None)
    if isa:
        env["NNUE_ISA"] = isa
    p = subprocess.run(wrapper + [tool] + args, env=env, cwd=source_dir, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: nnue {' '.join(args)} (NNUE_ISA={isa or ''}) exit {p.returncode}:\n{p.stderr}")
    return p.stdout


def detected_isa(net, arch, corpus):
    """The kernel set the tool picks by itself (bench names it) on the first 16 positions."""
    positions = os.path.join(nets_dir, f"cli-goldens-{os.getpid()}.txt")
    with open(corpus) as src, open(positions, "w") as dst:
        dst.writelines(src.readlines()[:16])
    args = ["bench", "--net", net, "--file", positions, "--iter", "1", "--mode", "refresh"]
    out = run(args + (["--arch", arch] if arch else []), None)
    os.remove(positions)
    m = re.search(r" isa=(\S+) ", out)
    if not m:
        sys.exit(f"FAIL: no isa= in the bench output:\n{out}")
    return m.group(1)


def golden_rows(path, columns):
    """Golden rows keyed by position: the listed columns, in eval's column order."""
    rows = []
    for line in open(path):
        if line.startswith("#") or line.startswith("fen\t") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.append([f[c] for c in columns])
    return rows


# name, net, arch (None: detected), corpus, golden, golden columns, eval columns compared
NETS = [
    ("chess SFNNv8-small", "oracle/chess/sfnnv8small-random.nnue", None, "oracle/chess/corpusA.fen",
     "oracle/chess/golden-sfnnv8small-A.tsv", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    # YaneuraOu's goldens: sfen, raw network output (eval's positional), eval (eval's total)
    ("shogi HalfKP", "oracle/shogi/random_halfkp_s20260101.bin.xz", "archs/shogi_halfkp.yaml",
     "oracle/shogi/corpusA.sfen", "oracle/shogi/goldensA_random.tsv", [0, 1, 2], [0, 3, 4]),
    # The 2026 nets (shared/oracle/third/<engine>/goldensA.tsv): Stormphrax's CBNF file without
    # --arch (its header names it), bucket, raw = total, nnue = scaled; the header-less ones by
    # their built-in name, bucket and total (PlentyChess's total is its scaled `nnue`).
    ("Stormphrax (CBNF, detected)", "oracle/third/stormphrax/stormphrax-random.nnue.xz", None,
     "oracle/chess/corpusA.fen", "oracle/third/stormphrax/goldensA.tsv", [0, 1, 2, 4], [0, 1, 4, 5]),
    ("PlentyChess", "oracle/third/plentychess/plentychess-random.bin.xz", "plentychess",
     "oracle/chess/corpusA.fen", "oracle/third/plentychess/goldensA.tsv", [0, 1, 4], [0, 1, 4]),
    ("Reckless", "oracle/third/reckless/reckless-random.bin.xz", "reckless",
     "oracle/chess/corpusA.fen", "oracle/third/reckless/goldensA.tsv", [0, 1, 2], [0, 1, 4]),
    ("Viridithas", "oracle/third/viridithas/viridithas-random.nnue.zst", "viridithas",
     "oracle/chess/corpusA.fen", "oracle/third/viridithas/goldensA.tsv", [0, 1, 2], [0, 1, 4]),
]

checked = 0
for name, net_rel, arch, corpus_rel, golden_rel, golden_cols, eval_cols in NETS:
    net, corpus = unpacked(net_rel), shared_file(corpus_rel)
    golden = golden_rows(shared_file(golden_rel), golden_cols)
    detected = detected_isa(net, arch, corpus)
    if expected_isa and detected != expected_isa:
        sys.exit(f"FAIL: {name}: the tool detects '{detected}', expected '{expected_isa}'")
    for isa in [None, "scalar", detected]:
        args = ["eval", "--quiet", "--threads", "1", "--net", net, "--file", corpus]
        if arch:
            args += ["--arch", arch]
        lines = [l for l in run(args, isa).splitlines()[1:] if l]
        if len(lines) != len(golden):
            sys.exit(f"FAIL: {name} NNUE_ISA={isa or ''}: {len(lines)} rows, golden has {len(golden)}")
        for i, (line, want) in enumerate(zip(lines, golden)):
            f = line.split("\t")
            got = [f[c] for c in eval_cols]
            if got != want:
                sys.exit(f"FAIL: {name} NNUE_ISA={isa or ''}: golden row {i + 1}: got {got}, golden {want}")
        print(f"{name}: NNUE_ISA={isa or '(detected: ' + detected + ')'}: {len(lines)} positions equal the goldens")
        checked += len(lines)
print(f"{checked} evaluations checked")
