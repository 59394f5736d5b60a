"""The Python install names Debian's interpreter (issue 39): with another python3 first on PATH
(pyenv's) `python3 -m venv --system-site-packages` made a venv without python3-mesonpy and pip
stopped with "No module named 'mesonpy'"; test_install.sh then skipped. Now the docs and
scripts say /usr/bin/python3, and test_install.sh fails when its interpreter lacks a package."""
import os
import re
import subprocess

SRC = os.path.join(os.path.dirname(__file__), '..', '..')
BARE = re.compile(r'(^|[;&|(]\s*|^\s*[A-Z_]+=\S+\s+)python3\s')   # "python3 ..." as a command


def commands(path):
    """(number, line) of the lines a shell runs: a script's, or a Markdown file's sh blocks."""
    lines = open(os.path.join(SRC, path)).read().split('\n')
    if not path.endswith('.md'):
        return list(enumerate(lines, 1))
    out, inside = [], False
    for i, line in enumerate(lines, 1):
        if line.startswith('```'):
            inside = line.strip() == '```sh' if not inside else False
        elif inside:
            out.append((i, line))
    return out


def test_docs_and_scripts_name_debian_python():
    files = ['README.md', 'docs/python.md', 'docs/training.md', 'scripts/test.sh', 'scripts/test_arm.sh',
             'examples/python/dask_rescore.py']
    bare = [f'{f}:{n}: {line.strip()}' for f in files for n, line in commands(f) if BARE.search(line)]
    assert not bare, 'a bare python3 (PATH decides which) where /usr/bin/python3 is meant:\n' + '\n'.join(bare)
    assert open(os.path.join(SRC, 'examples/python/dask_rescore.py')).readline() == '#!/usr/bin/python3\n'


def test_install_test_fails_without_the_packages(tmp_path):
    # A real interpreter that does not see Debian's packages (no site-packages), as pyenv's does not.
    py = tmp_path / 'python3'
    py.write_text('#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n')
    py.chmod(0o755)
    nets = tmp_path / 'nets'
    nets.mkdir()
    (nets / 'nn-c288c895ea92.nnue').write_bytes(b'x')   # only its presence is checked first
    run = subprocess.run(['sh', os.path.join(SRC, 'tests/python/test_install.sh'), SRC, str(py), 'nnue'],
                         env={**os.environ, 'NNUE_NETS_DIR': str(nets)}, capture_output=True, text=True)
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr)
    assert 'lacks mesonpy cffi numpy' in run.stdout and 'python3-mesonpy' in run.stdout, run.stdout
