// web/page/app.mjs: the static page of web/page/index.html on the JavaScript API
// (web/pkg/nnue.mjs): load a net (file, drop, or a built-in architecture with random weights),
// show its info, set a position, draw it, play moves (click or type) and show the evaluation with
// the time it took. Nothing is fetched beyond the page's own files.
import { load } from '../pkg/nnue.mjs';

const $ = (id) => document.getElementById(id);
// selected: the square whose piece was clicked, null when none (a drop's from-square is -1 in
// move_squares, so -1 cannot also mean "nothing selected").
let nnue = null, net = null, state = null, selected = null, current = null, played = [];

// Side names as the game names its colours (white / black, black / white in shogi, red / black),
// the first mover first: the position's side_to_move indexes them.
const sides = (e) => e.colours || ['first', 'second'];

// The library's message names its status already ("illegal move 'e2e5' ..."): the status is
// added only when the message does not start with it.
function showError(e) {
  let text = '';
  if (e && e.name === 'NnueError') text = e.message.startsWith(e.status) ? e.message : `${e.status}: ${e.message}`;
  else if (e) text = String(e);
  $('error').textContent = text;
}

function row(table, key, value) {
  const tr = table.insertRow();
  tr.insertCell().textContent = key;
  tr.insertCell().textContent = value;
}

// Board layout by shape: which square index sits at display row y, column x.
function squareAt(files, ranks, x, y) {
  if (files === 9 && ranks === 9) return (8 - x) * 9 + y;     // shogi: file 9 on the left, rank a on top
  return (ranks - 1 - y) * files + x;                         // chess, xiangqi: rank 0 at the bottom
}

function pieceText(e, code) {
  const type = code & 15, colour = code >> 4;
  const name = e.piece_names[type - 1] || '?';
  return colour ? name.toLowerCase() : name.toUpperCase();
}

function drawHands(e) {
  const hands = e.hands.map((h) => h.map((n, t) => (n && t ? `${e.piece_names[t - 1]}${n > 1 ? n : ''}` : ''))
    .filter(Boolean).join(' '));
  const any = hands[0] || hands[1];
  const [first, second] = sides(e);
  $('hand-bottom').textContent = any ? `hand (${first}): ${hands[0] || '-'}` : '';
  $('hand-top').textContent = any ? `hand (${second}): ${hands[1] || '-'}` : '';
}

function draw(e) {
  const board = $('board');
  board.innerHTML = '';
  board.style.gridTemplateColumns = `repeat(${e.files}, var(--sq))`;
  const targets = new Set(selected === null ? [] : e.move_squares.filter((m) => m[0] === selected).map((m) => m[1]));
  for (let y = 0; y < e.ranks; y++)
    for (let x = 0; x < e.files; x++) {
      const sq = squareAt(e.files, e.ranks, x, y), code = e.squares[sq];
      const div = document.createElement('div');
      div.className = `sq ${e.files === 8 ? ((x + y) % 2 ? 'dark' : 'light') : 'plain'}`;
      if (code) { div.textContent = pieceText(e, code); div.classList.add(`c${code >> 4}`); }
      if (sq === selected) div.classList.add('sel');
      if (targets.has(sq)) div.classList.add('target');
      div.dataset.square = sq;
      div.addEventListener('click', () => clickSquare(sq));
      board.appendChild(div);
    }
  drawHands(e);
}

// Mean time of fn in microseconds, repeated until 20 ms have passed (the browser's clock steps
// by 5 to 100 us: one call would read 0 or one step), after one untimed call (compilation tiers).
function timeIt(fn) {
  fn();
  let runs = 0;
  const t0 = performance.now();
  let t = t0;
  do { fn(); runs++; t = performance.now(); } while (t - t0 < 20);
  return { us: ((t - t0) * 1000) / runs, runs };
}

function evaluate() {
  state.total();                       // the first evaluation: brings the accumulators up to date
  const e = state.evaluate();
  // The update: the last move pushed again and evaluated (or, at the root, a fresh state: a
  // refresh from the board); then the network alone on accumulators already up to date.
  const last = played[played.length - 1];
  const update = last !== undefined
    ? timeIt(() => { state.pop(); state.push(last); state.total(); })
    : timeIt(() => { const s = net.state(e.position); s.total(); s.free(); });
  const again = timeIt(() => state.total());
  current = e;
  const table = $('eval').tBodies[0];
  table.innerHTML = '';
  row(table, 'side to move', sides(e)[e.side_to_move]);
  row(table, 'bucket', e.bucket);
  row(table, 'psqt', e.psqt);
  row(table, 'positional', e.positional);
  row(table, 'total', e.total);
  row(table, 'scaled', e.scaled);
  row(table, 'centipawns', e.cp === null ? '- (no checked conversion for this net)' : e.cp);
  row(table, 'time', `${update.us.toFixed(1)} µs ${last !== undefined ? `(${last} pushed and evaluated` : '(a fresh state: refresh and evaluation'}, mean of ${update.runs}), ${again.us.toFixed(2)} µs (the network alone, mean of ${again.runs})`);
  row(table, 'position', e.position);
  row(table, 'legal moves', e.moves.length);
  $('eval').dataset.total = e.total;
  draw(e);
}

function setPosition() {
  if (!net) return;
  showError(null);
  try {
    const s = net.state($('position').value.trim());
    if (state) state.free();
    state = s;
    played = [];
    selected = null;
    evaluate();
  } catch (e) { showError(e); }
}

function play(move) {
  showError(null);
  try {
    state.push(move);
    played.push(move);
    selected = null;
    $('choices').innerHTML = '';
    evaluate();
  } catch (e) { showError(e); }
}

function clickSquare(sq) {
  if (!current) return;
  const moves = current.move_squares.map((m, i) => ({ m, text: current.moves[i] }));
  if (selected !== null) {
    const hits = moves.filter(({ m }) => m[0] === selected && m[1] === sq);
    if (hits.length === 1) return play(hits[0].text);
    if (hits.length > 1) { // promotions: let the user pick
      const box = $('choices');
      box.innerHTML = 'choose: ';
      for (const h of hits) {
        const b = document.createElement('button');
        b.textContent = h.text;
        b.onclick = () => play(h.text);
        box.appendChild(b);
      }
      return;
    }
  }
  selected = sq !== selected && moves.some(({ m }) => m[0] === sq) ? sq : null;
  draw(current);
}

async function readWithProgress(file) {
  const bar = $('progress');
  bar.hidden = false;
  bar.max = file.size || 1;
  bar.value = 0;
  const reader = file.stream().getReader(), parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
    bar.value = got;
    $('load-status').textContent = `reading ${file.name}: ${(got / 1e6).toFixed(1)} of ${(file.size / 1e6).toFixed(1)} MB`;
  }
  const bytes = new Uint8Array(got);
  let at = 0;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  return bytes;
}

