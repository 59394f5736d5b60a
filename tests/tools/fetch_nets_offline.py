"""tests/tools/fetch_nets_offline.py SRC: scripts/fetch_nets.py's own logic, with no internet: a
local HTTP server plays the npm registry and Stockfish's net server, and a made-up net replaces
the pinned table. Checks: the net is cut out of a wasm module's data segments (split by zero runs,
with a decoy start, in 11 package parts); a wrong sha256 is refused from either source; the net
server is the fallback; offline names the net and both addresses; a damaged file is replaced; a
truncated download leaves nothing; a second caller waits for the lock; no temporary file stays.
And the real table: each name is its sha256's head."""
import fcntl
import hashlib
import http.server
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

src = sys.argv[1]
sys.path.insert(0, os.path.join(src, 'scripts'))
import fetch_nets  # noqa: E402

NAME, VERSION = 'nn-0123456789ab.nnue', '9.9.9'
failures = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def uleb(n):
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def sleb(n):
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        done = (n == 0 and not b & 0x40) or (n == -1 and b & 0x40)
        out.append(b | (0 if done else 0x80))
        if done:
            return bytes(out)


def module(memory):
    """A wasm module whose data section lays `memory` out as the toolchain does: runs of 6+ zeros
    left out, segments in shuffled order, plus a passive segment and a kind-2 one."""
    segs, i = [], 0
    while i < len(memory):
        if memory[i:i + 6] == b'\0' * 6:
            while i < len(memory) and memory[i] == 0:
                i += 1
            continue
        j = memory.find(b'\0' * 6, i)
        j = len(memory) if j < 0 else j
        segs.append((i, memory[i:j]))
        i = j
    random.Random(1).shuffle(segs)
    body = uleb(len(segs) + 1) + b'\x01' + uleb(5) + b'junk!'       # passive segment: not memory
    for k, (addr, data) in enumerate(segs):
        kind = b'\x02\x00' if k % 2 else b'\x00'
        body += kind + b'\x41' + sleb(addr) + b'\x0b' + uleb(len(data)) + data
    custom = b'\x00' + uleb(5) + b'\x04name'                              # a section to skip
    return b'\0asm\x01\0\0\0' + custom + b'\x0b' + uleb(len(body)) + body


def make_net():
    rng = random.Random(7)
    net = bytearray(rng.randrange(1, 256) for _ in range(300_000))
    for _ in range(40):                       # zero runs: the net spans many segments
        at, n = rng.randrange(16, len(net) - 100), rng.randrange(6, 90)
        net[at:at + n] = bytes(n)
    return bytes(net)


