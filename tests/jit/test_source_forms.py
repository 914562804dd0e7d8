"""A function's text, however it is laid out, is found as CPython found it
(jit/frontend/source.c parses the whole file and takes the definition at
the function's first line): Black's signatures whose `):` stands at the
def's indentation, strings and continuation lines at column 0, comments and
blank lines between decorators, decorators over several lines, tabs,
backslash continuations, and a def nested in a class or a function; and
wherever it was written: `python3 -c` and exec() or compile() of a string
(whose texts an audit hook keeps: jit/frontend/exec_texts.c) compile, and
where no text is kept (lines piped into python3) the error says so.
(Cells of `%%time` are tests/kernel/test_timed_cells.py's.)"""
import os
import subprocess
import sys

import numpy as np

import kiln


@kiln.njit
def black_style(
    values,
    scale,
):
    total = 0.0
    for v in values:
        total += v * scale
    return total


@kiln.njit
def column_zero_text(n):
    message = """first
second"""
    s = (1 +
2 + n)
    return s + len(message)


@kiln.njit

# a comment between the decorator and the def

def after_a_comment(x):
    return x + 1


@kiln.jit(
    nopython=True,
    fastmath=False,
)
def decorator_over_lines(x):
    return x * 2


@kiln.njit
def tabs(x):
	y = x + 1
	if y > 2:
		y = y * 10
	return y


@kiln.njit
def backslashes(a, b):
    s = a + \
        b
    return s \
        * 2


class Holder:
    @staticmethod
    @kiln.njit
    def method_like(x):
        return x - 1


def make_inner():
    @kiln.njit
    def inner(x):
        return x * x
    return inner


def test_black_style_signature():
    assert black_style(np.arange(4.0), 2.0) == 12.0


def test_strings_and_continuations_at_column_zero():
    assert column_zero_text(4) == 7 + len("first\nsecond")


def test_a_comment_between_decorator_and_def():
    assert after_a_comment(1) == 2


def test_a_decorator_over_several_lines():
    assert decorator_over_lines(4) == 8


def test_tabs():
    assert tabs(1) == 2 and tabs(5) == 60


def test_backslash_continuations():
    assert backslashes(2, 3) == 10


def test_defs_in_a_class_and_in_a_function():
    assert Holder.method_like(3) == 2
    assert make_inner()(5) == 25


def python3(args, stdin=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, env=env, timeout=300)


PROGRAM = """
import kiln

@kiln.njit
def tri(n):
    s = 0
    for i in range(n):
        s += i
    return s

print(tri(100))
"""


def test_python3_dash_c_compiles():
    done = python3(["-c", PROGRAM])
    assert done.returncode == 0 and done.stdout == "4950\n", done.stderr


def test_functions_made_by_exec_and_compile_of_strings_compile():
    # Numba's tests make their cases so; each text is told from the others by its code, not its name
    namespace = {"kiln": kiln}
    for op in "+-*":
        exec(f"@kiln.njit\ndef case(a, b):\n    return a {op} b\n", namespace)
        assert namespace["case"](7, 3) == eval(f"7 {op} 3")
    made = {}
    eval(compile("def scaled(x):\n    return x * 10\n", "<generated>", "single"), {}, made)
    assert kiln.njit(made["scaled"])(4) == 40
    exec("minus_one = kiln.njit(lambda x: x - 1)", namespace)   # a lambda on the text's first line
    assert namespace["minus_one"](5) == 4


def test_exec_before_kiln_was_imported_says_why_no_text_was_kept():
    program = ("exec('def g(x):\\n    return x\\n')\nimport kiln\nkiln.njit(g)(1)\n")
    done = python3(["-c", program])
    assert "cannot find the source of g" in done.stderr and "import kiln first" in done.stderr, done.stderr


def test_lines_piped_into_python3_say_python_kept_no_text():
    done = python3([], stdin=PROGRAM)
    assert "cannot find the source of tri" in done.stderr and "no text of what is piped into it" in done.stderr


def test_functions_typed_at_the_python3_prompt_compile(tmp_path):
    # the prompt keeps no text; readline's history has the lines typed, as a terminal sends them
    import pty
    import select
    import time
    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), HOME=str(tmp_path), TERM="dumb")
    prompt = subprocess.Popen([sys.executable, "-q"], stdin=terminal, stdout=terminal, stderr=terminal, env=env)
    os.close(terminal)
    typed = ["import kiln", "@kiln.njit", "def tri(n):", "    s = 0", "    for i in range(n):", "        s += i",
             "    return s", "", "print('tri', tri(100))", "square = kiln.njit(lambda x: x * x)",
             "print('square', square(7))", "exit()"]
    for line in typed:
        os.write(controller, (line + "\n").encode())
        time.sleep(0.2)   # a line at a time, as typed: the prompt reads each before the next
    shown, deadline = b"", time.monotonic() + 120
    while time.monotonic() < deadline:
        if select.select([controller], [], [], 1)[0]:
            try:
                chunk = os.read(controller, 4096)
            except OSError:   # the prompt has exited and closed the terminal
                break
            shown += chunk
        elif prompt.poll() is not None:
            break
    prompt.wait(timeout=60)
    os.close(controller)
    text = shown.decode(errors="replace")
    assert "tri 4950" in text and "square 49" in text, text
