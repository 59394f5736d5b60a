#!/usr/bin/python3
"""fetch_nets.py [--dir DIR] [--keep-downloads] [--list] [NET...]: Stockfish's release nets, each
checked against its pinned SHA-256, into DIR (default $NNUE_NETS_DIR, else ~/.cache/nnue-nets),
the folder the tests read.

NET is a file name (nn-1c0000000000.nnue) or a short name (sf17, sf18, sf18small, sf19); none
means all four. A net already in DIR is checked (size, SHA-256) and kept; a damaged one is
fetched again.

Where a net comes from, in this order:
  1. the npm registry's `stockfish` package of that release (Stockfish compiled to WebAssembly):
     its .wasm build embeds the release's nets in the module's initial memory;
  2. Stockfish's own net server, https://tests.stockfishchess.org/api/nn/<name>.
Either way the bytes are kept only when their SHA-256 is the pinned one. NNUE_NPM_REGISTRY and
NNUE_NET_SERVER replace the two base addresses (a mirror; the tests use a local server).

Each file appears whole or not at all (written to a temporary name in DIR, then renamed);
a lock in DIR lets several processes call this at once (the second waits, then finds the nets).
Progress goes to stderr (a running line on a terminal, a start and an end line otherwise); one
line per net on stdout. Exit status 0 when every net asked for is in DIR, 1 otherwise, naming
each net that is missing and every address tried. The nets are GPL-3.0, as Stockfish.

Python 3 standard library only.
"""
import fcntl
import hashlib
import http.client
import os
import re
import sys
import tarfile
import time
import urllib.error
import urllib.request


class Net:
    def __init__(self, short, what, size, sha256, head, packages):
        self.short, self.what, self.size, self.sha256 = short, what, size, sha256
        self.head = bytes.fromhex(head)   # the file's first 8 bytes: where it starts in the wasm memory
        self.packages = packages          # npm `stockfish` versions whose wasm build embeds it


# Sizes and hashes of the files as Stockfish publishes them (the name is the hash's head).
NETS = {
    "nn-1c0000000000.nnue": Net("sf17", "Stockfish 17.1 big net (SFNNv9)", 74874478,
                                "1c0000000000a67d629999d932d0c373f7450ce43cd12d0562868f4eaf9ae2ad",
                                "202ff37af220101c", ["17.1.0"]),
    "nn-37f18f62d772.nnue": Net("sf18small", "Stockfish 17.1 and 18 small net (SFNNv8-small)", 3519630,
                                "37f18f62d772f3107e1d6aaca3898c130c3c86f2ab63e6555fbbca20635a899d",
                                "202ff37a923c101c", ["18.0.8", "17.1.0"]),
    "nn-c288c895ea92.nnue": Net("sf18", "Stockfish 18 big net (SFNNv10)", 108919594,
                                "c288c895ea924429ea9092e3f36b2b3c1f00f2a3a4c759ff7e57e79e3b43e4a7",
                                "202ff37af22e10ec", ["18.0.8"]),
    "nn-1a298aa575a0.nnue": Net("sf19", "Stockfish 19 net (SFNNv16)", 98511183,
                                "1a298aa575a085434d29027978dc36867fe9c5bcea9376654b7a8eba1e52dfc2",
                                "fa8a446a05225ba8", ["19.0.0"]),
}
REGISTRY = "https://registry.npmjs.org"
NET_SERVER = "https://tests.stockfishchess.org/api/nn"
TIMEOUT = 60   # seconds without a byte before a download counts as failed


def say(msg):
    print(f"fetch_nets: {msg}", file=sys.stderr, flush=True)


# --- WebAssembly: the module's data segments (the binary format of the WebAssembly spec) ---

def _uleb(b, p):
    value = shift = 0
    while True:
        byte = b[p]
        p += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, p


def _sleb(b, p):
    value, end = _uleb(b, p)
    bits = 7 * (end - p)
    return (value - (1 << bits) if value >> (bits - 1) & 1 else value), end


