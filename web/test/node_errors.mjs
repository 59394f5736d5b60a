// web/test/node_errors.mjs REPO BUILD_NETS: bad input through the JavaScript API, each a
// NnueError carrying the library's message and location, and the module still working after it:
// bytes that are not a net, a truncated net, a net given the wrong architecture, a zstd frame
// declaring more than any net, bad YAML (line and column), a bad FEN, an illegal move, popping
// at the root; seeds and moves of the wrong kind, plies after refused pushes, use after free()
// (issue 49); chooseArch, the library's chooser, on a whole and a cut net. Prints "N passed, N failed".
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { load, NnueError, relaxedSimdSupported } from '../pkg/nnue.mjs';

const [repo, buildNets] = process.argv.slice(2);
let passed = 0, failed = 0;
const ok = (w) => { passed++; console.log(`ok: ${w}`); };
const bad = (w) => { failed++; console.log(`FAIL: ${w}`); };

async function expectError(what, fn, check) {
  try {
    await fn();
    bad(`${what}: no error`);
  } catch (e) {
    if (!(e instanceof NnueError)) return bad(`${what}: ${e} is not an NnueError`);
    const why = check(e);
    if (why) bad(`${what}: ${why} (${e.message})`); else ok(`${what}: ${e.status}: ${e.message}`);
  }
}

