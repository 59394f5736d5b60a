// web/src/cli_pre.js: --pre-js of the tool for node (web/build.sh, build-wasm/nnue-cli-*.js).
// The wasm bytes are read from beside the script: emscripten 3.1.6's loader would otherwise try
// node's own fetch on a file path, fail, and print its whole minified source. And the NNUE_*
// and OMP_* variables of node's environment reach the library (emscripten's getenv sees only
// its own ENV), so NNUE_ISA=scalar works as it does natively.
Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
Module['preRun'] = [function () {
  for (var key in process.env)
    if (key.indexOf('NNUE_') === 0 || key.indexOf('OMP_') === 0) ENV[key] = process.env[key];
}];