def data_segments(wasm):
    """(memory address, file offset, length) of every active data segment, by address."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    segs, p = [], 8
    while p < len(wasm):
        section_id = wasm[p]
        size, body = _uleb(wasm, p + 1)
        p = body + size
        if section_id != 11:       # 11: the data section
            continue
        count, q = _uleb(wasm, body)
        for _ in range(count):
            kind, q = _uleb(wasm, q)
            if kind == 2:           # active, with an explicit memory index
                _, q = _uleb(wasm, q)
            if kind in (0, 2):      # offset expression: i32.const N, end
                if wasm[q] != 0x41:
                    raise ValueError(f"data segment at byte {q}: offset is not an i32.const")
                address, q = _sleb(wasm, q + 1)
                q += 1
            length, q = _uleb(wasm, q)
            if kind in (0, 2):
                segs.append((address, q, length))
            q += length
    return sorted(segs)


def nets_in_wasm(wasm, wanted):
    """{name: bytes} of the nets in `wanted` (names) found in the module's initial memory with
    their pinned SHA-256. The memory between segments is zeros (the toolchain leaves runs of
    zeros out of the segments); a net's first 8 bytes hold no zero, so they sit in one segment."""
    segs = data_segments(wasm)
    found = {}
    for name in wanted:
        net = NETS[name]
        for address, pos, length in segs:
            at = wasm.find(net.head, pos, pos + length)
            while at >= 0 and name not in found:
                start = address + at - pos
                blob = bytearray(net.size)
                for a, p, n in segs:   # the segments overlapping [start, start + size)
                    lo, hi = max(a, start), min(a + n, start + net.size)
                    if lo < hi:
                        blob[lo - start:hi - start] = wasm[p + lo - a:p + hi - a]
                if hashlib.sha256(blob).hexdigest() == net.sha256:
                    found[name] = bytes(blob)
                at = wasm.find(net.head, at + 1, pos + length)
            if name in found:
                break
    return found


def package_wasm(tgz):
    """The full single-threaded wasm build of a `stockfish` package (17.1 ships it in parts)."""
    with tarfile.open(tgz) as t:
        parts = [m for m in t.getmembers() if m.name.endswith(".wasm")
                 and "-single" in m.name and "-lite" not in m.name]
        if not parts:
            raise ValueError("no single-threaded .wasm build in the package")
        part_no = lambda m: int(re.search(r"-part-(\d+)\.wasm$", m.name).group(1)) if "-part-" in m.name else 0
        return b"".join(t.extractfile(m).read() for m in sorted(parts, key=part_no))


# --- files: downloads with progress, atomic writes, the lock ---

def download(url, dest):
    """url -> dest (a new file). Raises OSError (URLError, HTTPError, timeouts) on failure."""
    with urllib.request.urlopen(url, timeout=TIMEOUT) as r, open(dest, "wb") as out:
        total = int(r.headers.get("Content-Length") or 0)
        tty = sys.stderr.isatty()
        label = url.rsplit("/", 1)[-1]
        say(f"downloading {url}" + (f" ({total / 1e6:.1f} MB)" if total else ""))
        done, t0, shown = 0, time.monotonic(), 0.0
        while True:
            chunk = r.read(1 << 20)
            if not chunk:
                break
            out.write(chunk)
            done += len(chunk)
            now = time.monotonic()
            if tty and now - shown > 0.2:
                shown = now
                pct = f" {100 * done // total:3d}%" if total else ""
                sys.stderr.write(f"\r  {label}: {done / 1e6:.1f}" + (f" / {total / 1e6:.1f}" if total else "")
                                 + f" MB{pct}")
                sys.stderr.flush()
        if tty:
            sys.stderr.write("\r\033[K")
        if total and done != total:
            raise OSError(f"{url}: got {done} of {total} bytes")
        say(f"{label}: {done / 1e6:.1f} MB in {time.monotonic() - t0:.1f} s")


def write_atomic(path, data):
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def file_ok(path, net):
    if not os.path.isfile(path) or os.path.getsize(path) != net.size:
        return False
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest() == net.sha256


