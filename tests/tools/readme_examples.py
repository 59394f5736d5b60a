#!/usr/bin/env python3
"""Every example of the README runs as written after the main job (scripts/main.sh).

Runs each ```sh block of README.md (each line a command; a line ending in a backslash goes
on) from the source root, after preparing the starter data as the main job does
(tools/starter_data.sh), and fails on any command that exits non-zero. A block whose previous
line is `<!-- not run: REASON -->` is skipped (system-wide installs, the set-up itself); any
other code block that is not `sh` or `c` fails, so no example escapes the check.
When the build directory is not SOURCE/build, `build/` in the commands is replaced by it.
Usage: readme_examples.py SOURCE_ROOT BUILD_ROOT"""
import os
import re
import subprocess
import sys

source, build = (os.path.abspath(a) for a in sys.argv[1:3])


def blocks(text):
    """(first line number, info string, not-run reason or None, lines) of every fenced block."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^```(\S*)\s*$', lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        prev = lines[i - 1] if i else ''
        skip = re.match(r'^<!-- not run: (.+) -->$', prev)
        j = i + 1
        while j < len(lines) and lines[j] != '```':
            j += 1
        yield i + 1, m.group(1), skip.group(1) if skip else None, lines[i + 1:j]
        i = j + 1


def commands(lines):
    cmd = ''
    for line in lines:
        cmd += line
        if cmd.endswith('\\'):
            cmd = cmd[:-1] + ' '
            continue
        if cmd.strip() and not cmd.lstrip().startswith('#'):
            yield cmd.strip()
        cmd = ''


def main():
    text = open(os.path.join(source, 'README.md')).read()
    if not os.access('/usr/games/stockfish', os.X_OK):
        print('SKIP: /usr/games/stockfish is not installed (the starter net comes from it)')
        return 77
    subprocess.run(['bash', os.path.join(source, 'tools/starter_data.sh'), build], check=True)
    ran, failed = 0, []
    for line, lang, skip, body in blocks(text):
        if lang == 'c' or skip:
            continue
        if lang != 'sh':
            failed.append('README.md:%d: a ```%s block: mark it `<!-- not run: why -->` or make it sh' % (line, lang))
            continue
        for cmd in commands(body):
            if build != os.path.join(source, 'build'):
                cmd = re.sub(r'(?<![\w/.-])(\./)?build/', build + '/', cmd)
            r = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], cwd=source, capture_output=True, text=True,
                               timeout=300)
            ran += 1
            if r.returncode != 0:
                failed.append('README.md:%d: exit %d: %s\n%s%s' % (line, r.returncode, cmd, r.stdout[-2000:],
                                                                   r.stderr[-2000:]))
            else:
                print('ok README.md:%d: %s' % (line, cmd[:100]))
    for f in failed:
        print('FAIL ' + f)
    if ran < 10:
        print('FAIL: only %d commands found in the README\'s sh blocks' % ran)
        return 1
    print('%d README commands ran, %d failed' % (ran, len(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
