#!/usr/bin/env python3
"""tests/layout.py SRC [BUILD]: the code layout rules of the project (docs/development.md: Layout).

1. No include circles: a file's concept is its path without .c/.h (core/eval/state.c and
   core/eval/state.h are one node); an edge A -> B is a quoted #include of B's header in any file
   of A. A cycle means a lower piece reaches back up (the circles once between core/forward.c and
   core/simd/forward_fast.c, or core/state and core/refresh_cache, before core/ had folders).
2. No C file past 600 lines (one concept per file).
3. A layer type lives in layers/ alone: no string literal equal to a layer type's name
   (the `.name = "..."` of layers/*.c) in a C file outside layers/, tests/ and fuzz/
   (code that switches on a type's name instead of asking the type). The FT activation names
   of load/arch_ft.c are another vocabulary that shares one word ("pairwise").
4. A game is data (docs/extending.md): no game name ("chess", "shogi": the names the built-in
   descriptors games/*/game.c declare) as a string literal in C code outside games/, where
   it could only be compared with a name. Comments are not code; tests/ (which name the
   games they test), examples/ and fuzz/ (programs written for one game) are out of scope;
   a feature set's own `.game = "NAME"` in features/ (the game it reads, data) is allowed.
5. Folders depend one way (docs/development.md: Layout): the same includes seen between
   folders, a node per folder (core/arch, load, core/net, core/eval, layers, then each
   top-level folder whole: features, games, simd, base, training, tools, tests, examples, fuzz,
   include). Any cycle between folders fails, naming the files that make each of its edges. The
   library's rooms also have a fixed order (FOLDER_ORDER, top first): a folder may include only
   from folders listed after it, so an arrow back up fails even before it closes a cycle. core/
   holds only its rooms: a C file directly in core/ fails (the small files everything shares
   live in base/, at the bottom of the order; the kernels in simd/, just above it).
6. Calls follow the same order (with BUILD, the meson build directory): a global symbol defined
   by a library source in one folder and used (called, or a table read) by a library source in a
   folder listed after it in FOLDER_ORDER (a lower folder reaching up) fails, naming the caller's
   file, the symbol, the defining file and both folders. Includes alone miss this: a declaration
   can sit low while its definition sits high. The symbols come from the library's own object
   files (nm: U = used, upper-case defined types = defined; static functions and static inline
   helpers are local and do not count), each object mapped back to its source through
   compile_commands.json, so what is seen is exactly what the compiler emitted for this build
   (code compiled out for another ISA is not seen; every ISA's CI build sees its own).
7. Calls between files run one way too, inside a folder as between folders: the same symbols give
   a graph of library sources (A -> B: A uses a symbol B defines), and any circle in it fails,
   naming each file and a symbol it uses (as net_read.c and net_leb128_split.c once called each
   other: a split that built streams to reuse the stream's decoder).
8. The front ends use the public API (issue 50): a file of tools/ or web/ includes only public
   headers (include/) and its own folder's headers; any other header of the tree (core/, base/,
   games/, features/, simd/, training/, io/, another front end's) fails, naming the file and the
   header. FRONT_END_PRIVATE_LEFT lists the includes still waiting for their public calls
   (empty since the chooser, convert, info and the atomic writer became public calls,
   include/nnue_netfile.h); an entry that no longer occurs fails too, so the list only shrinks.
9. No room of the library above ROOM_SHARE_MAX of the library's lines (issue 50: core/ had grown to
   half of it): the library is the C files of FOLDER_ORDER's folders, a room is a top-level
   folder (core/ whole: its rooms together).
10. Instruction-set code lives in simd/ (issue 47): no file
    outside simd/ includes an intrinsics header (immintrin.h and the other *intrin.h, arm_neon.h, arm_sve.h, wasm_simd128.h), names an
    intrinsic or its vector types (_mm*_..., __m128/256/512, __mmask, __builtin_ia32_...,
    wasm_i32x4_... and the like) or gives a function a target attribute (__attribute__((target
    or target_clones, NNUE_TARGET)), in code (comments aside). What runs on an instruction set is
    a kernel of the state's table (simd/kernels.h), so NNUE_ISA and the table a test picks cover
    it. base/targets.h, which defines the target lists and NNUE_TARGET for simd/, is the one
    exception. ISA_CODE_LEFT lists the files still waiting to move (an entry that no longer
    occurs fails, so the list only shrinks); empty since the float layers' FMA clones became the
    float kernels' dequantize and affine (simd/kernels_f32.h), and it stays so. Generic vectors (vector_size) are plain C for the
    platform's baseline, chosen by no ISA, and are not this rule's subject.
Exits 1 naming every cycle, long file, named layer type, game name, upward folder arrow,
upward call, call circle, private include of a front end and instruction-set code outside
simd/, 0 otherwise."""
import json
import os
import re
import subprocess
import sys