def tgz(wasm, parts):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as t:
        def add(name, data):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        add('package/bin/stockfish-lite-single.wasm', b'\0asm\x01\0\0\0')   # the lite build: not read
        step = -(-len(wasm) // parts)
        for p in range(parts):
            add(f'package/src/stockfish-single-x-part-{p}.wasm', wasm[p * step:(p + 1) * step])
    return buf.getvalue()


NET = make_net()
HEAD = NET[:8]
assert b'\0' not in HEAD
# Memory: filler, a decoy that starts like the net, then the net itself.
decoy = HEAD + bytes(random.Random(3).randrange(1, 256) for _ in range(5000))
memory = bytes(1024) + decoy + b'\x55' * 77 + bytes(64) + NET + bytes(100) + b'tail'
GOOD = tgz(module(memory), 11)
bad_memory = bytearray(memory)
bad_memory[memory.find(NET) + 150_000] ^= 0xFF
BAD = tgz(module(bytes(bad_memory)), 1)
TAMPERED = NET[:-1] + bytes([NET[-1] ^ 1])

routes = {}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = routes.get(self.path)
        if body is None:
            self.send_error(404)
            return
        if body == 'truncated':
            self.send_response(200)
            self.send_header('Content-Length', str(len(GOOD)))
            self.end_headers()
            self.wfile.write(GOOD[:1000])
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f'http://127.0.0.1:{server.server_address[1]}'
PKG, NN = f'/npm/stockfish/-/stockfish-{VERSION}.tgz', f'/nn/{NAME}'
import socket  # noqa: E402
with socket.socket() as s:
    s.bind(('127.0.0.1', 0))
    DEAD = f'http://127.0.0.1:{s.getsockname()[1]}'   # nothing listens there once closed

SHIM = f'''
import sys; sys.path.insert(0, {os.path.join(src, "scripts")!r})
import fetch_nets as f
f.NETS = {{{NAME!r}: f.Net("fake", "made-up test net", {len(NET)}, {hashlib.sha256(NET).hexdigest()!r},
                           {HEAD.hex()!r}, [{VERSION!r}])}}
sys.exit(f.main(sys.argv[1:]))
'''


def run(folder, registry, server_url, background=False):
    env = dict(os.environ, NNUE_NPM_REGISTRY=registry, NNUE_NET_SERVER=server_url)
    env.pop('NNUE_NETS_DIR', None)
    cmd = [sys.executable, '-c', SHIM, '--dir', folder]
    if background:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def content(folder):
    p = os.path.join(folder, NAME)
    return open(p, 'rb').read() if os.path.exists(p) else None


def leftovers(folder):
    return sorted(n for n in os.listdir(folder) if n not in (NAME, '.fetch_nets.lock'))


with tempfile.TemporaryDirectory() as tmp:
    # The wasm reader alone, then the whole path through the npm source.
    fetch_nets.NETS[NAME] = fetch_nets.Net('fake', 'made-up', len(NET), hashlib.sha256(NET).hexdigest(), HEAD.hex(), [])
    got = fetch_nets.nets_in_wasm(module(memory), [NAME])
    check(got == {NAME: NET}, 'nets_in_wasm: the net cut out of shuffled segments with zero gaps, past a decoy')
    check(fetch_nets.nets_in_wasm(module(bytes(bad_memory)), [NAME]) == {}, 'nets_in_wasm: one flipped byte: not found')
    del fetch_nets.NETS[NAME]
    d = os.path.join(tmp, 'npm')
    routes.update({PKG: GOOD})
    r = run(d, BASE + '/npm', DEAD)
    check(r.returncode == 0 and content(d) == NET, f'npm package in 11 parts, decoy start: net extracted ({r.stderr.strip()[-300:]})')
    check(f'npm stockfish@{VERSION}' in r.stdout, 'stdout names the source')
    check('downloading' in r.stderr and 'MB in' in r.stderr and '\r' not in r.stderr,
          'stderr not a terminal: a start and an end line, no carriage returns')
    r = run(d, DEAD, DEAD)
    check(r.returncode == 0 and 'present, sha256 ok' in r.stdout, 'a present, intact net is kept without fetching')

    # A damaged file of the right size is fetched again.
    with open(os.path.join(d, NAME), 'r+b') as f:
        f.seek(1000)
        f.write(b'\x00')
    r = run(d, BASE + '/npm', DEAD)
    check(r.returncode == 0 and content(d) == NET, 'a damaged net in the folder is replaced')
    check(leftovers(d) == [], f'no temporary files left ({leftovers(d)})')

    # Wrong bytes from both sources: refused, nothing written.
    d = os.path.join(tmp, 'bad')
    routes.update({PKG: BAD, NN: TAMPERED})
    r = run(d, BASE + '/npm', BASE + '/nn')
    check(r.returncode == 1 and content(d) is None, 'sha256 mismatch from both sources: exit 1, no file')
    check('no net with the pinned sha256' in r.stderr and 'not the pinned' in r.stderr,
          f'both refusals are named ({r.stderr.strip()[-400:]})')
    check(leftovers(d) == [], f'no temporary files left after refusals ({leftovers(d)})')

    # The registry down: the net server gives the file.
    routes.update({NN: NET})
    r = run(d, DEAD, BASE + '/nn')
    check(r.returncode == 0 and content(d) == NET and BASE + '/nn/' + NAME in r.stdout, 'fallback to the net server')

    # A package that stops short of its Content-Length: a failure, no file, no temporary.
    d = os.path.join(tmp, 'short')
    routes.update({PKG: 'truncated'})
    r = run(d, BASE + '/npm', DEAD)
    check(r.returncode == 1 and content(d) is None and leftovers(d) == [],
          f'truncated download: exit 1, nothing left ({leftovers(d)})')

    # Offline: the message names the net and both addresses.
    d = os.path.join(tmp, 'offline')
    r = run(d, DEAD, DEAD + '/nn')
    check(r.returncode == 1 and f'could not fetch {NAME}' in r.stderr and DEAD + '/stockfish/-/' in r.stderr
          and DEAD + '/nn/' + NAME in r.stderr and 'unreachable' in r.stderr and 'offline' in r.stderr,
          f'offline: exit 1 naming the net and both addresses ({r.stderr.strip()[-400:]})')

    # The lock: a second caller waits until the first lets go, then does the work.
    d = os.path.join(tmp, 'lock')
    os.makedirs(d)
    routes.update({PKG: GOOD})
    with open(os.path.join(d, '.fetch_nets.lock'), 'w') as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        p = run(d, BASE + '/npm', DEAD, background=True)
        time.sleep(1.5)
        check(p.poll() is None and content(d) is None, 'while the lock is held the caller waits and writes nothing')
        fcntl.flock(held, fcntl.LOCK_UN)
        out, err = p.communicate(timeout=60)
    check(p.returncode == 0 and content(d) == NET and 'waiting for another fetch_nets' in err,
          f'after the lock is released it says it waited and fetches ({err.strip()[-300:]})')

# The real table: names are the sha256 heads, every net has a package and an 8-byte start.
for name, net in fetch_nets.NETS.items():
    check(name == f'nn-{net.sha256[:12]}.nnue' and len(net.sha256) == 64 and len(net.head) == 8
          and net.packages and net.size > 1_000_000, f'{name}: pinned sha256, size, start and package')
check(sorted(n.short for n in fetch_nets.NETS.values()) == ['sf17', 'sf18', 'sf18small', 'sf19'], 'the four nets')
server.shutdown()
print(f'{len(failures)} failed')
sys.exit(1 if failures else 0)
