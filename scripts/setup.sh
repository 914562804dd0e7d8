#!/usr/bin/env bash
# Everything a fresh Debian 12 machine needs to build and run Kiln: the
# Debian packages (each named below with why), the build, the kernelspec.
# Usage: scripts/setup.sh [build-dir]   (KILN_CMAKE_FLAGS adds CMake flags)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

packages=(
  cmake pkg-config gcc          # the build
  libzmq3-dev                   # ZeroMQ: the kernel's sockets
  libcjson-dev                  # cJSON: the wire format
  libssl-dev                    # OpenSSL: HMAC-SHA256 message signing
  llvm-19-dev                   # LLVM-C: ORC JIT, pass pipeline, X86 and NVPTX
  python3-dev python3-numpy     # CPython extension API (_kiln, and the kernel's _kiln_kernel), NumPy's C API
  python3-pip python3-setuptools python3-wheel  # `pip install .`: the PEP 517 build (pyproject.toml) that installs `import kiln`
  python3-venv                  # a venv with --system-site-packages gets kiln by `pip install .` too (tests/install)
  liblapack3                    # LAPACK: np.linalg in compiled code, the library NumPy's linalg uses
  python3-ipython python3-matplotlib-inline python3-matplotlib  # the shell the kernel runs
  jupyter-core python3-jupyter-client python3-nbclient python3-nbconvert  # clients, notebooks
  jupyter-nbconvert             # the `jupyter nbconvert` command (tests/kernel/test_nbconvert_cli.py)
  jupyter-client python3-comm   # `jupyter kernelspec list`; the comm API widget libraries call
  python3-pytest python3-jupyter-kernel-test python3-psutil      # tests
  python3-ipykernel python3-numba  # the peers the benchmarks compare against
  python3-pandas                # seed 000's "Numba and Pandas" section in a notebook (tests/magics)
  python3-dask                  # seed 000's pi: nogil kiln functions under Dask's threaded scheduler (tests/parallel)
  python3-cloudpickle           # kiln functions of __main__ or a notebook pickled by value, with the globals they read (python/kiln/pickling.py)
  python3-distributed           # a Dask cluster of worker processes running kiln functions sent to them (tests/jit/test_pickle.py)
  python3-scipy                 # scipy.LowLevelCallable: a kiln.cfunc as quad's integrand (tests/jit/test_cfunc.py)
  chromium nodejs               # browser test: headless Chromium driven by npm's playwright-core
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# playwright-core for tests/browser (Debian's nodejs may come without npm).
command -v npm >/dev/null || apt-get install -y -q --no-install-recommends npm
npm install --prefix "$root/tests/browser" --no-audit --no-fund --loglevel=error >/dev/null

cmake -S "$root" -B "$build" -DPython3_EXECUTABLE=/usr/bin/python3 ${KILN_CMAKE_FLAGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
/usr/bin/python3 -m compileall -q "$root/python/kiln"   # byte-compiled, as an installed package is

# Installed for every user as root (to /usr/local, Debian's place for what its packages do not
# own), for this user otherwise (~/.local): the kiln package, built the standard way and reusing
# the extension just built, so that Debian's /usr/bin/python3 and any ipykernel
# (%load_ext kiln.ipython) import it; pip calls a root install "breaking system packages" on
# Debian 12, though nothing of Debian's is touched. Then the kernel, its files and the "kiln"
# kernelspec naming the installed kernel, which users who cannot read this tree can run.
if [ "$(id -u)" = 0 ]; then
  prefix=/usr/local pip_where=(--break-system-packages --root-user-action=ignore) spec_where=--sys-prefix
else
  prefix=$HOME/.local pip_where=(--user) spec_where=--user
fi
(cd "$root" && KILN_CMAKE_BUILD_DIR="$build" /usr/bin/python3 -m pip install -q --no-build-isolation \
   --no-index --no-deps --force-reinstall "${pip_where[@]}" .)
if [ -x "$build/kiln-kernel" ]; then
  cmake --install "$build" --prefix "$prefix" >/dev/null
  "$prefix/bin/kiln-kernel" install $spec_where
fi
