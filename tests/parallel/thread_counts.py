"""The thread counts the parallel differential tests run under: one (the
pool's serial path), two (this machine's cores) and four (more threads than
cores, so chunks queue)."""
import pytest

import kiln


@pytest.fixture(params=[1, 2, 4])
def threads(request):
    before = kiln.get_num_threads()
    kiln.set_num_threads(request.param)
    yield request.param
    kiln.set_num_threads(before)
