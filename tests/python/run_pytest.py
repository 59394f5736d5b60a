#!/usr/bin/env python3
"""tests/python/run_pytest.py SRC [pytest args]: the Python tests, skipped (exit 77) when
this interpreter lacks cffi, numpy or pytest (Debian python3-cffi, python3-numpy,
python3-pytest). The package is imported from SRC/python."""
import os
import sys

try:
    import cffi  # noqa: F401
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f'SKIP: {e} (scripts/setup.sh installs python3-cffi python3-numpy python3-pytest)')
    sys.exit(77)

src = sys.argv[1]
sys.path.insert(0, os.path.join(src, 'python'))
os.environ['PYTHONPATH'] = os.pathsep.join([os.path.join(src, 'python'), os.environ.get('PYTHONPATH', '')])
sys.exit(pytest.main(['-q', '-rs', '-p', 'no:cacheprovider', '--rootdir', os.path.join(src, 'tests', 'python'),
                      *sys.argv[2:]]))