for (const simd of [false, true]) {
  const nnue = await load({ simd });
  const tag = `wasm ${nnue.build}`;
  const good = nnue.randomNet({ name: 'sfnnv1', seed: 2 });
  await expectError(`${tag}: 100 bytes of zeros`, () => nnue.loadNet(new Uint8Array(100), { name: 'zeros.nnue' }),
    (e) => (e.message.includes('zeros.nnue') && /header/.test(e.message) ? null : 'message'));
  await expectError(`${tag}: a net cut short`, () => nnue.loadNet(good.slice(0, good.length - 1000), { arch: 'sfnnv1', name: 'cut.nnue' }),
    (e) => (e.offset >= 0 && /truncated|too short|expected/.test(e.message) ? null : 'no byte offset or reason'));
  await expectError(`${tag}: the wrong architecture`, () => nnue.loadNet(good, { arch: 'sfnnv5', name: 'v1.nnue' }),
    (e) => (e.offset >= 0 && /expected/.test(e.message) ? null : 'no offset or expectation'));
  // A zstd frame (magic, frame header with a 4-byte content size) declaring 2^32-1 bytes.
  const bomb = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0]);
  await expectError(`${tag}: a zstd frame declaring 4 GB`, () => nnue.loadNet(bomb, { arch: 'sfnnv1', name: 'bomb.zst' }),
    (e) => (/bytes|large|size/.test(e.message) ? null : 'no size in the message'));
  await expectError(`${tag}: YAML with a bad key`, () => nnue.archInfo({ yaml: 'name: x\ngame: chess\nfrobnicate: 1\n' }),
    (e) => (e.line === 3 && e.column >= 1 ? null : `line ${e.line} column ${e.column}`));
  const net = await nnue.loadNet(good);
  await expectError(`${tag}: a bad FEN`, () => net.state('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1'),
    (e) => (e.status === 'syntax error' ? null : 'not a syntax error'));
  const s = net.state('startpos');
  await expectError(`${tag}: an illegal move`, () => s.push('e2e5'), (e) => (e.status === 'illegal move' ? null : 'status'));
  await expectError(`${tag}: pop at the root`, () => s.pop(), (e) => (e.message.includes('no move') ? null : 'message'));
  // Still working after every error: the same totals as a fresh load.
  const again = await nnue.loadNet(good);
  const a = s.push('e2e4').evaluate().total, b = again.evaluate('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1').total;
  (a === b ? ok : bad)(`${tag}: after the errors the module works (${a} and ${b})`);
  // Numbers from JS (issue 49): a seed that is no whole number 0..2^53 - 1 is refused by name.
  for (const seed of [-1, 1.5, NaN, Infinity, 2 ** 53, '7', 7n, null]) {
    await expectError(`${tag}: seed ${String(seed)}`, () => nnue.randomNet({ name: 'sfnnv1', seed }),
      (e) => (/^seed: expected a whole number/.test(e.message) ? null : 'message'));
  }
  await expectError(`${tag}: a move that is not a string`, () => s.push(42),
    (e) => (/move: expected a string, found number/.test(e.message) ? null : 'message'));
  // The wrapper's plies stay the state's after refused pushes: pops take back what was played.
  const root = again.evaluate().total;
  (s.evaluate().ply === 1 ? ok : bad)(`${tag}: after the refused pushes the state is at ply ${s.evaluate().ply}`);
  s.pop();
  await expectError(`${tag}: pop past the root after refused pushes`, () => s.pop(),
    (e) => (e.message.includes('no move') ? null : 'message'));
  (s.total() === root ? ok : bad)(`${tag}: back at the root: ${s.total()} (fresh: ${root})`);
  // Use after free(): a clear error, never a null pointer handed to the library.
  s.free();
  for (const [what, fn] of [['push', () => s.push('e2e4')], ['pop', () => s.pop()], ['evaluate', () => s.evaluate()],
    ['total', () => s.total()]]) {
    await expectError(`${tag}: State.${what} after free()`, fn,
      (e) => (/this State was freed/.test(e.message) ? null : 'message'));
  }
  s.free(); // twice: a no-op
  net.free();
  await expectError(`${tag}: Net.state after free()`, () => net.state('startpos'),
    (e) => (/this Net was freed/.test(e.message) ? null : 'message'));
  await expectError(`${tag}: Net.evaluate after free()`, () => net.evaluate(),
    (e) => (/this Net was freed/.test(e.message) ? null : 'message'));
  again.free();
  // The argument's type: a path string (or anything not bytes) is a TypeError, not 0 bytes.
  for (const [what, arg] of [['a path string', '/tmp/net.nnue'], ['a number', 42], ['an Array', [1, 2, 3]]]) {
    try {
      await nnue.loadNet(arg);
      bad(`${tag}: loadNet(${what}): no error`);
    } catch (e) {
      (e instanceof TypeError && /expected the net's bytes/.test(e.message) ? ok : bad)(`${tag}: loadNet(${what}): ${e.name}: ${e.message}`);
    }
  }
  await expectError(`${tag}: empty bytes`, () => nnue.loadNet(new Uint8Array(0), { name: 'empty.nnue' }),
    (e) => (/empty\.nnue: .*empty \(0 bytes\), not a net/.test(e.message) && !/hash/.test(e.message) ? null : 'not a plain "not a net"'));
  // A net cut short, its architecture left to the header: the library's own diagnosis, as the CLI's.
  await expectError(`${tag}: a net cut short, detected`, () => nnue.loadNet(good.slice(0, 4000), { name: 'cut.nnue' }),
    (e) => (/\(truncated or damaged\?\)/.test(e.message) && !/nnue_arch_load/.test(e.message) ? null : 'no truncation diagnosis'));
  // The library's one chooser (docs/detection.md), as loadNet and the CLI use it.
  const whole = nnue.chooseArch(good, { name: 'v1.nnue' });
  (whole.kind === 'only' && whole.chosen === 'SFNNv1' && whole.error === null && whole.candidates.length === 2 ? ok : bad)(
    `${tag}: chooseArch: ${whole.kind} ${whole.chosen} among ${whole.candidates.map((c) => c.name).join(', ')}`);
  const cut = nnue.chooseArch(good.slice(0, 4000), { name: 'cut.nnue' });
  (cut.kind === 'named_size' && cut.chosen === null && cut.named === 'SFNNv1' &&
    /cut\.nnue: nnue init wrote this net for the built-in SFNNv1, whose file has \d+ bytes; this one has 4000/.test(cut.error) ? ok : bad)(
    `${tag}: chooseArch of a cut net: ${cut.kind}: ${cut.error}`);
}
// The kernel set: load({ isa: 'scalar' }) runs the portable kernels in the best build with the
// same totals; 'simd128' loads that build; 'relaxed-simd' that one where the engine runs it, an
// NnueError where it does not; an unknown name is a TypeError.
{
  const fast = await load({ simd: true }), slow = await load({ simd: true, isa: 'scalar' });
  const plain = await load({ isa: 'simd128' });
  const bytes = fast.randomNet({ name: 'sfnnv5', seed: 3 });
  const totals = [];
  for (const n of [fast, slow, plain]) totals.push((await n.loadNet(bytes)).evaluate('startpos').total);
  const best = relaxedSimdSupported() ? 'relaxed-simd' : 'simd128';
  (fast.build === best && fast.isa === best && slow.build === best && slow.isa === 'scalar' &&
    plain.build === 'simd128' && plain.isa === 'simd128' && totals.every((t) => t === totals[0]) ? ok : bad)(
    `load(): ${fast.build} build, kernels ${fast.isa}; {isa: 'scalar'}: ${slow.build} build, kernels ${slow.isa}; ` +
    `{isa: 'simd128'}: ${plain.build} build, kernels ${plain.isa}; totals ${totals.join(' ')}`);
  if (!relaxedSimdSupported()) {
    await expectError("load({isa: 'relaxed-simd'}) where the engine has no relaxed SIMD",
      () => load({ isa: 'relaxed-simd' }),
      (e) => (/does not run relaxed SIMD/.test(e.message) ? '' : 'the message does not say why'));
  }
  try {
    await load({ isa: 'avx9000' });
    bad("load({isa: 'avx9000'}): no error");
  } catch (e) {
    (e instanceof TypeError ? ok : bad)(`load({isa: 'avx9000'}): ${e.name}: ${e.message}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
