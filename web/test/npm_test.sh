#!/usr/bin/env bash
# web/test/npm_test.sh TOOL: the package as a user gets it: `npm pack` of web/pkg makes a tarball,
# which is installed into an empty folder (no registry needed) and used from node by its package
# name: random weights for a built-in architecture, a position evaluated, a move pushed; the
# totals must equal the native tool's on the same net. Also the TypeScript declarations ship.
set -euo pipefail
tool=$1
here=$(cd "$(dirname "$0")/../pkg" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: npm_test: $*"; exit 1; }
(cd "$here" && npm pack --silent --pack-destination "$work" >/dev/null) || fail "npm pack failed"
tarball=$(ls "$work"/nnue-wasm-*.tgz) || fail "no tarball"
listing=$(tar -tzf "$tarball")
for f in nnue.mjs nnue.d.ts package.json LICENSE dist/nnue-relaxed-simd.wasm dist/nnue-simd128.wasm \
  dist/nnue-scalar.wasm; do
  grep -qx "package/$f" <<<"$listing" || fail "the tarball lacks $f"
done
mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
npm install --offline --no-audit --no-fund --silent "$tarball" >/dev/null || fail "npm install of the tarball failed"
"$tool" init --seed 5 sfnnv5 "$work/net.nnue" >/dev/null
want=$("$tool" eval --quiet --net "$work/net.nnue" --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' |
  awk -F '\t' 'NR == 2 { print $5 }')
cat >check.mjs <<'JS'
import { load, NnueError } from 'nnue-wasm';
const nnue = await load();
const bytes = nnue.randomNet({ name: 'sfnnv5', seed: 5 });
const net = await nnue.loadNet(bytes);
const s = net.state('startpos');
s.push('e2e4');
let refused = false;
try { s.push('e2e4'); } catch (e) { refused = e instanceof NnueError && e.status === 'illegal move'; }
console.log(`${nnue.build} ${net.info.name} ${s.evaluate().total} ${refused}`);
JS
got=$(node check.mjs) || fail "node check.mjs failed"
set -- $got
[ "$2" = SFNNv5 ] && [ "$3" = "$want" ] && [ "$4" = true ] ||
  fail "the installed package printed '$got'; expected SFNNv5, total $want (the native tool), an illegal move refused"
echo "ok: npm pack + install into an empty folder: 'nnue-wasm' ($1 build) gives total $3 as the native tool"