MAX_LINES = 600
# The library's rooms, top first: eval runs a state through the net's accumulators and layers;
# net turns files into weights; load reads a YAML document into a graph (it finds each layer's
# type by name, so it sits above the types); layers are the layer types (and their planner for
# the kernels); arch is the graph with the layer-type contract and the section readers; features are the feature sets with their
# contract; games the game descriptors; simd the kernels (plain arrays and sizes); base the
# small files under everything (errors, the registry mechanism, ISA choice, YAML reading, limits,
# the version); include the public API.
FOLDER_ORDER = ('training', 'core/eval', 'core/net', 'formats', 'load', 'layers', 'core/arch', 'features', 'games', 'simd',
                'io', 'base', 'include')
ROOM_SHARE_MAX = 0.30
GAME_NAME_SCOPE_EXEMPT = ('games/', 'tests/', 'examples/', 'fuzz/')


def tracked_sources(src):
    out = subprocess.run(['git', '-C', src, 'ls-files', '*.c', '*.h'], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return out.stdout.split()
    found = []  # not a git checkout (a source tarball): walk the tree
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(('build', '.'))]
        found += [os.path.relpath(os.path.join(root, f), src) for f in files if f.endswith(('.c', '.h'))]
    return found


def include_graph(src, files):
    node = lambda path: os.path.splitext(os.path.normpath(path))[0]
    graph = {}
    for f in files:
        text = open(os.path.join(src, f), errors='replace').read()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            for cand in (inc, os.path.join(os.path.dirname(f), inc), os.path.join('include', inc)):
                if os.path.exists(os.path.join(src, cand)):
                    if node(cand) != node(f):
                        graph.setdefault(node(f), set()).add(node(cand))
                    break
    return graph


def resolve_include(src, f, inc):
    """The tracked path a quoted #include of file f names, or None (a system or generated header)."""
    for cand in (inc, os.path.join(os.path.dirname(f), inc), os.path.join('include', inc)):
        if os.path.exists(os.path.join(src, cand)):
            return os.path.normpath(cand)
    return None


def folder_of(path):
    """core/arch/arch.h -> core/arch; base/error.h -> base; games/chess/uci.c -> games; a file
    directly in core/ (none should be) -> core."""
    parts = path.split('/')
    if parts[0] == 'core' and len(parts) > 2:
        return 'core/' + parts[1]
    return parts[0] if len(parts) > 1 else '.'


def folder_graph(src, files):
    """{folder: {folder: [(file, header), ...]}} for includes between different folders."""
    graph = {}
    for f in sorted(files):
        text = open(os.path.join(src, f), errors='replace').read()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            path = resolve_include(src, f, inc)
            if path and folder_of(path) != folder_of(f):
                graph.setdefault(folder_of(f), {}).setdefault(folder_of(path), []).append((f, path))
    return graph


def folder_problems(graph):
    found = []
    simple = {a: set(bs) for a, bs in graph.items()}
    for c in cycles(simple):
        edges = []
        for a, b in zip(c, c[1:]):
            why = ', '.join(f'{f} includes {h}' for f, h in graph[a][b])
            edges.append(f'{a} -> {b} ({why})')
        found.append('folder cycle ' + ' -> '.join(c) + ': ' + '; '.join(edges))
    rank = {name: i for i, name in enumerate(FOLDER_ORDER)}
    for a in sorted(graph):
        for b in sorted(graph[a]):
            if a in rank and b in rank and rank[b] < rank[a]:
                why = ', '.join(f'{f} includes {h}' for f, h in graph[a][b])
                found.append(f'{a} -> {b} runs back up (order, top first: {", ".join(FOLDER_ORDER)}): {why}')
    return found


