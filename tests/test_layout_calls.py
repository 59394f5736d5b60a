#!/usr/bin/env python3
"""tests/test_layout_calls.py: tests/layout.py's call rule fails on a call back up the folder order.

A fixture tree in a temporary directory: core/eval/top.c (a high folder) and core/arch/low.c (a
low one), compiled by the build's C compiler into a fake build directory whose
compile_commands.json maps each object to its source, as meson's does. A call down (eval -> arch)
passes; the same tree with low.c calling up into eval fails, naming the caller's file, the
callee, its file and both folders; so does a call from base/ (the bottom floor) up into core/eval.
A C file directly in core/ is refused too (core/ holds only its rooms), so is a front end (tools/,
web/) including a header outside include/ and its own folder, and so are two files of one folder
that call each other (a call circle, which no folder order sees). CC: the compiler command
(tests/meson.build sets it)."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layout  # noqa: E402

TOP = 'int nnue_fixture_low(void);\nint nnue_fixture_top(void) { return nnue_fixture_low() + 1; }\n'
LOW_OK = 'int nnue_fixture_low(void) { return 1; }\n'
LOW_UP = 'int nnue_fixture_top(void);\nint nnue_fixture_low(void) { return nnue_fixture_top(); }\n'


def build_fixture(root, low_text, low='core/arch/low.c', sources=None):
    src, build = os.path.join(root, 'src'), os.path.join(root, 'src', 'build')
    sources = sources or {'core/eval/top.c': TOP, low: low_text}
    entries = []
    os.makedirs(os.path.join(build, 'libnnue.so.p'), exist_ok=True)
    cc = shlex.split(os.environ.get('CC', 'cc'))
    for rel, text in sources.items():
        os.makedirs(os.path.join(src, os.path.dirname(rel)), exist_ok=True)
        open(os.path.join(src, rel), 'w').write(text)
        out = 'libnnue.so.p/' + rel.replace('/', '_') + '.o'
        subprocess.run(cc + ['-c', '-o', os.path.join(build, out), os.path.join(src, rel)], check=True)
        entries.append({'directory': build, 'file': '../' + rel, 'output': out, 'command': ''})
    json.dump(entries, open(os.path.join(build, 'compile_commands.json'), 'w'))
    return src, build


def main():
    with tempfile.TemporaryDirectory() as root:
        problems = layout.call_problems(*build_fixture(os.path.join(root, 'down'), LOW_OK))
        assert problems == [], f'a call down the order was refused: {problems}'
        problems = layout.call_problems(*build_fixture(os.path.join(root, 'up'), LOW_UP))
    circles = [p for p in problems if p.startswith('call circle')]  # top.c calls low.c: a circle as well
    assert len(circles) == 1, f'expected the up call to close a call circle, found {problems}'
    problems = [p for p in problems if p not in circles]
    assert len(problems) == 1, f'expected one call back up, found {problems}'
    for word in ('core/arch/low.c', 'nnue_fixture_top', 'core/eval/top.c', '(core/arch)', '(core/eval)'):
        assert word in problems[0], f'{word!r} missing from: {problems[0]}'
    print('layout calls: a call down passes; a call up fails:', problems[0])
    with tempfile.TemporaryDirectory() as root:
        problems = layout.call_problems(*build_fixture(root, LOW_UP, 'base/low.c'))
    problems = [p for p in problems if not p.startswith('call circle')]
    assert len(problems) == 1 and '(base)' in problems[0] and '(core/eval)' in problems[0], \
        f'expected one call from base/ back up into core/eval, found {problems}'
    loose = layout.loose_core_files(['core/error.c', 'core/eval/state.c', 'base/error.c', 'simd/kernels.c'])
    assert len(loose) == 1 and loose[0].startswith('core/error.c:'), f'core/ loose files: {loose}'
    print('layout: a call from base/ up fails; a C file directly in core/ fails:', loose[0])
    # core/'s rooms count together: 20% + 15% is one room of 35%.
    rooms = layout.oversized_rooms({'core/eval/a.c': 200, 'core/net/b.c': 150, 'base/c.c': 250, 'games/d.c': 250,
                                    'io/e.c': 150})
    assert len(rooms) == 1 and rooms[0].startswith("core/: 350 of the library's 1000 lines (35%"), f'rooms: {rooms}'
    assert layout.oversized_rooms({'core/eval/a.c': 100, 'base/c.c': 100, 'games/d.c': 100, 'io/e.c': 100}) == []
    print('layout: a room above the share fails:', rooms[0])
    with tempfile.TemporaryDirectory() as root:
        for rel, text in {'include/nnue.h': '', 'core/net/net.h': '', 'tools/own.h': '',
                          'tools/ok.c': '#include "nnue.h"\n#include "tools/own.h"\n',
                          'tools/bad.c': '#include "core/net/net.h"\n',
                          'web/src/page.c': '#include "tools/own.h"\n'}.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            open(os.path.join(root, rel), 'w').write(text)
        files = ['include/nnue.h', 'core/net/net.h', 'tools/own.h', 'tools/ok.c', 'tools/bad.c', 'web/src/page.c']
        found = layout.front_end_includes(root, files, left=set())
        assert len(found) == 2 and found[0].startswith('tools/bad.c includes core/net/net.h') and \
            found[1].startswith('web/src/page.c includes tools/own.h'), f'front ends: {found}'
        stale = layout.front_end_includes(root, files, left={('tools/bad.c', 'core/net/net.h'),
                                                             ('tools/ok.c', 'base/error.h')})
        assert stale == found[1:] + ['tools/ok.c no longer includes base/error.h: remove it from '
                                     'FRONT_END_PRIVATE_LEFT'], f'front ends, with a list: {stale}'
    print('layout: a front end including a private header fails:', found[0])
    with tempfile.TemporaryDirectory() as root:
        problems = layout.call_problems(*build_fixture(root, None, sources={
            'io/one.c': 'int nnue_fixture_two(int);\nint nnue_fixture_one(int n) { return n ? nnue_fixture_two(n - 1) : 0; }\n',
            'io/two.c': 'int nnue_fixture_one(int);\nint nnue_fixture_two(int n) { return nnue_fixture_one(n); }\n'}))
    assert len(problems) == 1 and problems[0].startswith('call circle') and 'io/one.c uses nnue_fixture_two' in problems[0] \
        and 'io/two.c uses nnue_fixture_one' in problems[0], f'expected one call circle inside io/, found {problems}'
    print('layout: two files of one folder calling each other fail:', problems[0])
    return 0


if __name__ == '__main__':
    sys.exit(main())