def lock(folder):
    f = open(os.path.join(folder, ".fetch_nets.lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say(f"waiting for another fetch_nets (lock {f.name})")
        fcntl.flock(f, fcntl.LOCK_EX)
    return f


# --- the two sources ---

def from_npm(version, missing, folder, keep, errors):
    """Fetches stockfish@version and writes the nets of `missing` it holds; returns their names."""
    registry = os.environ.get("NNUE_NPM_REGISTRY") or REGISTRY
    url = f"{registry.rstrip('/')}/stockfish/-/stockfish-{version}.tgz"
    kept = os.path.join(folder, "downloads", f"stockfish-{version}.tgz")
    tgz = kept if os.path.isfile(kept) else os.path.join(folder, f".stockfish-{version}.{os.getpid()}.tgz")
    try:
        if tgz != kept:
            download(url, tgz)
            if keep:
                os.makedirs(os.path.dirname(kept), exist_ok=True)
                os.replace(tgz, kept)
                tgz = kept
        say(f"reading the nets out of stockfish@{version}'s wasm build")
        found = nets_in_wasm(package_wasm(tgz), missing)
    except (OSError, ValueError, tarfile.TarError, http.client.HTTPException) as e:
        for name in missing:
            errors.setdefault(name, []).append(f"npm registry ({url}): {reason(e)}")
        return []
    finally:
        if tgz != kept and os.path.exists(tgz):
            os.unlink(tgz)
    for name in missing:
        if name in found:
            write_atomic(os.path.join(folder, name), found[name])
            print(f"{name}: {NETS[name].size} bytes, sha256 {NETS[name].sha256[:16]}... ok (npm stockfish@{version})")
        else:
            errors.setdefault(name, []).append(f"npm registry ({url}): the package holds no net with the pinned sha256")
    return [n for n in missing if n in found]


def from_net_server(name, folder, errors):
    server = os.environ.get("NNUE_NET_SERVER") or NET_SERVER
    url = f"{server.rstrip('/')}/{name}"
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.download")
    try:
        download(url, tmp)
        if not file_ok(tmp, NETS[name]):
            raise ValueError(f"{os.path.getsize(tmp)} bytes whose sha256 is not the pinned {NETS[name].sha256}")
        os.replace(tmp, os.path.join(folder, name))
        print(f"{name}: {NETS[name].size} bytes, sha256 {NETS[name].sha256[:16]}... ok ({url})")
        return True
    except (OSError, ValueError, http.client.HTTPException) as e:
        errors.setdefault(name, []).append(f"Stockfish's net server ({url}): {reason(e)}")
        return False
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def reason(e):
    if isinstance(e, urllib.error.HTTPError):
        return f"HTTP {e.code} {e.reason}"
    if isinstance(e, urllib.error.URLError):
        return f"unreachable ({e.reason})"
    return str(e) or type(e).__name__


def plan(missing):
    """npm versions to fetch: a net found in only one package decides first, so a net that is in
    several packages comes along with a package fetched anyway."""
    chosen = []
    for name in sorted(missing, key=lambda n: len(NETS[n].packages)):
        if not any(v in chosen for v in NETS[name].packages):
            chosen.append(NETS[name].packages[0])
    return chosen


def main(argv):
    folder = os.environ.get("NNUE_NETS_DIR") or os.path.expanduser("~/.cache/nnue-nets")
    keep, names, args = False, [], list(argv)
    while args:
        a = args.pop(0)
        if a == "--dir" and args:
            folder = args.pop(0)
        elif a == "--keep-downloads":
            keep = True
        elif a == "--list":
            for name, net in NETS.items():
                print(f"{name}\t{net.short}\t{net.size}\t{net.sha256}\t{net.what}")
            return 0
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a in NETS or any(a == n.short for n in NETS.values()):
            names.append(a if a in NETS else next(k for k, n in NETS.items() if n.short == a))
        else:
            say(f"unknown argument '{a}' (nets: {', '.join(n.short for n in NETS.values())}, or their file names)")
            return 2
    names = names or list(NETS)
    try:
        os.makedirs(folder, exist_ok=True)
        held = lock(folder)
    except OSError as e:
        say(f"cannot use {folder}: {e}")
        return 1
    with held:
        missing = []
        for name in names:
            if file_ok(os.path.join(folder, name), NETS[name]):
                print(f"{name}: present, sha256 ok")
            else:
                missing.append(name)
        errors = {}
        for version in plan(missing):
            todo = [n for n in missing if version in NETS[n].packages]
            for name in from_npm(version, todo, folder, keep, errors):
                missing.remove(name)
        for name in list(missing):
            if from_net_server(name, folder, errors):
                missing.remove(name)
    for name in missing:
        say(f"could not fetch {name}, the {NETS[name].what}, into {folder}. Tried: "
            + "; ".join(errors.get(name, [])))
    if missing:
        say("offline, or behind a proxy? (https_proxy is honoured.) Without these nets the tests that need "
            f"them skip. Or copy the files into {folder} by hand: `{sys.argv[0]} --list` gives their sha256")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
