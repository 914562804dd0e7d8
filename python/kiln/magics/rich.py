"""Shared pieces of every rich output: one text/plain twin per HTML view,
time formatting, HTML escaping. HTML here uses inline styles only, so it
renders without network, stylesheet or JavaScript (nbconvert, a browser
opening a saved file, JupyterLab, classic Notebook alike)."""
import html

# One typeface and size for every Kiln view, so they read as one family.
FONT = "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px;"


def esc(text):
    """Text made safe inside HTML element content and attribute values."""
    return html.escape(str(text), quote=True)


def fmt_seconds(seconds):
    """A duration the way %timeit writes it: 3 significant digits and a unit
    (ns, µs, ms, s), so Kiln's numbers read like IPython's next to them."""
    if seconds is None:
        return "—"
    if seconds < 0:
        return "-" + fmt_seconds(-seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


class Rich:
    """A value that Jupyter shows as HTML and a terminal as plain text.
    Returned by kiln.annotate() and friends so they display when they are
    the last expression of a cell, and print() still reads well."""

    def __init__(self, text, html_body):
        self.text = text
        self.html = html_body

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        return self.html

    def bundle(self):
        """The MIME bundle for IPython.display.display(..., raw=True)."""
        return {"text/plain": self.text, "text/html": self.html}


def text_table(rows):
    """Lines of a plain-text table: rows[0] the header, then a rule; the
    first column left-aligned, the others right-aligned."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = ["  ".join(cell.rjust(w) if c else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths)))
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def html_table(rows, row_attributes, css_class):
    """The same table in HTML; row_attributes[i] goes in the <tr> of data row i."""
    def cells(row, tag, extra=""):
        return "".join(f'<{tag} style="padding:2px 10px; text-align:{"left" if i == 0 else "right"}{extra}">'
                       f"{esc(c)}</{tag}>" for i, c in enumerate(row))
    head = cells(rows[0], "th", "; border-bottom:1px solid #888")
    body = "".join(f"<tr {attrs}>{cells(row, 'td')}</tr>" for row, attrs in zip(rows[1:], row_attributes))
    return (f'<table class="{css_class}" style="border-collapse:collapse; margin-bottom:4px">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
