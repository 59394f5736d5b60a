// Types of nnue.mjs, the JavaScript API of the nnue library compiled to WebAssembly.

/** An error of the library: its message, and where (a YAML line and column, a net's byte offset). */
export class NnueError extends Error {
  name: 'NnueError';
  /** The kind: "syntax error", "schema error", "format error", "illegal move", ... */
  status: string;
  /** The library's nnue_status number. */
  code: number;
  /** What the error is about (a file or net name), "" when nothing. */
  file: string;
  /** 1-based line and column in a text, 0 when the error is not about a text. */
  line: number;
  column: number;
  /** Byte offset in a net, -1 when the error is not about a net's bytes. */
  offset: number;
  /** The message without its location. */
  detail: string;
}

/** Whether this JavaScript engine validates WebAssembly SIMD128 code. */
export function simdSupported(): boolean;

/** Whether it validates relaxed SIMD (the dot product the relaxed-simd build uses). */
export function relaxedSimdSupported(): boolean;

export interface LoadOptions {
  /** false: the scalar build; default (or true): the best build the engine validates:
   * relaxed-simd, else simd128, else scalar. */
  simd?: boolean;
  /** 'simd128' or 'relaxed-simd' loads that build ('relaxed-simd' where the engine lacks it is an
   * NnueError); 'scalar' forces the portable kernels inside the chosen build, as NNUE_ISA does
   * natively (default: the best the build has; in node, NNUE_ISA from the environment).
   * Anything else is a TypeError. */
  isa?: 'scalar' | 'simd128' | 'relaxed-simd';
}

/** Loads the library (fetches its .wasm next to nnue.mjs; reads it from disk in node). */
export function load(options?: LoadOptions): Promise<Nnue>;

export interface ArchInfo {
  name: string;
  game: 'chess' | 'shogi' | 'xiangqi' | string;
  description: string;
  /** "0x" and 8 hex digits. */
  file_hash: string;
  ft_hash: string;
  network_hash: string;
  parameters: number;
  /** Bytes of a net file of this architecture (0: variable, LEB128-compressed nets). */
  file_size: number;
}

export interface NetInfo extends ArchInfo {
  /** The file's SHA-256 in hex ("" where Web Crypto is unavailable). */
  sha256: string;
  /** The load-time warning (worst-case overflow), or null. */
  warning: string | null;
  /** Whose centipawn conversion the `cp` values follow ("Stockfish 18", ...), or null: none checked. */
  centipawns: string | null;
}

export interface Evaluation {
  bucket: number;
  psqt: number;
  positional: number;
  /** The net's output, side to move's view. */
  total: number;
  scaled: number;
  /** Centipawns as the net's engine converts them, or null where no conversion was checked. */
  cp: number | null;
  /** The position's text (FEN, SFEN, xiangqi FEN). */
  position: string;
  game: string;
  /** The game's names of its two colours, the first mover's first: ["white", "black"],
   * ["black", "white"] (shogi), ["red", "black"] (xiangqi); side_to_move indexes them. */
  colours: [string, string];
  files: number;
  ranks: number;
  side_to_move: 0 | 1;
  in_check: 0 | 1;
  /** Moves pushed on the state since its root. */
  ply: number;
  /** Piece code per square (colour << 4 | type; 0 empty). Chess: a1 = 0, rank by rank; shogi:
   * file * 9 + rank (file 0 = file 1, rank 0 = rank a); xiangqi: rank * 9 + file. */
  squares: number[];
  /** Pieces in hand, [colour][type] (shogi). */
  hands: number[][];
  /** Letter of each piece type (type t: piece_names[t - 1]), as the first colour writes it. */
  piece_names: string[];
  /** Legal moves in the game's protocol notation (UCI / USI). */
  moves: string[];
  /** Per legal move: [from square (-1: a drop), to square, piece code after the move]. */
  move_squares: [number, number, number][];
}

export interface NetOptions {
  /** A built-in architecture name (Nnue.archs), for header-less nets or to choose. */
  arch?: string;
  /** An architecture as YAML text (docs/arch-yaml.md). */
  yaml?: string;
  /** The net's name in error messages. */
  name?: string;
}

export interface Nnue {
  /** "scalar", "simd128" or "relaxed-simd": which WebAssembly build runs. */
  readonly build: 'scalar' | 'simd128' | 'relaxed-simd';
  /** The library's version and kernel set. */
  readonly version: string;
  readonly isa: string;
  /** Built-in architecture names and known games. */
  readonly archs: string[];
  readonly games: string[];
  /** `nnue arch`: description and hashes of a built-in architecture or of YAML text. */
  archInfo(arch: { name?: string; yaml?: string }): ArchInfo;
  /** `nnue init --seed SEED`: a net of random weights for an architecture, as bytes. seed: a whole
   * number from 0 to 2^53 - 1 (else an NnueError). */
  randomNet(arch: { name?: string; yaml?: string; seed?: number }): Uint8Array;
  /** Which architecture the bytes are: the library's one chooser (docs/detection.md), the rules
   * loadNet follows without an architecture. chosen: the architecture's name, or null and error
   * (why, naming the file). */
  chooseArch(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: { name?: string }): ArchChoice;
  /** A net from its bytes (zstd-compressed too). */
  /** bytes: the file's contents (a path string or any other type is a TypeError; empty bytes
   * are an NnueError "empty (0 bytes), not a net"). */
  loadNet(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: NetOptions): Promise<Net>;
}

export interface ArchChoice {
  readonly kind: 'no_hash' | 'size_mismatch' | 'only' | 'known_net' | 'written_for' | 'default' | 'ambiguous' |
    'named_missing' | 'named_size' | 'self_describing' | 'raw';
  readonly chosen: string | null;
  readonly named: string;
  readonly candidates: { name: string; source: string; size_fits: boolean; expected_bytes: number }[];
  readonly error: string | null;
}

export interface Net {
  readonly info: NetInfo;
  readonly sha256: string;
  /** An incremental state at a position ("" or "startpos": the start). */
  state(position?: string): State;
  /** One evaluation (a full refresh). */
  evaluate(position?: string): Evaluation;
  /** Frees the net's memory (states of it must be freed first); its methods then throw NnueError. */
  free(): void;
}

export interface State {
  /** Plays a move in protocol notation (e2e4, e7e8q, 7g7f, P*5e, h2e2); throws NnueError when illegal. */
  push(move: string): State;
  /** Takes back the last move. */
  pop(): State;
  evaluate(): Evaluation;
  /** The total alone (side to move's view), without the details: cheap enough to time. */
  total(): number;
  /** Frees the state; its methods then throw NnueError (free() again is a no-op). */
  free(): void;
}
