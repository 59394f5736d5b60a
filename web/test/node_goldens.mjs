// web/test/node_goldens.mjs REPO SHARED_DIR NETS_DIR BUILD_NETS: the WebAssembly builds in node
// against the reference engines' goldens, through the JavaScript API (web/pkg/nnue.mjs): both
// builds (scalar and SIMD128), every net of the list whose file is here (a missing one is said
// and counted as skipped, never passed), every golden row exact; then incremental == full along
// random games on each net. Prints one line per check and "N passed, N failed, N skipped".
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from '../pkg/nnue.mjs';

const [repo, shared, netsDir, buildNets] = process.argv.slice(2);
if (!repo || !shared || !netsDir || !buildNets) {
  console.error('usage: node_goldens.mjs REPO SHARED_DIR NETS_DIR BUILD_NETS');
  process.exit(2);
}
let passed = 0, failed = 0, skipped = 0;
const ok = (what) => { passed++; console.log(`ok: ${what}`); };
const bad = (what) => { failed++; console.log(`FAIL: ${what}`); };
const skip = (what) => { skipped++; console.log(`SKIP: ${what}`); };

function readNet(path) {
  if (!existsSync(path)) return null;
  if (path.endsWith('.xz')) return execFileSync('xz', ['-dc', path], { maxBuffer: 1 << 30 });
  return readFileSync(path);
}

function rows(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('fen\t'))
    .map((l) => l.split('\t'));
}

// name, net file, architecture (built-in name; '' = from the header), golden table, and which
// golden columns give bucket / psqt / positional / total (-1: not in the table).
const NETS = [
  ['Stockfish 15.1 (its own net)', join(buildNets, 'sf151.nnue'), '', join(repo, 'tests/reference/chess/golden-sf151-A.tsv'), [1, 2, 3, 4]],
  ['Stockfish 18 small net', join(netsDir, 'nn-37f18f62d772.nnue'), '', join(repo, 'tests/reference/chess/golden-sf18small-A.tsv'), [1, 2, 3, 4]],
  ['Stockfish 17.1 release net', join(netsDir, 'nn-1c0000000000.nnue'), '', join(repo, 'tests/reference/chess/golden-sf17-A.tsv'), [1, 2, 3, 4]],
  ['Stockfish 18 release net', join(netsDir, 'nn-c288c895ea92.nnue'), '', join(repo, 'tests/reference/chess/golden-sf18-A.tsv'), [1, 2, 3, 4]],
  ['Stockfish 19 release net', join(netsDir, 'nn-1a298aa575a0.nnue'), '', join(repo, 'tests/reference/chess/golden-sf19-A.tsv'), [1, 2, 3, 4]],
  // YaneuraOu's goldens: sfen, raw network output (positional), eval (total).
  ['shogi HalfKP (random, YaneuraOu)', join(shared, 'oracle/shogi/random_halfkp_s20260101.bin.xz'), 'shogi_halfkp', join(shared, 'oracle/shogi/goldensA_random.tsv'), [-1, -1, 1, 2]],
  ['xiangqi (random, Pikafish)', join(buildNets, 'pikafish-random.nnue'), 'pikafish', join(shared, 'oracle/xiangqi/golden-pikafish-random-A.tsv'), [1, 2, 3, 4]],
];

function random(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s >>> 8; };
}

for (const simd of [false, true]) {
  const nnue = await load({ simd });
  const tag = `wasm ${nnue.build}`;
  for (const [name, path, arch, golden, cols] of NETS) {
    const bytes = readNet(path);
    if (!bytes) { skip(`${tag}: ${name}: no net at ${path}`); continue; }
    if (!existsSync(golden)) { skip(`${tag}: ${name}: no goldens at ${golden}`); continue; }
    let net;
    try {
      net = await nnue.loadNet(bytes, { arch, name: path });
    } catch (e) { bad(`${tag}: ${name}: load: ${e.message}`); continue; }
    const table = rows(golden);
    let wrong = null;
    for (const r of table) {
      const d = net.evaluate(r[0]);
      const got = [d.bucket, d.psqt, d.positional, d.total];
      for (let k = 0; k < 4 && !wrong; k++)
        if (cols[k] >= 0 && got[k] !== Number(r[cols[k]]))
          wrong = `${r[0]}: ${['bucket', 'psqt', 'positional', 'total'][k]} ${got[k]}, golden ${r[cols[k]]}`;
      if (wrong) break;
    }
    if (wrong) bad(`${tag}: ${name}: ${wrong}`); else ok(`${tag}: ${name}: ${table.length} positions equal the goldens`);
    // Incremental == full: random games from the corpus's first positions.
    const next = random(20261127);
    let plies = 0, mismatch = null;
    for (const r of table.slice(0, 8)) {
      const s = net.state(r[0]);
      for (let ply = 0; ply < 40 && !mismatch; ply++) {
        const e = s.evaluate();
        if (e.moves.length === 0) break;
        s.push(e.moves[next() % e.moves.length]);
        const inc = s.evaluate(), full = net.evaluate(inc.position);
        if (inc.total !== full.total || inc.positional !== full.positional || inc.psqt !== full.psqt)
          mismatch = `${inc.position}: incremental ${inc.total}, full ${full.total}`;
        plies++;
      }
      s.free();
      if (mismatch) break;
    }
    if (mismatch) bad(`${tag}: ${name}: ${mismatch}`); else ok(`${tag}: ${name}: incremental == full over ${plies} moves`);
    net.free();
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
