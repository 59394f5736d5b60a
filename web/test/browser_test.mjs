// web/test/browser_test.mjs REPO TOOL NETS_DIR BUILD_NETS [SCREENSHOT.png]: the page of web/page in a
// real browser. Serves web/page, web/pkg and the nets from 127.0.0.1 (a server this script starts
// and stops), runs Debian's Chromium headless, drives it over its DevTools protocol (node's
// WebSocket: run with --experimental-websocket), opens the page with a net named in its address,
// waits until it has evaluated, and checks the total it shows against the native tool's on the
// same net and position. Cases: Stockfish 15.1's net after a move typed in the address; a
// built-in xiangqi architecture with random weights made in the page; Stockfish 19's 100 MB net.
// Prints "N passed, N failed, N skipped".
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

const [repo, tool, netsDir, buildNets, screenshot] = process.argv.slice(2);
if (!repo || !tool || !netsDir || !buildNets) {
  console.error('usage: browser_test.mjs REPO TOOL NETS_DIR BUILD_NETS [SCREENSHOT.png]');
  process.exit(2);
}
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!existsSync(browserPath)) {
  console.log(`SKIP: no browser at ${browserPath} (web/setup.sh installs Debian's chromium)`);
  console.log('0 passed, 0 failed, 1 skipped');
  process.exit(77);
}
let passed = 0, failed = 0, skipped = 0;
const ok = (w) => { passed++; console.log(`ok: ${w}`); };
const bad = (w) => { failed++; console.log(`FAIL: ${w}`); };
const skip = (w) => { skipped++; console.log(`SKIP: ${w}`); };

