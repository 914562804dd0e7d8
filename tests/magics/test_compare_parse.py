"""%compare's input language: options, labels, statement splitting, and the
errors a student gets for input it cannot read."""
import pytest

from kiln.magics.compare_parse import CompareUsageError, parse


def test_labels_options_and_semicolons_inside_brackets_and_strings():
    opts, entries = parse('-n 3 -r 2 -o -c "C[0, 1]" py: f(A, "a;b"); jit: g(A, {1: (2, 3)}); h(x)[1:3]')
    assert (opts.number, opts.repeat, opts.output, opts.check) == (3, 2, True, "C[0, 1]")
    assert [(e.label, e.source) for e in entries] == [
        ("py", 'f(A, "a;b")'), ("jit", "g(A, {1: (2, 3)})"), ("h(x)[1:3]", "h(x)[1:3]")]


def test_a_label_before_an_assignment_labels_the_assignment():
    # Python reads `kiln: found = f(n)` as an annotated assignment to `kiln`; in %compare it is a label
    opts, entries = parse("-c found py: found = f(n); kiln: found = g(n); 'two words': found = h(n)")
    assert [(e.label, e.source) for e in entries] == [
        ("py", "found = f(n)"), ("kiln", "found = g(n)"), ("two words", "found = h(n)")]


def test_default_label_is_the_called_function():
    _, entries = parse("np.sum(A); kiln_sum(A)")
    assert [e.label for e in entries] == ["np.sum", "kiln_sum"]


def test_cell_form_with_word_and_quoted_labels_and_comments():
    _, entries = parse("-r 3", "python loops: f(A)\n# a comment\n\n'numba: parallel': g(A)\nlambda: 1\n")
    assert [(e.label, e.source) for e in entries] == [
        ("python loops", "f(A)"), ("numba: parallel", "g(A)"), ("lambda: 1", "lambda: 1")]


@pytest.mark.parametrize("line, cell, message", [
    ("-x 1 f()", None, "cannot read the option"),
    ("-n 0 f()", None, "positive integer"),
    ("-r two f()", None, "positive integer"),
    ("f(A; g()", None, "cannot read"),
    ("f(A); f(B)", None, "labels must differ"),
    ("", None, "nothing to compare"),
    ("-o", "", "nothing to compare"),
    ("-o f()", "g()", "statements go in the cell"),
    ("1 +* 2", None, "is not a statement"),
    ("x: = 3", None, "is not Python"),
])
def test_bad_input_says_what_is_wrong(line, cell, message):
    with pytest.raises(CompareUsageError, match=message.replace("(", r"\(")):
        parse(line, cell)
