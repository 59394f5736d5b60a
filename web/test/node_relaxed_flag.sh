# web/test/node_relaxed_flag.sh, sourced: node_relaxed_flag NODE prints the flag NODE needs to run
# relaxed SIMD, or nothing. Node 20 (Debian's) runs it behind --experimental-wasm-relaxed-simd;
# node 22 and later run it without and refuse that flag, so the flag is given only where accepted.
node_relaxed_flag() {
  if "$1" --experimental-wasm-relaxed-simd -e 0 2>/dev/null; then echo --experimental-wasm-relaxed-simd; fi
}
