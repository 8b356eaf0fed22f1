# SPDX-License-Identifier: GPL-2.0-only
"""Editing: call spans replaced, whole lines inserted, so comments stay where they were."""

import re

from .sites import NL, indent_to, width


def format_call(prefix, parts, tail, paren, suffix):
    # The call parts[0](parts[1], ...) starting after prefix (the text of the line before it),
    # followed by suffix (the rest of that line), wrapped at 80 columns after commas.
    one = parts[0] + (', ' + ', '.join(parts[1:]) if len(parts) > 1 else '') + ')'
    if tail:
        one += ' ?: ' + tail
    if paren:
        one = '(' + one + ')'
    if width(prefix + one + suffix) <= 80:
        return one
    col0 = width(prefix)
    opening = ('(' if paren else '') + parts[0] + ','
    cont = indent_to(col0 + opening.index('(', 1 if paren else 0) + 1)
    lines, cur = [], opening
    items = [p + ',' for p in parts[1:-1]] + [parts[-1] + ')']
    for k, it in enumerate(items):
        first = not lines
        end = suffix if k == len(items) - 1 and not tail and not paren else ''
        if width((prefix if first else '') + cur + ' ' + it + end) > 80:
            lines.append(cur)
            cur = cont + it
        else:
            cur += ' ' + it
    if tail:
        piece = ' ?: ' + tail + (')' if paren else '')
        if width((prefix if not lines else '') + cur + piece + suffix) > 80:
            lines.append(cur)
            cur = indent_to(col0 + (1 if paren else 0)) + '?: ' + tail + (')' if paren else '')
        else:
            cur += piece
    elif paren:
        cur += ')'
    lines.append(cur)
    return '\n'.join(lines)


def apply_edits(s, edits, inserts):
    # edits: (start, end, text) replacements; inserts: (line, text) added after line (a
    # negative line: before line -line + 1, with a blank line after).
    text = s.text
    lines_after = {}
    for line, t in inserts:
        lines_after.setdefault(line, [])
        if t not in lines_after[line]:
            lines_after[line].append(t)
    pts = []
    for line, ts in lines_after.items():
        if line >= 0:
            off = s.starts[line] if line < len(s.starts) else len(text)
            pts.append((off, off, ''.join(t + '\n' for t in ts)))
        else:
            off = s.starts[-line]
            pts.append((off, off, ''.join(t + '\n' for t in ts) + '\n'))
    for a, b, t in sorted(edits + pts, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:a] + t + text[b:]
    return text


def call_edit(s, x, parts, tail=None, paren=False):
    # (start, end, text) replacing the call of site x by parts.
    start, po, pc = s.call_span(x.line, x.rec['col'])
    ls = s.starts[s.line_of(start) - 1]
    prefix = s.text[ls:start]
    le = s.text.find('\n', pc)
    suffix = s.text[pc + 1:le if le >= 0 else len(s.text)]
    text = format_call(prefix, parts, tail, paren, suffix)
    if max(width(ln) for ln in (prefix + text + suffix).split(NL)) > 80:
        # x = call(...): the call on the next line, one tab in, aligned from there
        m = re.match(r'([ \t]*)\S.*?=[ \t]*$', prefix)
        if m and not prefix.rstrip().endswith(('==', '!=', '<=', '>=')):
            ind = m.group(1) + '\t'
            text = format_call(ind, parts, tail, paren, suffix)
            return (ls + len(prefix.rstrip()), pc + 1, NL + ind + text)
    return (start, pc + 1, text)


def includes_header(s):
    return re.search(r'^[ \t]*#[ \t]*include[ \t]*<cdev_compat\.h>', s.text, re.M)


def include_line(s):
    # The line after which #include <cdev_compat.h> goes: the last #include outside #if,
    # or the #define of the include guard in of a header without includes.
    last = 0
    for n, line in enumerate(s.text.split('\n'), 1):
        if re.match(r'[ \t]*#[ \t]*include\b', line) and s.depth_at_line(n) == 0:
            last = n
    if last:
        return last
    if s.path.endswith('.h'):
        m = re.search(r'^[ \t]*#[ \t]*define[ \t]+\w+[ \t]*$', s.text, re.M)
        if m:
            return s.line_of(m.start())
    return 0
