"""Net.centipawns (include/nnue.h nnue_cp_convert): the same column `nnue eval` prints, the rule
found from the architecture's YAML (Stockfish 15.1 divides by 361, Stockfish 18's material
model) or from the release net's SHA-256 (17.1's SFNNv9), and none with a reason elsewhere."""
import os
import subprocess

import pytest

import nnue
from conftest import tool_env

FENS = ['startpos', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11',
        'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1']


def tool_cp(tool, net_path, tmp_path):
    listing = tmp_path / 'positions.txt'
    listing.write_text('\n'.join(FENS) + '\n')
    out = subprocess.run([tool, 'eval', '--quiet', '--net', net_path, '--file', str(listing)],
                         capture_output=True, text=True, check=True, env=tool_env()).stdout
    rows = [line.split('\t') for line in out.splitlines()[1:]]
    return [int(r[6]) for r in rows]


def test_sf151_divides_by_361(sf151, sf151_path, tool, tmp_path):
    assert sf151.centipawns_engine == 'Stockfish 15.1' and sf151.centipawns_why is None
    e = sf151.evaluate(FENS)
    cp = sf151.centipawns(FENS, e)
    assert [int(c) for c in cp] == [int(int(t) * 100 / 361) for t in e.total]
    assert [int(c) for c in cp] == tool_cp(tool, sf151_path, tmp_path)


def test_sf18_material_model(sf18, sf18_path, tool, tmp_path):
    assert sf18.centipawns_engine == 'Stockfish 18'
    assert [int(c) for c in sf18.centipawns(FENS)] == tool_cp(tool, sf18_path, tmp_path)


def test_release_net_tells(tmp_path, tool):
    folder = os.environ.get('NNUE_NETS_DIR', os.path.expanduser('~/.cache/nnue-nets'))
    path = os.path.join(folder, 'nn-1c0000000000.nnue')
    if not os.path.exists(path):
        pytest.skip(f'{path} is absent')
    assert nnue.Net.load(path).centipawns_engine == 'Stockfish 17.1'


def test_arch_sizes_and_random_net(tmp_path, tool):
    """Arch.parameters / file_size equal `nnue arch --json`; Arch.random_net equals `nnue init`'s
    file byte for byte, and loads."""
    import json
    arch = nnue.Arch.load('sfnnv5')
    info = json.loads(subprocess.run([tool, 'arch', '--json', 'sfnnv5'], capture_output=True, text=True,
                                     check=True, env=tool_env()).stdout)[0]
    assert (arch.parameters, arch.file_size) == (info['parameters'], info['file_size'])
    path = tmp_path / 'r.nnue'
    subprocess.run([tool, 'init', '--seed', '9', 'sfnnv5', str(path)], check=True, capture_output=True,
                   env=tool_env())
    assert arch.random_net(9) == path.read_bytes()
    assert nnue.Net.load(str(path)).arch.name == 'SFNNv5'
    with pytest.raises(ValueError):
        arch.random_net(-1)


def test_none_says_why(tmp_path, tool):
    path = str(tmp_path / 'small.nnue')
    subprocess.run([tool, 'init', 'sfnnv8small', path], check=True, capture_output=True, env=tool_env())
    net = nnue.Net.load(path)
    assert net.centipawns_engine is None and 'Stockfish 16.1, 17, 17.1 and 18' in net.centipawns_why
    with pytest.raises(ValueError, match='no centipawns: SFNNv8-small'):
        net.centipawns('startpos')
