"""nnue.choose and nnue.convert (include/nnue_netfile.h): the library's one architecture chooser,
the same as the tool's (`nnue info --json`), and writing a net in another encoding (Net.save)."""
import json
import os
import subprocess

import pytest

import nnue
from conftest import tool_env

SRC = os.path.join(os.path.dirname(__file__), '..', '..')
TWO_STACKS = open(os.path.join(SRC, 'archs', 'sfnnv1.yaml')).read().replace('name: SFNNv1', 'name: SFNNv1-two') \
    .replace('layers:', 'stacks: {count: 2, selector: (pieces - 1) / 16}\nlayers:')


def write_random(tmp_path, arch, name, seed=1):
    path = tmp_path / name
    path.write_bytes(nnue.Arch.load(arch).random_net(seed))
    return path


def tool_chosen(tool, path, archs_dir):
    env = dict(tool_env(), NNUE_ARCHS_DIR=str(archs_dir))
    r = subprocess.run([tool, 'info', '--json', str(path)], capture_output=True, text=True, env=env)
    return json.loads(r.stdout)['chosen'], r.returncode


def test_nnue_init_net_is_written_for_its_arch(tmp_path):
    net = write_random(tmp_path, 'sfnnv5', 'v5.nnue')
    c = nnue.choose(net, sha256=True)
    assert (c.kind, c.arch.name, c.named, c.error) == ('written_for', 'SFNNv5', 'SFNNv5', None)
    assert [x.name for x in c.candidates if x.size_fits] == ['SFNNv4', 'SFNNv5']
    assert len(c.sha256) == 64 and c.known_net is None


def test_named_but_of_another_size_is_refused_by_both(tool, tmp_path):
    # nnue init's SFNNv1 net grown to the size of a 2-stack YAML of the same file hash: the tool
    # took that YAML before (the only size that fit); the description names SFNNv1, so neither does.
    archs = tmp_path / 'archs'
    archs.mkdir()
    (archs / 'two.yaml').write_text(TWO_STACKS)
    net = write_random(tmp_path, 'sfnnv1', 'v1.nnue')
    grow = nnue.Arch.load(str(archs / 'two.yaml')).file_size - nnue.Arch.load('sfnnv1').file_size
    with open(net, 'ab') as f:
        f.write(b'\0' * grow)
    c = nnue.choose(net, dirs=[archs])
    assert (c.kind, c.chosen, c.arch) == ('named_size', None, None)
    assert 'nnue init wrote this net for the built-in SFNNv1, whose file has' in str(c.error)
    assert str(net) in str(c.error) and 'truncated or damaged?' in str(c.error)
    assert tool_chosen(tool, net, archs) == ('', 1)
    with pytest.raises(nnue.NnueError, match='nnue init wrote this net for the built-in SFNNv1'):
        nnue.Net.load(net)


def test_same_choice_as_the_tool(tool, tmp_path):
    v4 = write_random(tmp_path, 'sfnnv4', 'v4.nnue')
    data = bytearray(v4.read_bytes())
    data[12:16] = b'Xxxx'  # no longer nnue init's description: two fit, unknown file -> SFNNv5
    v4.write_bytes(bytes(data))
    shogi = write_random(tmp_path, 'shogi_halfkp', 'shogi.nnue')
    for path, source in ((v4, 'built-in (archs/sfnnv5.yaml)'), (shogi, 'built-in (archs/shogi_halfkp.yaml)')):
        c = nnue.choose(path, dirs=[tmp_path])
        assert c.candidates[c.chosen].source == source
        assert tool_chosen(tool, path, tmp_path) == (source, 0)
    assert nnue.choose(v4).kind == 'default'


def test_save_and_convert_round_trip(tmp_path):
    src = write_random(tmp_path, 'sfnnv5', 'v5.nnue', seed=7)
    net = nnue.Net.load(src)
    net.save(tmp_path / 'v5-leb.nnue', 'leb128')
    assert os.path.getsize(tmp_path / 'v5-leb.nnue') < os.path.getsize(src)
    nnue.convert(tmp_path / 'v5-leb.nnue', tmp_path / 'v5-plain.nnue', 'plain')
    assert (tmp_path / 'v5-plain.nnue').read_bytes() == src.read_bytes()
    net.save(tmp_path / 'v5.nnue.zst', 'zstd')
    fens = ['startpos', 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3']
    for f in ('v5-leb.nnue', 'v5.nnue.zst'):
        assert list(nnue.Net.load(tmp_path / f).evaluate(fens).total) == list(net.evaluate(fens).total)
    with pytest.raises(ValueError, match='to must be one of'):
        net.save(tmp_path / 'x.nnue', 'zip')
    assert not (tmp_path / 'x.nnue').exists()


def test_self_describing_loads_without_an_arch(tmp_path):
    raw = write_random(tmp_path, 'cwtch6', 'cwtch.bin', seed=3)
    yaml = os.path.join(SRC, 'archs', 'cwtch6.yaml')
    with pytest.raises(nnue.NnueError, match='self-describing'):
        nnue.convert(raw, tmp_path / 'never.nnue', 'plain', arch='cwtch6')
    assert not (tmp_path / 'never.nnue').exists()
    nnue.convert(raw, tmp_path / 'cwtch.nnue', 'self-describing', arch_yaml=yaml)
    c = nnue.choose(tmp_path / 'cwtch.nnue')
    assert (c.kind, c.arch.name, c.candidates[0].source) == ('self_describing', 'cwtch6', 'embedded YAML')
    auto = nnue.Net.load(tmp_path / 'cwtch.nnue')  # nnue_net_load_auto reads the container
    ref = nnue.Net.load(raw, arch='cwtch6')
    assert list(auto.evaluate(['startpos']).total) == list(ref.evaluate(['startpos']).total)
