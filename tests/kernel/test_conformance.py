"""The official jupyter_kernel_test suite against the Kiln kernel, with a Python sample for
every test it has (the pager one included)."""
import jupyter_kernel_test


class KilnKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "kiln"
    language_name = "python"
    file_extension = ".py"

    code_hello_world = "print('hello, world')"
    code_stderr = "import sys; print('oops', file=sys.stderr)"
    completion_samples = [
        {"text": "zi", "matches": {"zip"}},
        {"text": "import collections; collections.Ordered", "matches": {"OrderedDict"}},
    ]
    complete_code_samples = ["1", "print('hello, world')", "def f(x):\n    return x\n"]
    incomplete_code_samples = ["print('''hello", "def f(x):", "for i in range(3):"]
    invalid_code_samples = ["import = 7q", "1 +* 2"]
    code_page_something = "zip?"
    code_generate_error = "raise ValueError('kiln test')"
    code_execute_result = [
        {"code": "1+2+3", "result": "6"},
        {"code": "[n*n for n in range(1, 4)]", "result": "[1, 4, 9]"},
        {"code": "from IPython.display import HTML; HTML('<b>k</b>')", "mime": "text/html",
         "result": "<b>k</b>"},
    ]
    code_display_data = [
        {"code": "from IPython.display import HTML, display; display(HTML('<b>k</b>'))",
         "mime": "text/html"},
        {"code": "from IPython.display import Math, display; display(Math('x^2'))",
         "mime": "text/latex"},
    ]
    code_history_pattern = "1?2*"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "zip"
    code_clear_output = "from IPython.display import clear_output; clear_output()"