def loose_core_files(files):
    """A C file directly in core/ (core/ holds only its rooms; the shared small files are base/)."""
    return [f'{f}: a file directly in core/ (core/ holds only its rooms; a small file every folder '
            f'shares goes to base/)' for f in files if folder_of(f) == 'core']


def cycles(graph):
    found, state = [], {}

    def visit(u, stack):
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                found.append(stack[stack.index(v):] + [v])
            elif v not in state:
                visit(v, stack)
        stack.pop()
        state[u] = 2

    for u in sorted(graph):
        if u not in state:
            visit(u, [])
    return found


# (file, name) pairs where the word means something else.
LAYER_NAME_ELSEWHERE_OK = {('load/arch_ft.c', 'pairwise')}


def layer_names_outside(src, files):
    names = set()
    for f in files:
        if f.startswith('layers/') and f.endswith('.c'):
            names |= set(re.findall(r'\.name\s*=\s*"([^"]+)"', open(os.path.join(src, f), errors='replace').read()))
    found = []
    for f in files:
        if f.startswith(('layers/', 'tests/', 'fuzz/')):
            continue
        text = open(os.path.join(src, f), errors='replace').read()
        for name in sorted(names):
            if f'"{name}"' in text and (f, name) not in LAYER_NAME_ELSEWHERE_OK:
                found.append(f'{f}: names the layer type "{name}" (ask the type: core/arch/layer.h)')
    return found


def code_without_comments(text):
    """The text with comments blanked (newlines kept, so line numbers stay), strings kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join(ch if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def game_names(src):
    names = set()
    games = os.path.join(src, 'games')
    for d in sorted(os.listdir(games)) if os.path.isdir(games) else []:
        path = os.path.join(games, d, 'game.c')
        if os.path.exists(path):
            names |= set(re.findall(r'\.name\s*=\s*"([^"]+)"', open(path, errors='replace').read()))
    return names


def game_name_literals(src, files):
    names = game_names(src)
    assert names, 'no game descriptors found under games/*/game.c'
    found = []
    for f in files:
        if f.startswith(GAME_NAME_SCOPE_EXEMPT):
            continue
        code = code_without_comments(open(os.path.join(src, f), errors='replace').read())
        for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', code):
            if m.group(1) not in names:
                continue
            before = code[code.rfind('\n', 0, m.start()) + 1:m.start()]
            if f.startswith('features/') and re.search(r'\.game\s*=\s*$', before):
                continue  # a feature set names the game it reads
            line = code.count('\n', 0, m.start()) + 1
            found.append(f'{f}:{line}: the game name "{m.group(1)}" outside games/ (read the game descriptor)')
    return found


def nm_symbols(objects):
    """{object: ({defined: 'calls'|'uses'}, used set)} of global symbols, by one nm run (llvm-nm for LTO bitcode)."""
    for tool in (os.environ.get('NM'), 'nm', 'llvm-nm'):
        if not tool:
            continue
        try:
            out = subprocess.run([tool, '-P', '-A'] + objects, capture_output=True, text=True)
        except OSError:
            continue
        if out.returncode == 0:
            break
    else:
        raise SystemExit(f'layout: nm could not read the objects: {out.stderr.strip()[:300]}')
    table = {o: ({}, set()) for o in objects}
    for line in out.stdout.splitlines():
        where, _, rest = line.rpartition(': ')
        fields = rest.split()
        if where not in table or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == 'U':
            table[where][1].add(name)
        elif kind.isupper() or kind in 'vw':  # global (and weak) definitions; lower case is local
            table[where][0][name] = 'calls' if kind in 'TtWw' else 'uses'  # a function, or data
    return table


def library_objects(src, build):
    """{source path relative to SRC: object path} for the library's own objects (the target's
    private directory libnnue*.p), from the build's compile_commands.json."""
    objects = {}
    for e in json.load(open(os.path.join(build, 'compile_commands.json'))):
        out = e.get('output', '')
        if not re.match(r'libnnue[^/]*\.p/', out):
            continue
        path = os.path.normpath(os.path.join(e['directory'], e['file']))
        base = os.path.realpath(build) if path.startswith(os.path.realpath(build) + os.sep) else os.path.realpath(src)
        rel = os.path.relpath(os.path.realpath(path), base)  # a generated source counts where meson made it
        assert not rel.startswith('..'), f'{path}: a library source outside {src} (a build of another tree?)'
        obj = os.path.join(e['directory'], out)
        if os.path.exists(obj):
            objects.setdefault(rel, obj)
    return objects


