"""A user's own `nnue init` net through Net.load without an arch (issue 39): its description
names its architecture; one that only shares a built-in's file hash is refused with a message
naming it, never read as the built-in (which gave 'byte 77: expected COMPRESSED_LEB128')."""
import os
import subprocess

import pytest

import nnue

SMALL = os.path.join(os.path.dirname(__file__), '..', '..', 'archs', 'sfnnv8small.yaml')


def init(tool, tmp_path, name, edit):
    text = open(SMALL).read().replace('name: SFNNv8-small', f'name: {name}')
    yaml = tmp_path / f'{name}.yaml'
    yaml.write_text(edit(text))
    net = tmp_path / f'{name}.nnue'
    subprocess.run([tool, 'init', str(yaml), str(net)], check=True, capture_output=True)
    return yaml, net


def test_builtin_layout_plain_file_loads(tool, tmp_path):
    # SFNNv8-small's layout written without LEB128: the built-in reads it with the file's encoding.
    yaml, net = init(tool, tmp_path, 'SFNNv8-small', lambda t: t.replace('  leb128: true\n', ''))
    loaded = nnue.Net.load(net)
    assert loaded.arch.name == 'SFNNv8-small'
    ref = nnue.Net.load(net, arch=str(yaml))
    assert loaded.evaluate(['startpos']).total[0] == ref.evaluate(['startpos']).total[0]


def test_own_stacks_named_in_error(tool, tmp_path):
    # 4 stacks, 4 PSQT buckets: SFNNv8-small's file hash, another layout.
    def four(t):
        return (t.replace('  leb128: true\n', '').replace('count: 8', 'count: 4')
                .replace('psqt_buckets: 8', 'psqt_buckets: 4').replace('(pieces - 1) / 4', '(pieces - 1) / 8'))
    yaml, net = init(tool, tmp_path, 'my-small', four)
    with pytest.raises(nnue.NnueError) as e:
        nnue.Net.load(net)
    msg = str(e.value)
    assert "nnue init wrote this net for architecture 'my-small'" in msg, msg
    assert 'only its file hash is that of the built-in SFNNv8-small' in msg and 'arch=YAML' in msg, msg
    assert nnue.Net.load(net, arch=str(yaml)).arch.name == 'my-small'
