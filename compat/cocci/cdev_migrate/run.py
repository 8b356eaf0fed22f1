# SPDX-License-Identifier: GPL-2.0-only
"""The --cdev run: the planner's verdict made whole or nothing per file, the edits applied,
the results written for the tool (status, messages and one .out per converted file)."""

import os

from .edit import apply_edits, call_edit, include_line, includes_header
from .planner import Planner
from .sites import DEFINE, INCLUDE, NL
from .report import write_report
from .text import src


def main():
    out = os.environ.get('CDEV_COMPAT_MIGRATE_OUT')
    if not out:
        raise SystemExit('CDEV_COMPAT_MIGRATE_OUT is not set')
    files = [f for f in os.environ.get('CDEV_COMPAT_MIGRATE_FILES', '').split('\n') if f]
    mode = os.environ.get('CDEV_COMPAT_MIGRATE_MODE', 'patch')
    if mode == 'report':
        write_report(out, files)
        return
    pl = Planner(files)
    pl.plan()
    # Whole or nothing: a file with a refusal is left alone, and so is every file that
    # shares a handle with it, until nothing changes.
    blocked = set(f for f, line, why in pl.refusals)
    for g in pl.groups:
        if g.get('refused'):
            blocked |= set(g.get('files', []) or [x.file for x in g['regs'] + g['unregs']])
    changed = True
    while changed:
        changed = False
        for g in pl.groups:
            fs = set(g.get('files') or [x.file for x in g['regs'] + g['unregs']])
            if fs & blocked and not fs <= blocked:
                blocked |= fs
                changed = True
    msgs = ['%s:%d: not converted: %s' % (f, line, why)
            for f, line, why in sorted(set(pl.refusals))]
    for f in files:
        if f in blocked and not any(r[0] == f for r in pl.refusals):
            why = [x for x in pl.refusals if x[0] not in (f,)]
            msgs.append('%s: left unchanged: it shares a major with %s' %
                        (f, ', '.join(sorted(set('%s:%d' % (w[0], w[1]) for w in why)))))
    # The edits of every group whose files are all free.
    edits, inserts, touched = {}, {}, []
    for g in pl.groups:
        fs = set(g.get('files') or [])
        if g.get('refused') or fs & blocked:
            continue
        for x in g['regs']:
            s = src(x.file)
            h = g['handle'][id(x)]
            edits.setdefault(x.file, []).append(call_edit(s, x, x.call, x.tail, x.paren))
            edits[x.file] += x.idiom_edits
        for u in g['unregs']:
            edits.setdefault(u.file, []).append(call_edit(src(u.file), u, u.call))
        for path, line, text in g.get('inserts', []):
            inserts.setdefault(path, []).append((line, text))
        for f in sorted(fs):
            if f not in touched:
                touched.append(f)
    want_include = os.environ.get('CDEV_COMPAT_MIGRATE_INCLUDE', '1') != '0'
    want_define = os.environ.get('CDEV_COMPAT_MIGRATE_DEFINE', '1') != '0'
    defined = any('CDEV_COMPAT_DEFINE_HELPERS' in s.code for s in pl.srcs)
    order = [f for f in files if f in touched] + [f for f in touched if f not in files]
    for f in order:
        s = src(f)
        if want_include and not includes_header(s):
            line = include_line(s)
            text = INCLUDE
            if want_define and not defined and f.endswith('.c'):
                text = DEFINE + NL + text
                defined = True
            # Nothing it declares may come first: a handle declared above the last
            # #include (a global before it) gets the include just before it, at its line.
            early = [ln for ln, t in inserts.get(f, []) if abs(ln) < line]
            if early:
                line = min(early, key=abs)
                inserts[f].insert(0, (line, text))
            else:
                inserts.setdefault(f, []).append((line, text))
        elif want_include and want_define and not defined and f.endswith('.c'):
            m = includes_header(s)
            edits.setdefault(f, []).append((m.start(), m.start(), DEFINE + NL))
            defined = True
    if not want_include and not defined and order:
        msgs.append('note: define CDEV_COMPAT_DEFINE_HELPERS in one file of the module '
                    '(CFLAGS_file.o += -DCDEV_COMPAT_DEFINE_HELPERS): the helpers are defined '
                    'there')
    status = []
    for n, f in enumerate(order):
        s = src(f)
        new = apply_edits(s, edits.get(f, []), inserts.get(f, []))
        path = os.path.join(out, '%d.out' % n)
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as fh:
            fh.write(new)
        status.append('converted\t%s\t%s' % (f, path))
    for f in files:
        if f in blocked:
            status.append('refused\t%s\t' % f)
        elif f not in order:
            status.append('unchanged\t%s\t' % f)
    with open(os.path.join(out, 'status'), 'w') as fh:
        fh.write(''.join(x + '\n' for x in status))
    with open(os.path.join(out, 'messages'), 'w') as fh:
        fh.write(''.join(x + '\n' for x in msgs))
