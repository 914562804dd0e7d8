"""Kiln: compile numeric Python functions with LLVM, for the CPU and NVIDIA GPUs."""
import _kiln  # noqa: F401  (the C extension; built into build/python)

__version__ = "0.1.0"
