"""Build of the native search core, ``smear_native`` (see docs/engine-and-solver.md).

``SMEAR_NATIVE_SANITIZE=1`` builds it with AddressSanitizer and UBSan in a build
folder of its own, so the fast copy's objects are never reused (``make sanitize``).
"""

import os
import platform
from pathlib import Path

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup

SANITIZE = os.environ.get("SMEAR_NATIVE_SANITIZE") == "1"
HERE = Path(__file__).resolve().parent
SOURCES = sorted(str(p.relative_to(HERE)) for p in (HERE / "src").glob("*.cpp"))
# setuptools rebuilds when a source or one of these is newer than the built module
HEADERS = sorted(str(p.relative_to(HERE)) for p in (HERE / "src").glob("*.hpp"))

# every x86-64 made since about 2008 counts bits in one instruction; without the flag g++
# calls a library routine for each popcount, the search's commonest operation
NATIVE_POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

if SANITIZE:
    flags = [
        "-O1",
        "-g",
        "-fsanitize=address,undefined",
        "-fno-omit-frame-pointer",
        "-fno-sanitize-recover=all",
    ]
    link = ["-fsanitize=address,undefined"]
else:
    flags, link = ["-O3", *NATIVE_POPCOUNT], []

setup(
    ext_modules=[
        Pybind11Extension(
            "smear_native",
            SOURCES,
            depends=HEADERS,
            cxx_std=17,
            extra_compile_args=flags,
            extra_link_args=link,
        )
    ],
    options={"build": {"build_base": "build/sanitize" if SANITIZE else "build/release"}},
)
