#!/usr/bin/env python3
"""tests/test_layout_isa.py: tests/layout.py's rule 10 fails on instruction-set code outside simd/.

A fixture tree in a temporary directory: simd/ may hold intrinsics and target attributes, and
base/targets.h defines NNUE_TARGET; each of the other files holds one kind of instruction-set
code outside simd/ (an intrinsics header, an intrinsic call and its vector type, a target
attribute, a macro standing for one and its use, NNUE_TARGET, a NEON and a WebAssembly
intrinsic), and one holds them only in a comment, which does not count. Each must be named by
file and line; with the files on the waiting list they pass, and a waiting-list entry that no
longer holds any such code fails."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layout  # noqa: E402

TREE = {
    'simd/kernels_avx2.c': '#include <immintrin.h>\n__attribute__((target("avx2"))) static __m256i f(__m256i a)\n'
                           '{ return _mm256_add_epi32(a, a); }\n',
    'base/targets.h': '#define NNUE_TARGET(list) __attribute__((target(list)))\n',
    'features/header.c': '#include <immintrin.h>\n',
    'features/call.c': 'int f(void)\n{\n    __m128i v = _mm_setzero_si128();\n    return 0;\n}\n',
    'core/eval/attr.c': 'static int __attribute__((target("popcnt"))) f(unsigned long x) { return x; }\n',
    'layers/macro.h': '#define FIXTURE_FMA __attribute__((target("fma")))\n',
    'layers/macro_use.c': '#include "layers/macro.h"\nFIXTURE_FMA static float g(float x) { return x; }\n',
    'games/target.c': '#include "base/targets.h"\nNNUE_TARGET("avx2") static int h(void) { return 1; }\n',
    'io/neon.c': 'int n(void) { return vgetq_lane_s32(vaddq_s32(a, b), 0); }\n',
    'io/wasm.c': 'int w(void) { return wasm_i32x4_extract_lane(x, 0); }\n',
    'core/eval/comment.c': '/* like _mm512_add_epi32 or __attribute__((target("avx2"))), #include <immintrin.h> */\n'
                           'int c(void) { return 0; }\n',
}
EXPECTED = {  # file -> line of its first finding
    'features/header.c': 1, 'features/call.c': 3, 'core/eval/attr.c': 1, 'layers/macro.h': 1,
    'layers/macro_use.c': 2, 'games/target.c': 2, 'io/neon.c': 1, 'io/wasm.c': 1,
}


def main():
    with tempfile.TemporaryDirectory() as root:
        for rel, text in TREE.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            open(os.path.join(root, rel), 'w').write(text)
        files = sorted(TREE)
        found = layout.isa_code_outside(root, files, left=set())
        named = {p.split(':')[0] for p in found}
        assert named == set(EXPECTED), f'files named: {sorted(named)}, expected {sorted(EXPECTED)}'
        for f, line in EXPECTED.items():
            assert any(p.startswith(f'{f}:{line}: ') and 'lives in simd/' in p for p in found), \
                f'{f}:{line} missing from {found}'
        assert any('_mm_setzero_si128' in p for p in found) and any('__m128i' in p for p in found), found
        assert any('FIXTURE_FMA' in p and 'a macro for one' in p for p in found), found
        print('layout isa: instruction-set code outside simd/ fails:', found[0])
        assert layout.isa_code_outside(root, files, left=set(EXPECTED)) == [], 'the waiting list did not pass them'
        stale = layout.isa_code_outside(root, files, left=set(EXPECTED) | {'core/eval/comment.c'})
        assert stale == ['core/eval/comment.c no longer holds instruction-set code: remove it from ISA_CODE_LEFT'], \
            f'a stale waiting-list entry: {stale}'
        print('layout isa: the waiting list passes its files and fails on an entry without such code')
    return 0


if __name__ == '__main__':
    sys.exit(main())
