#!/bin/sh
# tests/install/test_install.sh SRC BUILD CC LIBDIR: what README "Installing" tells a new user
# works as written. The build is installed to a staging directory; the staged tool writes a
# net (nnue init) and evaluates a position; examples/embed_chess.c is compiled with the
# pkg-config line of docs/engines.md (prefix moved to the stage) and run twice, found by
# LD_LIBRARY_PATH and by an rpath; both must print the tool's own total. Also: the LICENSE
# file says what meson.build's license says (MIT).
set -eu
src=$1 build=$2 cc=$3 libdir=$4
stage=$(mktemp -d "$build/install-test.XXXXXX")
trap 'rm -rf "$stage"' EXIT
fail() { echo "test_install: $*" >&2; exit 1; }

head -n 1 "$src/LICENSE" | grep -qx 'MIT License' || fail "LICENSE is not the MIT license"
grep -q 'Copyright (c) .* the nnue developers' "$src/LICENSE" || fail "LICENSE lacks the copyright line"
grep -q "license: 'MIT'" "$src/meson.build" || fail "meson.build's license is not MIT"

meson install -C "$build" --destdir "$stage" --no-rebuild --quiet >/dev/null
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
  'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root=$stage$prefix
lib=$root/$libdir
[ -f "$lib/libnnue.so" ] && [ -f "$lib/libnnue.a" ] && [ -f "$lib/pkgconfig/nnue.pc" ] ||
  fail "no libnnue.so, libnnue.a and pkgconfig/nnue.pc in $lib (the libdir README names)"

fen='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10'
"$root/bin/nnue" init --seed 7 "$src/archs/sfnnv1.yaml" "$stage/net.nnue" >/dev/null
total=$(cd / && "$root/bin/nnue" eval --net "$stage/net.nnue" --fen "$fen" | awk -F '\t' 'NR == 2 { print $5 }')
[ -n "$total" ] || fail "the staged tool printed no total"

export PKG_CONFIG_PATH="$lib/pkgconfig"
flags=$(pkg-config --define-variable=prefix="$root" --cflags --libs nnue)
"$cc" -O2 -o "$stage/embed" "$src/examples/embed_chess.c" $flags
got=$(LD_LIBRARY_PATH="$lib" "$stage/embed" "$src/archs/sfnnv1.yaml" "$stage/net.nnue" "$fen" | sed -n 's/^root: total \(-*[0-9]*\) .*/\1/p')
[ "$got" = "$total" ] || fail "embed_chess (LD_LIBRARY_PATH) printed total '$got', the tool $total"
"$cc" -O2 -o "$stage/embed-rpath" "$src/examples/embed_chess.c" $flags -Wl,-rpath,"$lib"
got=$(env -u LD_LIBRARY_PATH "$stage/embed-rpath" "$src/archs/sfnnv1.yaml" "$stage/net.nnue" "$fen" | sed -n 's/^root: total \(-*[0-9]*\) .*/\1/p')
[ "$got" = "$total" ] || fail "embed_chess (rpath) printed total '$got', the tool $total"
# README's static link line as written (issue 39: it lacked -lzstd), on embed_chess.c.
line=$(python3 -c '
import re, sys
text = " ".join(open(sys.argv[1]).read().split())
m = re.search(r"To link the static library instead[^`]*`([^`]*)`", text)
print(m.group(1) if m else "")' "$src/README.md")
case $line in *"libnnue.a"*) ;; *) fail "README has no static link line (To link the static library instead: \`cc ...\`)";; esac
line=$(printf '%s' "$line" | sed -e "s|^cc |\"\$cc\" |" -e "s|my_engine\.c|\"\$src/examples/embed_chess.c\"|" \
  -e "s|-o my_engine|-o \"\$stage/embed-static\"|" -e "s|pkg-config |pkg-config --define-variable=prefix=\"\$root\" |g")
eval "$line" 2>"$stage/static.log" || { cat "$stage/static.log" >&2; fail "README's static link line failed: $line"; }
got=$(env -u LD_LIBRARY_PATH "$stage/embed-static" "$src/archs/sfnnv1.yaml" "$stage/net.nnue" "$fen" | sed -n 's/^root: total \(-*[0-9]*\) .*/\1/p')
[ "$got" = "$total" ] || fail "embed_chess (static, README's line) printed total '$got', the tool $total"
echo "test_install: staged in $libdir, compiled with pkg-config, total $total from the tool, both links and the static one"