def call_problems(src, build):
    """Every use of a library symbol from a folder below the one that defines it."""
    objects = library_objects(src, build)
    assert objects, f'no library objects in {build}/compile_commands.json (build the library first)'
    table = nm_symbols(sorted(set(objects.values())))
    assert any(defined for defined, _ in table.values()), 'nm found no symbols in the objects (LTO bitcode? set NM)'
    defined_in = {}
    for source, obj in objects.items():
        for name, verb in table[obj][0].items():
            defined_in.setdefault(name, (source, verb))
    rank = {name: i for i, name in enumerate(FOLDER_ORDER)}
    found = []
    calls = {}  # {caller's source: {callee's source: first symbol}}
    for source in sorted(objects):
        mine = folder_of(source)
        for name in sorted(table[objects[source]][1]):
            if name not in defined_in:
                continue  # the C library, libyaml, ...
            owner, verb = defined_in[name]
            if owner != source:
                calls.setdefault(source, {}).setdefault(owner, name)
            theirs = folder_of(owner)
            if mine in rank and theirs in rank and rank[theirs] < rank[mine]:
                found.append(f'{source} ({mine}) {verb} {name} of {owner} ({theirs}): a call back up '
                             f'(order, top first: {", ".join(FOLDER_ORDER)})')
    for c in cycles({a: set(bs) for a, bs in calls.items()}):
        why = '; '.join(f'{a} uses {calls[a][b]}' for a, b in zip(c, c[1:]))
        found.append(f'call circle {" -> ".join(c)} ({why}): a file reaches back into one that uses it')
    return found


FRONT_ENDS = ('tools', 'web')
# (file, header) of tools/ still reaching behind include/ (issue 50, item 5 left to do: the
# choice of an architecture over discovered YAMLs, `nnue convert`'s writer, `info`'s and
# `arch`'s inner figures, the bench's state internals).
FRONT_END_PRIVATE_LEFT = set()


def line_count(src, f):
    return sum(1 for _ in open(os.path.join(src, f), errors='replace'))


def oversized_rooms(counts):
    """Problems of rule 9 from {file: lines} of the library's files."""
    rooms = {}
    for f, n in counts.items():
        room = f.split('/')[0]
        rooms[room] = rooms.get(room, 0) + n
    total = sum(rooms.values()) or 1
    return [f"{room}/: {n} of the library's {total} lines ({100 * n / total:.0f}%, more than "
            f'{100 * ROOM_SHARE_MAX:.0f}%): split a room out' for room, n in sorted(rooms.items())
            if n > ROOM_SHARE_MAX * total]


def front_end_includes(src, files, left=None):
    """Problems of rule 8 for the tracked files."""
    left = FRONT_END_PRIVATE_LEFT if left is None else left
    found, seen = [], set()
    for f in sorted(files):
        if folder_of(f) not in FRONT_ENDS:
            continue
        text = open(os.path.join(src, f), errors='replace').read()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            path = resolve_include(src, f, inc)
            if not path or folder_of(path) in ('include', folder_of(f)):
                continue
            if (f, path) in left:
                seen.add((f, path))
                continue
            found.append(f'{f} includes {path}: a front end uses the public API only (include/; '
                         f'what it needs from the library becomes a public call)')
    for f, path in sorted(set(left) - seen):
        found.append(f'{f} no longer includes {path}: remove it from FRONT_END_PRIVATE_LEFT')
    return found


