// web/test/node_goldens.mjs REPO SHARED_DIR NETS_DIR BUILD_NETS TOOL: the WebAssembly builds in node
// against the reference engines' goldens, through the JavaScript API (web/pkg/nnue.mjs): every
// build (scalar, SIMD128, and relaxed SIMD where this node runs it: node 20 needs
// --experimental-wasm-relaxed-simd, else it is said and skipped), every net of the list whose
// file is here (a missing one is said and counted as skipped, never passed), every golden row
// exact; then incremental == full along random games on each net; a zstd-compressed net equal to
// its plain bytes; and a xiangqi net (tests' own, zstd) equal to the native tool (TOOL) on the
// xiangqi corpus. Prints one line per check and "N passed, N failed, N skipped".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, relaxedSimdSupported } from '../pkg/nnue.mjs';

const [repo, shared, netsDir, buildNets, tool] = process.argv.slice(2);
if (!repo || !shared || !netsDir || !buildNets || !tool) {
  console.error('usage: node_goldens.mjs REPO SHARED_DIR NETS_DIR BUILD_NETS TOOL');
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
  // Made by the Pikafish anchor (tests/xiangqi/test_xiangqi_eval.c), zstd-compressed as Pikafish ships nets.
  ['xiangqi (random, Pikafish)', join(buildNets, 'pikafish-random-20261125.nnue.zst'), 'pikafish', join(shared, 'oracle/xiangqi/golden-pikafish-random-A.tsv'), [1, 2, 3, 4]],
];

function random(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s >>> 8; };
}

// Every build this node runs, loaded once: scalar, SIMD128, relaxed SIMD.
const builds = [];
for (const build of ['scalar', 'simd128', 'relaxed-simd']) {
  if (build === 'relaxed-simd' && !relaxedSimdSupported()) {
    skip('wasm relaxed-simd: this node does not run relaxed SIMD (node 20: --experimental-wasm-relaxed-simd)');
    continue;
  }
  const nnue = await load(build === 'scalar' ? { simd: false } : { isa: build });
  (nnue.build === build ? ok : bad)(`load for the ${build} build: the ${nnue.build} build, kernels ${nnue.isa}`);
  builds.push(nnue);
}

for (const nnue of builds) {
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
// Native agreement: the same net and positions through the native tool and through wasm.
function nativeTotals(net, arch, corpus) {
  const out = execFileSync(tool, ['eval', '--quiet', '--net', net, '--arch', arch, '--file', corpus],
    { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return out.trim().split('\n').slice(1).map((l) => l.split('\t'));
}

for (const nnue of builds) {
  const tag = `wasm ${nnue.build}`;
  // zstd: Stockfish 18's small net compressed by the zstd tool evaluates as the plain file.
  const small = join(netsDir, 'nn-37f18f62d772.nnue');
  if (existsSync(small)) {
    const plain = await nnue.loadNet(readFileSync(small));
    const packed = await nnue.loadNet(execFileSync('zstd', ['-q', '-c', small], { maxBuffer: 1 << 28 }));
    const fens = readFileSync(join(repo, 'tests/reference/chess/corpusA.fen'), 'utf8').trim().split('\n').slice(0, 300);
    const same = fens.every((f) => plain.evaluate(f).total === packed.evaluate(f).total);
    (same ? ok : bad)(`${tag}: zstd-compressed Stockfish 18 small net ${same ? 'equals' : 'differs from'} the plain one on 300 positions`);
    plain.free();
    packed.free();
  } else skip(`${tag}: no ${small} for the zstd check`);
  // xiangqi: a net of docs/examples/pikafish_w64.yaml with `nnue init`'s random weights, made
  // by the native tool and by wasm (the same bytes), zstd-compressed, evaluated both ways.
  const yamlPath = join(repo, 'docs/examples/pikafish_w64.yaml'), corpus = join(shared, 'oracle/xiangqi/corpusA.fen');
  if (existsSync(corpus)) {
    const dir = mkdtempSync(join(tmpdir(), 'nnue-web-'));
    const plainPath = join(dir, 'xq.nnue'), zstPath = join(dir, 'xq.nnue.zst');
    execFileSync(tool, ['init', '--seed', '7', yamlPath, plainPath], { stdio: 'ignore' });
    execFileSync('zstd', ['-q', '-f', plainPath, '-o', zstPath]);
    const yaml = readFileSync(yamlPath, 'utf8');
    const mine = nnue.randomNet({ yaml, seed: 7 });
    (Buffer.compare(Buffer.from(mine), readFileSync(plainPath)) === 0 ? ok : bad)(
      `${tag}: randomNet (pikafish_w64, seed 7): ${mine.length} bytes, ${Buffer.compare(Buffer.from(mine), readFileSync(plainPath)) === 0 ? 'the same as' : 'different from'} nnue init's`);
    const want = nativeTotals(zstPath, yamlPath, corpus);
    const net = await nnue.loadNet(readFileSync(zstPath), { yaml });
    const diff = want.find((r) => {
      const d = net.evaluate(r[0]);
      return `${d.bucket}\t${d.psqt}\t${d.positional}\t${d.total}` !== r.slice(1, 5).join('\t');
    });
    if (diff || want.length < 100) bad(`${tag}: xiangqi (pikafish_w64, zstd): ${diff ? diff[0] + ' differs from native' : 'only ' + want.length + ' rows'}`);
    else ok(`${tag}: xiangqi (pikafish_w64, zstd): ${want.length} positions equal the native tool`);
    net.free();
    rmSync(dir, { recursive: true, force: true });
  } else skip(`${tag}: no ${corpus} for the xiangqi check`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
