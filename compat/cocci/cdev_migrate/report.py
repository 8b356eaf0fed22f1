# SPDX-License-Identifier: GPL-2.0-only
"""--report: every minor-number use, and what to do with it."""

import os
import re

from .facts import MINORS
from .text import src


FROM_INODE = ('in open(), take the device from inode->i_cdev: embed a struct '
              'cdev_compat_region in %s, register one region per device, and use '
              'cdev_compat_from_inode(inode, %s, region) (container_of)')


def elem_type(s, a):
    d = s.globals.get(re.sub(r'\s+', '', a))
    if d and d['type'].startswith('struct '):
        return d['type']
    return 'the device struct'


def write_report(out, files):
    lines = []
    srcs = dict((f, src(f)) for f in files)
    for k, mi in sorted(MINORS.items()):
        s = srcs.get(mi['file']) or src(mi['file'])
        f = s.funcs.get(mi['fn'])
        in_open = f is not None and any(p and 'inode' in p['type'] for p in f.params)
        uses = mi['uses']
        kinds = [u[0] for u in uses]
        what = mi['var'] and 'minor number (in %s)' % mi['var'] or 'minor number'
        if 'index' in kinds or 'key' in kinds or 'loop' in kinds:
            u = [x for x in uses if x[0] in ('index', 'key', 'loop')][0]
            if u[0] == 'index':
                a = s.span_text(*u[1]).strip()
                t = elem_type(s, a)
                msg = '%s indexes %s[] (line %d) to find the device: %s' % (
                    what, a, u[2], FROM_INODE % (t, t))
            elif u[0] == 'key':
                msg = '%s is the key of %s (line %d) to find the device: %s' % (
                    what, u[1], u[2], FROM_INODE % ('the struct it stores', 'type'))
            else:
                msg = '%s looked up in a loop (line %d) to find the device: %s' % (
                    what, u[2], FROM_INODE % ('the device struct', 'type'))
        elif 'bound' in kinds:
            u = [x for x in uses if x[0] == 'bound'][0]
            msg = ('%s checked against %s (line %d): the driver serves %s minors; register '
                   'exactly those (--cdev does when %s is a constant), one region per device '
                   'if each has its own struct' % (what, u[1], u[2], u[1], u[1]))
        else:
            msg = ('%s used as a value: right when it is the number of the device itself (a '
                   'CPU, a channel), as cdev_compat_index(inode) within the region; if it selects '
                   'a device, use cdev_compat_from_inode(inode, type, region) instead' % what)
        if not in_open and ('index' in kinds or 'key' in kinds or 'loop' in kinds):
            msg += '; outside open(), keep the device in file->private_data'
        lines.append((mi['file'], mi['line'], '%s:%d: %s' % (mi['file'], mi['line'], msg)))
    with open(os.path.join(out, 'messages'), 'w') as fh:
        fh.write(''.join(x[2] + '\n' for x in sorted(lines)))
    with open(os.path.join(out, 'status'), 'w') as fh:
        fh.write('')
