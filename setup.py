"""The one thing pyproject.toml cannot say without a warning: the optional C extensions.

``bankexplorer/sass/_shared.c`` holds the hot paths of shared-memory instructions (an LDS or STS
issue in one call: its address, bounds check, recorded rows, the load or store with its race and
taint bookkeeping, the registers and their taint): loops on shared memory execute 2.5 to 3 times
as fast with it. Optional: where no C compiler or Python headers are at hand the install still
succeeds and the emulator runs the numpy code it stands in for, with the same results
(``bankexplorer/sass/compiled.py``). Our own C rather than a compiled dependency: numba, measured,
adds half a second to every command that executes a kernel (importing it and loading its cached
code), more than it saves on most kernels. ``bankexplorer/sass/_alu.c`` runs the
usual forms of the integer instructions (IMAD, IADD3, LOP3, SEL, SHF, ISETP...) in one call an issue
(``bankexplorer/sass/alu_forms.py``). Everything else is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension(f"bankexplorer.sass.{name}", [f"bankexplorer/sass/{name}.c"],
                             depends=["bankexplorer/sass/_buffers.h"], optional=True)
                   for name in ("_shared", "_alu")])
