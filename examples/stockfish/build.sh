#!/usr/bin/env bash
# examples/stockfish/build.sh: Stockfish 15.1 or 19 with its evaluation from libnnue
# (docs/engines.md).
#
# Unpacks Stockfish's source as released (GPL-3: it stays out of this repository) into a build
# folder, applies sf15.1-libnnue.patch or sf19-libnnue.patch (ours) and builds it with
# Stockfish's own Makefile against the library, found through `pkg-config nnue` in a staged
# install of a meson build (`meson install --destdir`, the engine linked to it with an rpath).
# With --plain, the same source unpatched too, with the same compiler and flags (for bench node
# counts and speed).
#
#   bash examples/stockfish/build.sh [--version 15.1|19] [--build DIR] [--src TARBALL] [--net FILE]
#                                    [--out DIR] [--arch ARCH] [--comp gcc|clang]
#                                    [--sanitize thread] [--plain]
#
#   --version 15.1 (default): Stockfish 15.1, stockfish-15.1-src.tar.xz, its net embedded;
#             19: Stockfish 19's code (master 762dd1da, stockfish-19-762dd1da-src.tar.xz), built
#             with -DNNUE_EMBEDDING_OFF: its net nn-1a298aa575a0.nnue is loaded at run time
#             (`setoption name EvalFile value PATH`), so --net does not apply
#   --build   the library's meson build folder, built already (default: build)
#   --src     the version's tarball (default: $NNUE_SHARED_DIR/engines-src, else ../shared)
#   --net     15.1: nn-ad9b42354671.nnue, embedded in the binary as Stockfish's Makefile does
#             (default: BUILD/nets/sf151.nnue, exported from Debian's stockfish by
#             tools/starter_data.sh)
#   --out     where the engines go (default: BUILD/stockfish): OUT/sfV-libnnue/src/stockfish,
#             OUT/sfV/src/stockfish (--plain), V the version; OUT/stage holds the staged library
#   --arch    Stockfish's ARCH (default: the best of x86-64-vnni512, x86-64-avx2,
#             x86-64-sse41-popcnt, x86-64, armv8 this machine runs)
#   --comp    Stockfish's COMP (default gcc)
#   --sanitize thread: for a library built with -Db_sanitize=thread (use --comp clang): the
#             engine links ThreadSanitizer's runtime, so every access of the library's is
#             checked, while Stockfish's own code is left uninstrumented (its lock-free hash
#             table races by design, and instrumenting all of it runs the search ~50x slower)
#
# An engine folder is reused when the tarball, patch, net and options are the ones it was built
# from (OUT/*/.built says which); the staged library is installed afresh every time.
# Prints the path of each engine built or reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=build src='' net='' out='' arch='' comp=gcc sanitize='' plain=0 version=15.1
while [ $# -gt 0 ]; do
  case $1 in
    --version) version=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --net) net=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --comp) comp=$2; shift 2 ;;
    --sanitize) sanitize=$2; shift 2 ;;
    --plain) plain=1; shift ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed -e '/^set /d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
fail() { echo "build.sh: $*" >&2; exit 1; }
build=$(cd "$build" 2>/dev/null && pwd) || fail "no meson build folder $build (meson setup build && ninja -C build)"
[ -f "$build/meson-info/meson-info.json" ] || fail "$build is not a meson build folder"
shared=${NNUE_SHARED_DIR:-$root/../shared}
case $version in
  15.1) tarball=stockfish-15.1-src.tar.xz ;;
  19) tarball=stockfish-19-762dd1da-src.tar.xz
      [ -z "$net" ] || fail "--net: Stockfish 19 is built without a net (setoption name EvalFile)" ;;
  *) fail "--version takes 15.1 or 19" ;;
esac
src=${src:-$shared/engines-src/$tarball}
[ -f "$src" ] || fail "no Stockfish $version source: $src (give --src $tarball)"
if [ "$version" = 15.1 ]; then
  net=${net:-$build/nets/sf151.nnue}
  if [ ! -f "$net" ]; then
    [ "$net" = "$build/nets/sf151.nnue" ] || fail "no net $net"
    bash "$root/tools/starter_data.sh" "$build" >&2 || fail "no net $net, and Debian's stockfish did not export it"
  fi
fi
out=${out:-$build/stockfish}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ -z "$arch" ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
  has() { case " $flags " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
  case $(uname -m) in
    x86_64)
      if { has avx512vnni || has avx512_vnni; } && has avx512bw && has avx512dq && has avx512vl; then arch=x86-64-vnni512
      elif has avx2 && has bmi2; then arch=x86-64-avx2
      elif has sse4_1 && has popcnt; then arch=x86-64-sse41-popcnt
      else arch=x86-64; fi ;;
    aarch64) arch=armv8 ;;
    *) fail "no default Stockfish ARCH for $(uname -m): give --arch" ;;
  esac
fi
makeargs=(ARCH="$arch" COMP="$comp")
[ "$version" = 15.1 ] || makeargs+=(EXTRACXXFLAGS=-DNNUE_EMBEDDING_OFF)
case $sanitize in
  '') ;;
  thread) ;;
  *) fail "--sanitize takes thread" ;;
esac

# The library, staged as `meson install` would put it; pkg-config reads it through the sysroot.
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
  'import json,sys; o={x["name"]: x["value"] for x in json.load(sys.stdin)}; print(o["prefix"], o["libdir"])')
libdir=${prefix#* } prefix=${prefix%% *}
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
rm -rf "$out/stage"
meson install -C "$build" --destdir "$out/stage" --no-rebuild --quiet >/dev/null ||
  fail "meson install -C $build failed (build it first: ninja -C $build)"
export PKG_CONFIG_PATH="$out/stage$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$out/stage"
pkg-config --exists nnue || fail "pkg-config finds no nnue in $PKG_CONFIG_PATH"

# One engine: unpack, patch (or not), put the net where the Makefile looks, make.
engine() {
  local dir=$1 patch=$2 ldflags=$3
  local stamp
  stamp="$(sha256sum "$src" ${net:+"$net"} ${patch:+"$patch"} | cut -d' ' -f1 | sha256sum | cut -c1-16) ${makeargs[*]}${sanitize:+ runtime=$sanitize}"
  if [ -x "$dir/src/stockfish" ] && [ "$(cat "$dir/.built" 2>/dev/null)" = "$stamp" ]; then
    echo "$dir/src/stockfish"; return
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xJf "$src" -C "$dir" --strip-components=1
  [ -f "$dir/src/Makefile" ] || fail "$src is not Stockfish's source tree (no src/Makefile)"
  if [ -n "$patch" ]; then
    patch -s -p1 -d "$dir" < "$patch" || fail "$patch does not apply to $src"
  fi
  [ -z "$net" ] || cp "$net" "$dir/src/nn-ad9b42354671.nnue"
  make -C "$dir/src" -j2 build "${makeargs[@]}" EXTRALDFLAGS="$ldflags" > "$dir/make.log" 2>&1 ||
    { tail -n 30 "$dir/make.log" >&2; fail "make failed in $dir/src (whole log: $dir/make.log)"; }
  if [ -n "$patch" ] && grep 'warning:' "$dir/make.log" >&2; then fail "the patched build warns ($dir/make.log)"; fi
  echo "$stamp" > "$dir/.built"
  echo "$dir/src/stockfish"
}

tsan=${sanitize:+-fsanitize=$sanitize}
engine "$out/sf$version-libnnue" "$here/sf$version-libnnue.patch" "-Wl,-rpath,$out/stage$libdir $tsan"
[ "$plain" = 0 ] || engine "$out/sf$version" "" "$tsan"
