# SPDX-License-Identifier: GPL-2.0-only
"""The facts the SmPL rules find, filled by their script rules: the register and unregister
calls, where each result goes and how it is used, loops, frees, fops tables, minor-number uses."""

import re

from .text import IDENT, src


REGS = {}       # (file, line, col) -> registration
UNREGS = {}     # (file, line, col) -> unregistration
FIELDS = set()  # struct members named in majors (for the typed member rule)
IDENTS = set()  # identifiers named in majors (for the local declaration rule)
MEMBER_TYPES = {}   # (file, line, col of the member name) -> (type of the base, base text)
LOCALS = {}     # (file, function, name) -> type
FREES = []      # (file, function, type) of kfree()d objects
DEVM = set()    # types allocated with devm_*
FOPS = {}       # (file, fops name) -> set of functions
MINORS = {}     # (file, line, col) -> minor-number use
MINOR_VARS = set()  # variables that hold a minor number


def minor_var_use(q, use):
    s = src(q[0].file)
    a, b = span_of(q)
    name = s.span_text(a, b)
    for mi in MINORS.values():
        if mi['file'] == q[0].file and mi['fn'] == q[0].current_element and \
                mi['var'] == name and use not in mi['uses']:
            mi['uses'].append(use)


def key(p):
    return (p[0].file, int(p[0].line), int(p[0].column))


def note_names(text):
    for m in re.finditer(r'(?:->|\.)\s*(' + IDENT + ')', text):
        FIELDS.add(m.group(1))
    for m in re.finditer(IDENT, text):
        IDENTS.add(m.group(0))


def add_call(table, name, p):
    k = key(p)
    if k in table:
        return
    s = src(p[0].file)
    args = s.call_args(int(p[0].line), int(p[0].column))
    texts = [s.span_text(a, b) for a, b in args]
    rec = {'file': p[0].file, 'line': int(p[0].line), 'col': int(p[0].column),
           'fn': p[0].current_element, 'name': name, 'args': args, 'argtexts': texts,
           'ctx': None, 'uses': [], 'negbr': [], 'idioms': [], 'aliases': [], 'uses_nb': {},
           'guards': [],
           'loop': False, 'stmt': False, 'sign_uses': set(), 'x': None}
    table[k] = rec
    for t in texts:
        note_names(t)


def debug_dump():
    print(len(REGS), len(UNREGS), MINORS, MEMBER_TYPES, LOCALS, FOPS)
    for k, r in sorted(REGS.items()):
        print(k, dict((a, b) for a, b in r.items() if a != 'args'))


def same_fn(p, q):
    return p[0].file == q[0].file and p[0].current_element == q[0].current_element


def span_of(p):
    s = src(p[0].file)
    return (s.off(int(p[0].line), int(p[0].column)),
            s.off(int(p[0].line_end), int(p[0].column_end)))