# Rule 10. Patterns of instruction-set code, searched in code without comments.
ISA_CODE = (
    (r'#\s*include\s*<\s*(\w*intrin\.h|arm_neon\.h|arm_sve\.h|wasm_simd128\.h)\s*>', 'includes {}'),
    (r'\b_mm\d*_\w+', 'uses the intrinsic {}'),
    (r'\b__m(64|128|256|512)[idh]?\b', 'uses the vector type {}'),
    (r'\b__mmask\d+\b', 'uses the mask type {}'),
    (r'\b__builtin_ia32_\w+', 'uses the builtin {}'),
    (r'\bwasm_(v128|[iuf]\d+x\d+)_\w+', 'uses the intrinsic {}'),
    (r'\bv\w*q_[suf]\d+\b', 'uses the NEON intrinsic {}'),
    (r'__attribute__\s*\(\(\s*(__)?target(_clones)?(__)?\s*\(', 'gives a target attribute ({}...)'),
    (r'\bNNUE_TARGET\s*\(', 'gives a target attribute ({}...)'),
)
ISA_CODE_HOME = ('simd/',)
ISA_CODE_EXEMPT = {'base/targets.h'}  # the target lists and NNUE_TARGET, defined for simd/
# Files with instruction-set code still waiting to move into simd/ (each with why it is left).
ISA_CODE_LEFT = set()  # empty: the float layers' FMA clones became float kernels (simd/kernels_f32.h)
TARGET_MACRO = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\b[^\n]*__attribute__\s*\(\(\s*(__)?target', re.M)


def isa_code_outside(src, files, left=None):
    """Problems of rule 10 for the tracked files."""
    left = ISA_CODE_LEFT if left is None else left
    found, seen, patterns = [], set(), list(ISA_CODE)
    for f in files:  # a macro standing for a target attribute counts as one where it is used
        for name in TARGET_MACRO.findall(code_without_comments(open(os.path.join(src, f), errors='replace').read())):
            if name[0] != 'NNUE_TARGET':
                patterns.append((r'\b' + name[0] + r'\b', 'gives a target attribute ({}, a macro for one)'))
    for f in sorted(files):
        if f.startswith(ISA_CODE_HOME) or f in ISA_CODE_EXEMPT:
            continue
        code = code_without_comments(open(os.path.join(src, f), errors='replace').read())
        hits = []
        for pattern, what in patterns:
            for m in re.finditer(pattern, code):
                line = code.count('\n', 0, m.start()) + 1
                hits.append(f'{f}:{line}: {what.format(m.group(0).strip())}: instruction-set code lives in simd/ '
                            f'(a kernel of the state\'s table, simd/kernels.h)')
        if hits and f in left:
            seen.add(f)
        else:
            found += hits
    for f in sorted(set(left) - seen):
        found.append(f'{f} no longer holds instruction-set code: remove it from ISA_CODE_LEFT')
    return found


def main():
    src = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 else None
    files = tracked_sources(src)
    assert len(files) > 50, f'only {len(files)} C files found under {src}'
    problems = [' -> '.join(c) for c in cycles(include_graph(src, files))]
    graph = folder_graph(src, files)
    problems += folder_problems(graph)
    problems += loose_core_files(files)
    rank = {name: i for i, name in enumerate(FOLDER_ORDER)}
    up_includes = sum(len(graph[a][b]) for a in graph for b in graph[a]
                      if a in rank and b in rank and rank[b] < rank[a])
    counts = {f: line_count(src, f) for f in files}
    problems += [f'{f}: {n} lines (more than {MAX_LINES})' for f, n in counts.items() if n > MAX_LINES]
    problems += oversized_rooms({f: n for f, n in counts.items() if folder_of(f) in rank})
    problems += layer_names_outside(src, files)
    problems += game_name_literals(src, files)
    problems += front_end_includes(src, files)
    problems += isa_code_outside(src, files)
    up_calls = call_problems(src, build) if build else []
    problems += up_calls
    for p in problems:
        print('layout:', p)
    calls = f'{len(up_calls)} calls' if build else 'calls not checked (no build directory)'
    print(f'layout: {len(files)} files; against the folder order: {up_includes} includes, {calls}; '
          f'{len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
