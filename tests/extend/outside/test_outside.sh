#!/bin/sh
# tests/extend/outside/test_outside.sh SRC BUILD CC LIBDIR: an extension built outside the tree
# (toy_extension.c: a feature set and a layer type) against the installed library, as
# docs/extending.md tells a user: headers and flags from pkg-config, a shared object that the
# tool and the engines load (--extension, NNUE_EXTENSIONS, the engine's Extension option).
# toy.yaml names its pieces; builtin.yaml is the same net from built-in ones, so on one net file
# (written by `nnue init` for toy.yaml) every toy total must be minus the built-in total.
set -eu
src=$1 build=$2 cc=$3 libdir=$4
stage=$(mktemp -d "$build/outside-test.XXXXXX")
trap 'rm -rf "$stage"' EXIT
fail() { echo "test_outside: $*" >&2; exit 1; }
here=$src/tests/extend/outside

meson install -C "$build" --destdir "$stage" --no-rebuild --quiet >/dev/null
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
  'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root=$stage$prefix
lib=$root/$libdir
nnue=$root/bin/nnue
export PKG_CONFIG_PATH="$lib/pkgconfig"
flags=$(pkg-config --define-variable=prefix="$root" --cflags --libs nnue)
"$cc" -shared -fPIC -O2 -Wall -Wextra -Werror -o "$stage/toy.so" "$here/toy_extension.c" $flags -Wl,-rpath,"$lib" ||
  fail "the extension did not compile against the installed headers"

# Unknown without the extension, known with it (before or after the command name).
if "$nnue" arch "$here/toy.yaml" >/dev/null 2>"$stage/err"; then fail "toy.yaml loaded without the extension"; fi
grep -q "found 'Toy768'" "$stage/err" || fail "without the extension: $(cat "$stage/err")"
desc=$("$nnue" --extension "$stage/toy.so" arch "$here/toy.yaml" | awk '$1 == "description" { print $2 }')
[ "$desc" = "Features=Toy768[768->32x2],Network=toy_affine[1<-64](InputSlice[64(0:64)])" ] ||
  fail "nnue arch --extension: description '$desc'"
"$nnue" arch --extension "$stage/toy.so" "$here/toy.yaml" >/dev/null || fail "--extension after the command"

# Random weights for the custom architecture, then evaluation through both architectures.
"$nnue" init --extension "$stage/toy.so" --seed 11 "$here/toy.yaml" "$stage/toy.bin" >/dev/null ||
  fail "nnue init with the extension"
size=$(wc -c <"$stage/toy.bin")
[ "$size" -eq 49284 ] || fail "nnue init wrote $size bytes, the architecture says 49284"
positions=$stage/positions.fen
cat >"$positions" <<'FENS'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1
rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8
FENS
NNUE_EXTENSIONS="$stage/toy.so" "$nnue" eval --quiet --net "$stage/toy.bin" --arch "$here/toy.yaml" \
  --file "$positions" 2>/dev/null | awk -F '\t' 'NR > 1 { print $5 }' >"$stage/toy.tsv"
"$nnue" eval --quiet --net "$stage/toy.bin" --arch "$here/builtin.yaml" --file "$positions" 2>/dev/null |
  awk -F '\t' 'NR > 1 { print -$5 }' >"$stage/builtin.tsv"
[ "$(wc -l <"$stage/toy.tsv")" -eq 5 ] || fail "NNUE_EXTENSIONS eval printed $(wc -l <"$stage/toy.tsv") totals, expected 5"
cmp -s "$stage/toy.tsv" "$stage/builtin.tsv" ||
  fail "toy totals $(tr '\n' ' ' <"$stage/toy.tsv") are not minus the built-in ones $(tr '\n' ' ' <"$stage/builtin.tsv")"
grep -qv '^0$' "$stage/toy.tsv" || fail "every total is 0: the comparison shows nothing"

# The engine: Extension option, a position with moves (incremental updates), eval and a search.
fen=$(sed -n 2p "$positions")
out=$(printf 'uci\nsetoption name Extension value %s\nsetoption name EvalFile value %s\nsetoption name EvalArch value %s\nisready\nposition fen %s moves e1g1 a6e2\neval\ngo depth 3\nisready\nquit\n' \
  "$stage/toy.so" "$stage/toy.bin" "$here/toy.yaml" "$fen" | "$root/bin/nnue-uci")
echo "$out" | grep -q '^option name Extension type string' || fail "nnue-uci offers no Extension option"
echo "$out" | grep -q '^bestmove ' || fail "nnue-uci gave no bestmove with the extension's net: $out"
got=$(echo "$out" | sed -n 's/^info string eval .* total \(-*[0-9]*\)$/\1/p')
want=$(printf 'uci\nsetoption name EvalFile value %s\nsetoption name EvalArch value %s\nposition fen %s moves e1g1 a6e2\neval\nquit\n' \
  "$stage/toy.bin" "$here/builtin.yaml" "$fen" | "$root/bin/nnue-uci" | sed -n 's/^info string eval .* total \(-*[0-9]*\)$/\1/p')
[ -n "$got" ] && [ -n "$want" ] && [ "$got" -eq "$((-want))" ] ||
  fail "nnue-uci eval after two moves: total '$got' with the extension, '$want' with built-in pieces (expected minus)"

# Bad input: a file that is not there, a shared object that is not an extension.
if NNUE_EXTENSIONS="$stage/none.so" "$nnue" arch "$here/builtin.yaml" >/dev/null 2>"$stage/err"; then
  fail "a missing extension was accepted"; fi
grep -q "none.so: cannot load the extension" "$stage/err" || fail "missing extension: $(cat "$stage/err")"
if "$nnue" arch --extension "$lib/libnnue.so" "$here/builtin.yaml" >/dev/null 2>"$stage/err"; then
  fail "libnnue.so was accepted as an extension"; fi
grep -q "not an nnue extension: it defines no function 'nnue_extension_init'" "$stage/err" ||
  fail "not an extension: $(cat "$stage/err")"
echo "test_outside: toy extension built with pkg-config; arch, init, eval (5 positions, totals negated) and nnue-uci ($got) agree"
