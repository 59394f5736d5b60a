// nnue.mjs: the JavaScript API of the nnue library compiled to WebAssembly (web/build.sh).
// One ES module for browsers and node. Nets and architectures come in as bytes or text, never
// from a file system; errors are NnueError exceptions carrying the library's message and its
// location (file, line and column, or byte offset). Types: nnue.d.ts.

import createScalar from './dist/nnue-scalar.mjs';
import createSimd from './dist/nnue-simd128.mjs';
import createRelaxed from './dist/nnue-relaxed-simd.mjs';

// The smallest module using a SIMD128 instruction: WebAssembly.validate says whether the engine
// runs SIMD code (the same probe as the wasm-feature-detect package).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8,
  0, 65, 0, 253, 15, 253, 98, 11]);

// The same with relaxed SIMD's i16x8.relaxed_dot_i8x16_i7x16_s (Chromium 114+, node 22+; node 20
// only behind --experimental-wasm-relaxed-simd).
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13,
  0, 65, 0, 253, 15, 65, 0, 253, 15, 253, 146, 2, 11]);

function validates(probe) {
  try {
    return WebAssembly.validate(probe);
  } catch {
    return false;
  }
}

export function simdSupported() {
  return validates(SIMD_PROBE);
}

export function relaxedSimdSupported() {
  return validates(RELAXED_PROBE);
}

export class NnueError extends Error {
  constructor(e) {
    super(e.text || e.message);
    this.name = 'NnueError';
    this.status = e.status;   // "syntax error", "format error", ...
    this.code = e.code;       // the library's nnue_status number
    this.file = e.file;       // what the error is about ("" when nothing)
    this.line = e.line;       // 1-based, 0 when not about a text
    this.column = e.column;
    this.offset = e.offset;   // byte offset in a net, -1 when not about one
    this.detail = e.message;  // the message without the location
  }
}

// An argument the library cannot take, refused before it crosses into WebAssembly.
function argError(message) {
  return new NnueError({ status: 'invalid argument', code: 10, file: '', line: 0, column: 0, offset: -1, message,
    text: message });
}

// A text argument: a string (or undefined / null where a default applies).
function text(value, what) {
  if (typeof value !== 'string') throw argError(`${what}: expected a string, found ${typeof value}`);
  return value;
}

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

async function wasmBytes(name) {
  const url = new URL(`./dist/${name}`, import.meta.url);
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`nnue: cannot fetch ${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function sha256Hex(bytes) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return '';
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const ISAS = ['scalar', 'simd128', 'relaxed-simd'];
const BUILDS = { scalar: createScalar, simd128: createSimd, 'relaxed-simd': createRelaxed };

// Which WebAssembly build to load: options.simd false: the scalar one; options.isa 'simd128' or
// 'relaxed-simd': that build; else the best the engine validates (relaxed SIMD, SIMD128, scalar).
function chooseBuild(options, isa) {
  if (options.simd === false) return 'scalar';
  if (isa === 'simd128' || isa === 'relaxed-simd') return isa;
  if (relaxedSimdSupported()) return 'relaxed-simd';
  return options.simd === true || simdSupported() ? 'simd128' : 'scalar';
}

// Loads the library. options.simd: false for the scalar build, default: the best build the engine
// validates (relaxed-simd, then simd128, then scalar). options.isa: a kernel set: 'simd128' or
// 'relaxed-simd' loads that build; 'scalar' runs the portable kernels inside the chosen build
// (as NNUE_ISA does natively; in node NNUE_ISA from the environment is the default).
export async function load(options = {}) {
  const isa = options.isa !== undefined ? options.isa : isNode ? process.env.NNUE_ISA : undefined;
  if (isa !== undefined && isa !== '' && !ISAS.includes(isa))
    throw new TypeError(`load: isa must be one of ${ISAS.join(', ')}, not ${JSON.stringify(isa)}`);
  const build = chooseBuild(options, isa);
  if (build === 'relaxed-simd' && !relaxedSimdSupported())
    throw argError("load: isa 'relaxed-simd': this WebAssembly engine does not run relaxed SIMD (try 'simd128')");
  // emscripten's getenv sees only its own environment (ENV): the choice is put there before
  // the library starts, which reads NNUE_ISA once; only 'scalar' differs from the build's own.
  const settings = { wasmBinary: await wasmBytes(`nnue-${build}.wasm`) };
  if (isa === 'scalar') settings.preRun = [() => { settings.ENV.NNUE_ISA = isa; }];
  const module = await BUILDS[build](settings);
  return new Nnue(module, build);
}

// Bytes as the library takes them: a Uint8Array (or a view of one) or an ArrayBuffer; anything
// else (a path string, a number, a plain array) is a TypeError, never silently 0 bytes.
function asBytes(what, data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const got = typeof data === 'string' ? 'a string (a path? read the file first: fs.readFile, fetch(...).arrayBuffer())'
    : data === null ? 'null' : Array.isArray(data) ? 'an Array' : typeof data;
  throw new TypeError(`${what}: expected the net's bytes (Uint8Array or ArrayBuffer), got ${got}`);
}

class Nnue {
  constructor(m, build) {
    this.m = m;
    this.build = build;   // "relaxed-simd", "simd128" or "scalar": which WebAssembly build runs
    const v = this.json(m._nw_version());
    this.version = v.version;
    this.isa = v.isa;     // the library's kernel set
    this.archs = v.archs; // built-in architecture names
    this.games = v.games;
  }

  json(ptr) {
    if (!ptr) throw this.error();
    return JSON.parse(this.m.UTF8ToString(ptr));
  }

