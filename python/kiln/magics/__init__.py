"""Kiln's notebook face: the renderers and the IPython magics that make a
compile explain itself (%%jit, the per-cell compile/run footer, %compare,
annotated source, %kiln_llvm / %kiln_asm, %kiln_sysinfo).

kiln.ipython registers them into a shell; each module here has one job and
works without IPython where it can (renderers take data, return text/HTML)."""
