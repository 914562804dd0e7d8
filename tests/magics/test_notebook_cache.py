"""cache=True through the Kiln kernel: a notebook run twice with nbclient,
in two kernels sharing one cache directory. The first run's footer says the
function was compiled; the second run's says it was loaded from the disk
cache, and how long that took, where a compile would be."""
import re

import magics_notebook as mn

TIME = r"[\d.]+ (?:ns|µs|ms|s)"
CELLS = [
    "%%jit --cache\ndef halve_all(a):\n    out = a.copy()\n    for i in range(a.shape[0]):\n"
    "        out[i] = a[i] / 2\n    return out",
    "import numpy as np\nhalve_all(np.arange(-3.0, 4.0))",
]


def run_notebook():
    """The footer text and HTML under the cell that calls, and its result."""
    outputs = mn.execute_cells(mn.new_notebook(*CELLS)).cells[1].outputs
    (result,) = [o for o in outputs if o.output_type == "execute_result"]
    (footer,) = [o for o in outputs if o.output_type == "display_data"]
    return footer.data["text/plain"], footer.data["text/html"], result.data["text/plain"]


def test_second_kernel_footer_says_the_function_was_loaded_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))  # the kernels inherit it
    text, html, result = run_notebook()
    assert result == "array([-1.5, -1. , -0.5,  0. ,  0.5,  1. ,  1.5])"
    sig = re.escape("halve_all(array(float64, 1d, C))")
    assert re.match(rf"kiln: compiled {sig} in {TIME} · ran compiled code for {TIME} in 1 call · ", text), text
    assert "from cache" not in text and "kiln-cache-load" not in html

    text, html, result = run_notebook()
    assert result == "array([-1.5, -1. , -0.5,  0. ,  0.5,  1. ,  1.5])"
    match = re.match(rf"kiln: loaded {sig} from cache in ({TIME}) · ran compiled code for {TIME} in 1 call · "
                     rf"cell took ({TIME})", text)
    assert match, text
    assert 0 < mn.seconds(match.group(1)) < mn.seconds(match.group(2))
    assert "compiled halve_all" not in text and "mostly compiling" not in text
    assert re.search(rf'<span class="kiln-cache-load">loaded {sig} from cache in {TIME}</span>', html), html