  error() {
    return new NnueError(JSON.parse(this.m.UTF8ToString(this.m._nw_error())));
  }

  // Copies a string or bytes into the module's memory; returns [pointer, byte length].
  put(data) {
    if (data === undefined || data === null) return [0, 0];
    if (typeof data === 'string') {
      const n = this.m.lengthBytesUTF8(data);
      const p = this.m._nw_alloc(n + 1);
      this.m.stringToUTF8(data, p, n + 1);
      return [p, n];
    }
    const bytes = asBytes('nnue', data);
    const p = this.m._nw_alloc(bytes.length);
    if (!p) throw new NnueError({ message: `out of memory for ${bytes.length} bytes`, code: 9, line: 0, column: 0, offset: -1, file: '' });
    this.m.HEAPU8.set(bytes, p);
    return [p, bytes.length];
  }

  with(values, fn) {
    const held = values.map((v) => this.put(v));
    try {
      return fn(...held);
    } finally {
      for (const [p] of held) if (p) this.m._nw_free(p);
    }
  }

  // An architecture's description and hashes: { name } of a built-in one, or { yaml } text.
  archInfo({ name = '', yaml } = {}) {
    return this.with([name, yaml], ([n], [y, yl]) => this.json(this.m._nw_arch_info(n, y, yl)));
  }

  // Random weights for an architecture, as `nnue init --seed SEED` writes them: the net's bytes.
  randomNet({ name = '', yaml, seed = 1 } = {}) {
    // a JS number converts to C's 64-bit seed exactly only as a whole number 0..2^53 - 1
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
      throw argError(`seed: expected a whole number from 0 to 2^53 - 1, found ${typeof seed === 'number' ? seed
        : `${typeof seed} ${JSON.stringify(typeof seed === 'bigint' ? String(seed) : seed)}`}`);
    return this.with([name, yaml], ([n], [y, yl]) => {
      const sizePtr = this.m._nw_alloc(4);
      try {
        const p = this.m._nw_net_random(n, y, yl, seed, sizePtr);
        if (!p) throw this.error();
        const size = this.m.HEAPU32[sizePtr >> 2];
        const bytes = this.m.HEAPU8.slice(p, p + size);
        this.m._nw_free(p);
        return bytes;
      } finally {
        this.m._nw_free(sizePtr);
      }
    });
  }

  // Which architecture the bytes are, by the library's one chooser (the rules loadNet follows
  // without an architecture): { kind, chosen, named, candidates, error }.
  chooseArch(bytes, { name = 'net' } = {}) {
    const data = asBytes('chooseArch', bytes);
    return this.with([data, name], ([d, dl], [n]) => this.json(this.m._nw_net_choose(d, dl, n)));
  }

  // A net from its bytes (Uint8Array or ArrayBuffer; zstd-compressed nets too). The
  // architecture comes from the header, or options.arch (a built-in name), or options.yaml.
  async loadNet(bytes, { arch = '', yaml, name = 'net' } = {}) {
    const data = asBytes('loadNet', bytes);
    const sha256 = await sha256Hex(data);
    const net = this.with([data, name, arch, yaml], ([d, dl], [n], [a], [y, yl]) =>
      this.m._nw_net_load(d, dl, n, a, y, yl));
    if (!net) throw this.error();
    return new Net(this, net, sha256);
  }
}

class Net {
  constructor(lib, ptr, sha256) {
    this.lib = lib;
    this.ptr = ptr;
    this.sha256 = sha256;
    this.info = lib.with([sha256], ([s]) => lib.json(lib.m._nw_net_info(ptr, s)));
    this.info.sha256 = sha256;
  }

  // An incremental state on a position (FEN, SFEN or xiangqi FEN; "startpos" or nothing: the
  // game's start).
  state(position = '') {
    const lib = this.lib;
    this.live();
    if (position === null) position = '';
    text(position, 'position');
    const s = lib.with([position, this.sha256], ([p], [h]) => lib.m._nw_state_new(this.ptr, p, h));
    if (!s) throw lib.error();
    return new State(lib, s);
  }

  // One evaluation: { bucket, psqt, positional, total, scaled, cp, position, moves, ... }.
  evaluate(position = '') {
    const s = this.state(position);
    try {
      return s.evaluate();
    } finally {
      s.free();
    }
  }

  // Methods of a freed net throw instead of handing the library a null pointer.
  live() {
    if (!this.ptr) throw argError('this Net was freed (free()): load the net again');
  }

  free() {
    if (this.ptr) this.lib.m._nw_net_free(this.ptr);
    this.ptr = 0;
  }
}

class State {
  constructor(lib, ptr) {
    this.lib = lib;
    this.ptr = ptr;
  }

  // Plays a move in the game's protocol notation (UCI: e2e4, e7e8q; USI: 7g7f, P*5e).
  push(move) {
    const lib = this.lib;
    this.live();
    text(move, 'move');
    if (lib.with([move], ([m]) => lib.m._nw_state_push(this.ptr, m)) !== 0) throw lib.error();
    return this;
  }

  pop() {
    this.live();
    if (this.lib.m._nw_state_pop(this.ptr) !== 0) throw this.lib.error();
    return this;
  }

  evaluate() {
    this.live();
    return this.lib.json(this.lib.m._nw_state_eval(this.ptr));
  }

  // The total alone, without the position's details: the cheap call for timing and search.
  total() {
    this.live();
    return this.lib.m._nw_state_total(this.ptr);
  }

  live() {
    if (!this.ptr) throw argError('this State was freed (free()): make a new one with net.state()');
  }

  free() {
    if (this.ptr) this.lib.m._nw_state_free(this.ptr);
    this.ptr = 0;
  }
}