const work = mkdtempSync(join(tmpdir(), 'nnue-browser-'));
// The static server: /page/ and /pkg/ from web/, /nets/NAME from the two net folders and work/.
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json' };
function resolve(url) {
  const path = normalize(decodeURIComponent(new URL(url, 'http://x').pathname));
  const m = path.match(/^\/(page|pkg)\/(.+)$/);
  if (m) return join(repo, 'web', m[1], m[2]);
  const n = path.match(/^\/nets\/([\w.-]+)$/);
  if (n) return [join(buildNets, n[1]), join(netsDir, n[1]), join(work, n[1])].find((p) => existsSync(p));
  return null;
}
const server = createServer((req, res) => {
  const file = resolve(req.url);
  if (!file || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end('not found'); return; }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

// The browser, and its DevTools endpoint from its first lines on stderr.
const profile = mkdtempSync(join(tmpdir(), 'nnue-chromium-'));
const browser = spawn(browserPath, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--window-size=1280,1100', 'about:blank'],
{ stdio: ['ignore', 'ignore', 'pipe'] });
const wsUrl = await new Promise((resolveUrl, reject) => {
  let text = '';
  const timer = setTimeout(() => reject(new Error(`no DevTools endpoint from ${browserPath}: ${text}`)), 30000);
  browser.stderr.on('data', (d) => {
    text += d;
    const m = text.match(/DevTools listening on (ws:\/\/\S+)/);
    if (m) { clearTimeout(timer); resolveUrl(m[1]); }
  });
});
const port = new URL(wsUrl).port;
const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const page = targets.find((t) => t.type === 'page');
const ws = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((r, e) => { ws.onopen = r; ws.onerror = e; });
let nextId = 1;
const pending = new Map();
ws.onmessage = (m) => {
  const msg = JSON.parse(m.data);
  if (msg.id && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); }
};
const send = (method, params = {}) => new Promise((r) => {
  const id = nextId++;
  pending.set(id, r);
  ws.send(JSON.stringify({ id, method, params }));
});
const value = async (expression) => (await send('Runtime.evaluate', { expression, returnByValue: true })).result?.result?.value;

async function openAndWait(query, seconds) {
  await send('Page.navigate', { url: `${origin}/page/index.html?${query}` });
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if ((await value('document.body && document.body.dataset.done')) === 'yes') return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function nativeTotal(net, arch, fen) {
  const args = ['eval', '--quiet', '--net', net, '--fen', fen];
  if (arch) args.splice(4, 0, '--arch', arch);
  const out = execFileSync(tool, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().split('\n');
  return Number(out[1].split('\t')[4]);
}

async function check(name, query, want, seconds = 60) {
  if (!(await openAndWait(query, seconds))) {
    bad(`${name}: the page did not finish in ${seconds} s (error shown: ${await value("document.getElementById('error').textContent")})`);
    return;
  }
  const shown = Number(await value("document.getElementById('eval').dataset.total"));
  const error = await value("document.getElementById('error').textContent");
  const build = await value("document.getElementById('build').textContent");
  if (error || shown !== want) bad(`${name}: the page shows total ${shown}${error ? ` and the error '${error}'` : ''}, the native tool ${want}`);
  else ok(`${name}: the page (${build}) shows total ${shown}, as the native tool`);
}

try {
  const sf151 = join(buildNets, 'sf151.nnue');
  const afterE4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  if (existsSync(sf151))
    await check('Stockfish 15.1 net, e2e4 played in the page', 'net=/nets/sf151.nnue&moves=e2e4',
      nativeTotal(sf151, '', afterE4));
  else skip(`no ${sf151}`);
  // Random weights made in the page for a built-in architecture (xiangqi), against `nnue init`.
  const xq = join(work, 'pikafish-7.nnue');
  execFileSync(tool, ['init', '--seed', '7', 'pikafish', xq], { stdio: 'ignore' });
  await check('built-in pikafish with random weights (seed 7), h2e2', 'arch=pikafish&seed=7&moves=h2e2',
    nativeTotal(xq, 'pikafish', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'), 120);
  // Bad input: a file that is not a net. The page shows the library's error, then keeps working:
  // random weights for a built-in architecture, clicked in the same page, evaluate as natively.
  writeFileSync(join(work, 'not-a-net.bin'), 'this is not a net\n'.repeat(100));
  if (await openAndWait('net=/nets/not-a-net.bin', 60)) {
    const error = await value("document.getElementById('error').textContent");
    if (!/not-a-net.bin: .*(byte [0-9]+|header)/.test(error)) bad(`a file that is not a net: the page shows '${error}'`);
    else {
      await value("document.getElementById('arch').value = 'sfnnv1'; document.getElementById('seed').value = '4'; " +
        "document.getElementById('random').click(); 1");
      const until = Date.now() + 60000;
      while (Date.now() < until && (await value('document.body.dataset.net')) !== 'SFNNv1') await new Promise((r) => setTimeout(r, 200));
      const v1 = join(work, 'v1-4.nnue');
      execFileSync(tool, ['init', '--seed', '4', 'sfnnv1', v1], { stdio: 'ignore' });
      const want = nativeTotal(v1, '', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      const shown = Number(await value("document.getElementById('eval').dataset.total"));
      (shown === want ? ok : bad)(`a file that is not a net: the page showed the library's error, then random sfnnv1 weights clicked in the same page show ${shown} (native ${want})`);
    }
  } else bad('a file that is not a net: the page did not finish');
  const sf19 = join(netsDir, 'nn-1a298aa575a0.nnue');
  if (existsSync(sf19))
    await check("Stockfish 19's 100 MB net", 'net=/nets/nn-1a298aa575a0.nnue',
      nativeTotal(sf19, '', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), 180);
  else skip(`no ${sf19} (scripts/fetch_nets.py)`);
  if (screenshot) {
    await openAndWait('net=/nets/sf151.nnue&moves=e2e4,c7c5,g1f3', 60);
    const shot = await send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(screenshot, Buffer.from(shot.result.data, 'base64'));
    console.log(`screenshot: ${screenshot}`);
  }
} finally {
  ws.close();
  browser.kill();
  server.close();
  rmSync(work, { recursive: true, force: true });
  setTimeout(() => rmSync(profile, { recursive: true, force: true }), 500);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
setTimeout(() => process.exit(failed ? 1 : 0), 600);