function showInfo(info) {
  const dl = $('info');
  dl.innerHTML = '';
  for (const [k, v] of [['name', info.name], ['game', info.game], ['description', info.description],
    ['file hash', info.file_hash], ['ft hash', info.ft_hash], ['network hash', info.network_hash],
    ['parameters', info.parameters], ['sha256', info.sha256], ['centipawns', info.centipawns || '-'],
    ['warning', info.warning || '-']]) {
    const dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = k;
    dd.textContent = v;
    dl.append(dt, dd);
  }
}

async function useNet(bytes, label, arch) {
  showError(null);
  $('load-status').textContent = `loading ${label} (${(bytes.length / 1e6).toFixed(1)} MB) into the library…`;
  await new Promise((r) => setTimeout(r, 0)); // let the page paint the status first
  try {
    const t0 = performance.now();
    const fresh = await nnue.loadNet(bytes, { name: label, arch });
    if (state) { state.free(); state = null; }
    if (net) net.free();
    net = fresh;
    showInfo(net.info);
    $('load-status').textContent = `${label}: loaded in ${((performance.now() - t0) / 1000).toFixed(2)} s`;
    $('progress').hidden = true;
    document.body.dataset.net = net.info.name;
    setPosition();
  } catch (e) {
    $('load-status').textContent = `${label}: not loaded`;
    $('progress').hidden = true;
    showError(e);
  }
}

async function main() {
  nnue = await load();
  $('build').textContent = `nnue ${nnue.version} · ${nnue.build} build · kernels ${nnue.isa}`;
  for (const name of nnue.archs) {
    $('arch').add(new Option(name, name));
    $('net-arch').add(new Option(name, name));
  }
  $('file').addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    if (f) await useNet(await readWithProgress(f), f.name, $('net-arch').value);
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const f = ev.dataTransfer.files[0];
    if (f) await useNet(await readWithProgress(f), f.name, $('net-arch').value);
  });
  $('random').addEventListener('click', async () => {
    try {
      const arch = $('arch').value, seed = Number($('seed').value) || 0;
      const bytes = nnue.randomNet({ name: arch, seed });
      await useNet(bytes, `${arch} (random, seed ${seed})`, arch);
    } catch (e) { showError(e); }
  });
  $('set').addEventListener('click', setPosition);
  $('position').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') setPosition(); });
  $('play').addEventListener('click', () => state && play($('move').value.trim()));
  $('move').addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && state) play($('move').value.trim()); });
  $('undo').addEventListener('click', () => {
    if (!state) return;
    try { state.pop(); played.pop(); selected = null; evaluate(); } catch (e) { showError(e); }
  });
  document.body.dataset.ready = 'yes';
  await fromAddress();
}

// The page's address can say what to show (links, and the browser test): ?net=URL (a net file
// served beside the page) or ?arch=NAME&seed=N (random weights), &position=TEXT, &moves=M1,M2.
async function fromAddress() {
  const q = new URLSearchParams(location.search);
  if (q.get('position')) $('position').value = q.get('position');
  if (q.get('net')) {
    const response = await fetch(q.get('net'));
    if (!response.ok) return showError(`${q.get('net')}: ${response.status}`);
    await useNet(new Uint8Array(await response.arrayBuffer()), q.get('net'), q.get('arch') || '');
  } else if (q.get('arch')) {
    $('arch').value = q.get('arch');
    $('seed').value = q.get('seed') || '1';
    $('random').click();
    await new Promise((r) => setTimeout(r, 0));
    while (!net && !$('error').textContent) await new Promise((r) => setTimeout(r, 10));
  }
  for (const m of (q.get('moves') || '').split(',').filter(Boolean)) if (state) play(m);
  document.body.dataset.done = 'yes';
}

main().catch((e) => { showError(e); $('build').textContent = 'the library did not load'; });
