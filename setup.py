"""The part of the PEP 517 build that pyproject.toml cannot say: the _kiln
extension is built by CMake (it is the whole compiler, with LLVM linked in),
not by setuptools' own compile step.

KILN_CMAKE_BUILD_DIR names an existing CMake build to reuse (scripts/setup.sh
passes its own, so installing costs no second compile); without it the
extension is built from scratch in setuptools' temporary directory."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("KILN_CMAKE_BUILD_DIR") or os.path.join(os.path.abspath(self.build_temp), "cmake")
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            # Only the extension: the kernel's ZeroMQ and cJSON are not needed by `import kiln`.
            subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, f"-DPython3_EXECUTABLE={sys.executable}",
                            "-DKILN_EXTENSION_ONLY=ON"], check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "_kiln", f"-j{os.cpu_count() or 1}"], check=True)
        built = glob.glob(os.path.join(build_dir, "python", "_kiln*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _kiln extension under {build_dir}/python, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(ext_modules=[Extension("_kiln", sources=[])],
      cmdclass={"build_ext": CMakeExtension},
      # setuptools' scratch space: a folder of its own in the build tree.
      options={"build": {"build_base": "build/setuptools"}})
