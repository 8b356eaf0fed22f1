# SPDX-License-Identifier: GPL-2.0-only
"""The decisions, taken once after every file was matched: where each major lives (followed
through parameters and across files), which calls share a handle, the minor count, and every
refusal with its reason."""

import os
import re

from .facts import FOPS, LOCALS, MEMBER_TYPES, MINORS, REGS, UNREGS
from .handles import HandlePlacer
from .sites import (CALL_RE, HOLE, MAJOR_H, Refusal, Site, int_value, loc_name, lvalue_like,
                    side_effect_free)
from .text import IDENT, blank_keep, match_close, norm, split_top, src, strip_parens


class Planner(HandlePlacer):
    """The decisions for all the files at once: plan() finds where each major lives, groups the
    calls that share it and decides each group (handle placement: HandlePlacer)."""

    def __init__(self, files):
        self.files = files
        self.srcs = [src(f) for f in files]
        self.refusals = []          # (file, line, reason)
        self.notes = []
        self.defines = {}
        self.module_params = set()
        for s in self.srcs:
            for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(' + IDENT + r')[ \t]+([^\n]*)$',
                                 s.code, re.M):
                self.defines.setdefault(m.group(1), m.group(2).strip())
            for m in re.finditer(r'\bmodule_param(?:_named)?\s*\(\s*(' + IDENT + ')', s.code_pp):
                self.module_params.add(m.group(1))
        self.embed = os.environ.get('CDEV_COMPAT_MIGRATE_EMBED') or None

    def refuse(self, site_or_file, line, reason):
        self.refusals.append((site_or_file, line, reason))

    # --- where things are ---------------------------------------------------------------

    def global_decl(self, name, files=None):
        # (Src, declaration) of a file-scope variable, the defining one first.
        found = []
        for s in self.srcs:
            if files is not None and s.path not in files:
                continue
            d = s.globals.get(name)
            if d:
                found.append((s, d))
        found.sort(key=lambda sd: sd[1]['extern'])
        return found[0] if found else (None, None)

    def is_local(self, s, fn, name):
        return (s.path, fn, name) in LOCALS and fn in s.funcs

    def callers(self, fname):
        # Call sites of a function: [(Src, caller, [(start, end) of args])], or None when
        # its address is taken (called through a pointer we cannot follow).
        sites = []
        for s in self.srcs:
            for m in re.finditer(r'(?<![A-Za-z0-9_.>])' + re.escape(fname) + r'(?![A-Za-z0-9_])',
                                 s.code_pp):
                f = s.func_at(m.start())
                rest = s.code_pp[m.end():m.end() + 200].lstrip()
                if f is None:
                    if rest.startswith('('):
                        continue        # a prototype
                    return None
                if f.name == fname and m.start() < f.body[0]:
                    continue            # the definition
                if not rest.startswith('('):
                    return None
                po = s.code_pp.index('(', m.end())
                pc = match_close(s.code, po)
                inner = s.code[po + 1:pc]
                sites.append((s, f.name, [(po + 1 + a, po + 1 + b)
                                          for a, b in split_top(inner)]))
        return sites

    def locate(self, s, fn, text, off, depth=0):
        # Where a major expression lives: a list of (key, how) pairs, [] when the
        # expression is a constant that names no place, or raises Refusal.
        t = strip_parens(blank_keep(text)).strip()
        if not t:
            raise Refusal('empty major expression')
        v = int_value(t)
        if v is not None:
            return [(('const', str(v)), None)]
        if not side_effect_free(t):
            raise Refusal('the major %s has side effects' % t)
        if re.fullmatch(IDENT, t):
            return self.locate_ident(s, fn, t, depth)
        m = re.fullmatch(r'\*\s*(' + IDENT + ')', t)
        if m:
            return self.locate_deref(s, fn, m.group(1), depth)
        mm = re.fullmatch(r'(.*?)\s*(->|\.)\s*(' + IDENT + ')', t, re.S)
        if mm and mm.group(1):
            base, op, field = mm.group(1), mm.group(2), mm.group(3)
            # the position of the member in the file, for its type
            raw_end = off + len(text.rstrip())
            while raw_end > off and s.text[raw_end - 1] in ' \t\n)':
                raw_end -= 1
            fstart = raw_end - len(field)
            line = s.line_of(fstart)
            col = fstart - s.starts[line - 1]
            ty = MEMBER_TYPES.get((s.path, line, col))
            if not ty:
                raise Refusal('cannot tell the type of %s' % t)
            sm = re.search(r'struct\s+(' + IDENT + ')', ty[0])
            if sm:
                sname = sm.group(1)
            else:
                sname = re.sub(r'[\s*]|\[.*\]', '', ty[0])
            return [(('member', sname, field), (base.strip(), op))]
        m = re.fullmatch(r'(' + IDENT + r')\s*\[(.+)\]', t, re.S)
        if m:
            ds, d = self.global_decl(m.group(1))
            if d and d['dims'] and not self.is_local(s, fn, m.group(1)):
                return [(('elem', m.group(1)), m.group(2).strip())]
        raise Refusal('cannot tell where the major %s is kept' % t)

    def locate_ident(self, s, fn, name, depth):
        if self.is_local(s, fn, name):
            return [(('local', s.path, fn, name), None)]
        f = s.funcs.get(fn)
        if f is not None:
            for k, p in enumerate(f.params):
                if p and p['name'] == name:
                    if p['pointer']:
                        raise Refusal('the major %s is a pointer parameter of %s()' % (name, fn))
                    return self.through_param(fn, k, False, depth)
        ds, d = self.global_decl(name)
        if d is not None:
            if d['dims']:
                raise Refusal('the major %s is an array' % name)
            if d['static'] and not d['extern']:
                return [(('var', ds.path, name), None)]
            return [(('gvar', name), None)]
        if name in self.defines:
            v = int_value(name, self.defines)
            return [(('const', str(v) if v is not None else name), None)]
        if re.fullmatch(r'[A-Z0-9_]+', name):
            return [(('const', name), None)]
        return [(('gvar', name), None)]

    def locate_deref(self, s, fn, name, depth):
        f = s.funcs.get(fn)
        if f is not None:
            for k, p in enumerate(f.params):
                if p and p['name'] == name:
                    if not p['pointer']:
                        raise Refusal('*%s: %s is not a pointer' % (name, name))
                    return self.through_param(fn, k, True, depth)
        if self.is_local(s, fn, name):
            raise Refusal('the major is behind %s, a local pointer' % name)
        ds, d = self.global_decl(name)
        if d is not None and d['pointer']:
            return [(('deref', name), None)]
        raise Refusal('cannot tell what %s points to' % name)

    def through_param(self, fn, k, deref, depth):
        # The locations of the argument every caller passes for parameter k of fn.
        if depth > 3:
            raise Refusal('the major goes through more than 3 function parameters')
        sites = self.callers(fn)
        what = '*' if deref else ''
        if sites is None:
            raise Refusal('the major is %sparameter %d of %s(), whose address is taken' %
                          (what, k + 1, fn))
        if not sites:
            raise Refusal('the major is %sparameter %d of %s(), which no file given calls'
                          ' (give all the files of the driver)' % (what, k + 1, fn))
        found = {}
        for cs, caller, args in sites:
            if k >= len(args):
                raise Refusal('a call of %s() in %s has no argument %d' % (fn, cs.path, k + 1))
            a, b = args[k]
            text = cs.span_text(a, b)
            t = strip_parens(blank_keep(text)).strip()
            if deref:
                m = re.fullmatch(r'&\s*(.+)', t, re.S)
                if m:
                    locs = self.locate(cs, caller, m.group(1), a + text.index('&') + 1,
                                       depth + 1)
                elif re.fullmatch(IDENT, t):
                    locs = self.locate_deref(cs, caller, t, depth + 1)
                else:
                    raise Refusal('%s() is given %s for the major' % (fn, t))
            else:
                locs = self.locate(cs, caller, text, a, depth + 1)
            for lk, how in locs:
                if lk[0] in ('member', 'elem', 'local'):
                    raise Refusal('the major reaches %s() through a parameter from %s, '
                                  'which the handle cannot follow' % (fn, t))
                found[lk] = how
        if len(found) != 1:
            raise Refusal('%s() is called with different majors (%s)' %
                          (fn, ', '.join(sorted(loc_name(k) for k in found))))
        return list(found.items())

    # --- the registrations --------------------------------------------------------------

    def range_of(self, site):
        if site.name == 'register_chrdev' or site.name == 'unregister_chrdev':
            return ('0', '256')
        return (norm(site.args[1]), norm(site.args[2]))

    def reg_locations(self, r):
        s = src(r.file)
        locs = []
        rec = r.rec
        dynamic = int_value(r.args[0]) == 0
        if not dynamic and (side_effect_free(r.args[0]) or rec['ctx'] != 'assign'):
            # (a major argument with side effects names no place; whether its result is
            # needed is decided with the call)
            locs += self.locate(s, r.fn, rec['argtexts'][0], rec['args'][0][0])
        if rec['ctx'] == 'assign' and rec['x']:
            xa, xb = rec['x']
            locs += self.locate(s, r.fn, s.span_text(xa, xb), xa)
            for a, b in rec['aliases']:
                try:
                    locs += [(k, h) for k, h in self.locate(s, r.fn, s.span_text(a, b), a)
                             if k[0] != 'local']
                except Refusal:
                    pass
        rng = self.range_of(r)
        out = []
        for lk, how in locs:
            if lk[0] == 'const' and dynamic:
                continue
            if lk[0] == 'local':
                # a local variable holds this registration only, until assigned again
                lk = lk + (r.line, r.rec['col'])
            k = lk + rng
            if k not in r.inst:
                out.append(k)
                r.inst[k] = how
        r.locs = out

    def value_needed(self, r):
        # Whether the code uses the legacy result beyond its sign. Uses that only store the
        # major are left for r.idioms, which reg_text rewrites:
        #   if (X > 0) M = X;      ->  if (!X) M = cdev_compat_major(h);  (or, after a check
        #                              that leaves on X < 0: M = cdev_compat_major(h);)
        #   if (!M) M = X;         ->  M = cdev_compat_major(h);  (after such a check)
        #   Y = X;                 ->  Y = cdev_compat_major(h);  (after such a check)
        rec = r.rec
        r.idioms = []
        if rec['ctx'] in ('discard', 'sign'):
            return False
        if rec['ctx'] != 'assign' or not rec['stmt'] or not rec['x']:
            return True
        s = src(r.file)
        xa, xb = rec['x']
        xtext = s.span_text(xa, xb).strip()
        if not (re.fullmatch(IDENT, xtext) and self.is_local(s, r.fn, xtext)):
            return True
        zero = int_value(r.args[0]) == 0
        cands = []
        for i_off, (ma, mb) in rec['idioms']:
            end = self.statement_end(s, i_off)
            target = s.span_text(ma, mb).strip()
            pos = re.match(r'if\s*\(\s*' + re.escape(xtext) + r'\s*>\s*0\s*\)', s.code[i_off:end])
            if norm(target) != norm(r.args[0]) and not (pos and zero):
                continue
            if self.exit_checked(r, i_off):
                cands.append((i_off, end, '%s = cdev_compat_major(%s);' % (target, HOLE)))
            elif pos:
                body = s.text[i_off + pos.end():end]
                rhs = re.search(r'=\s*' + re.escape(xtext) + r'\s*;', body)
                cands.append((i_off, end, 'if (!%s)' % xtext + body[:rhs.start()] +
                              '= cdev_compat_major(%s);' % HOLE + body[rhs.end():]))
        for ya, yb in rec['aliases']:
            end = s.code.find(';', yb) + 1
            stmt = s.code[ya:end]
            target = s.span_text(ya, yb).strip()
            # (exact only for a dynamic request: for a fixed major the legacy result was 0)
            if zero and re.fullmatch(re.escape(s.code[ya:yb].strip()) + r'\s*=\s*' +
                                     re.escape(xtext) + r'\s*;', stmt.strip()) and \
                    self.exit_checked(r, ya):
                cands.append((ya, end, '%s = cdev_compat_major(%s);' % (target, HOLE)))
        used = set()
        uses = set(rec['uses'])
        for sp in rec['negbr']:
            uses &= set(rec['uses_nb'].get(sp, []))
        for a, b in sorted(uses):
            if (a, b) == (xa, xb):
                continue
            rest = s.code[b:b + 3].lstrip()
            if rest.startswith('=') and not rest.startswith('=='):
                continue        # assigned again
            if a in rec['sign_uses']:
                continue
            if any(sa <= a < sb for sa, sb in rec['negbr']):
                continue
            hit = [c for c in cands if c[0] <= a < c[1]]
            if hit:
                used.add(hit[0])
                continue
            return True
        r.idioms = sorted(used)
        return False

    def statement_end(self, s, off):
        # End offset of the if statement starting at off.
        po = s.code.index('(', off)
        pc = match_close(s.code, po)
        j = pc + 1
        while s.code[j].isspace():
            j += 1
        if s.code[j] == '{':
            return match_close(s.code, j) + 1
        return s.code.index(';', j) + 1

    def major_class(self, text):
        t = strip_parens(blank_keep(text)).strip()
        v = int_value(t, self.defines)
        if v is not None:
            return 'zero' if v == 0 else 'nonzero'
        if t in MAJOR_H:
            return 'nonzero'
        return 'pure' if lvalue_like(t) else 'impure'

    def minor_count(self, r):
        # The number of minors a register_chrdev() caller serves, when its code proves it:
        # open() and friends check or index the minor against one constant.
        if r.name != 'register_chrdev':
            return None
        s = src(r.file)
        fops = re.sub(r'^&\s*', '', strip_parens(r.args[2]))
        fns = FOPS.get(fops)
        rc_here = [x for x in self.regs if x.file == r.file and x.name == 'register_chrdev']
        if not fns and len(rc_here) != 1:
            return None
        counts = {}
        for mi in MINORS.values():
            if mi['file'] != r.file or (fns and mi['fn'] not in fns):
                continue
            for kind, info, line in mi['uses']:
                k = None
                if kind == 'bound':
                    k = info
                elif kind == 'index':
                    a = s.span_text(*info).strip()
                    ds, d = self.global_decl(a, [r.file])
                    if d and d['dims'] and len(d['dims']) == 1:
                        k = d['dims'][0]
                if k is not None:
                    k = re.sub(r'\s+', '', k)
                    am = re.fullmatch(r'ARRAY_SIZE\((' + IDENT + r')\)', k)
                    if am:
                        ds, d = self.global_decl(am.group(1), [r.file])
                        if d and d['dims']:
                            k = re.sub(r'\s+', '', d['dims'][0])
                    counts.setdefault(k, line)
        if len(counts) != 1:
            return None
        k = list(counts)[0]
        v = int_value(k, self.defines)
        if v is not None:
            if 0 < v <= 256:
                return k if v != 256 else None
            return None
        if int_value(r.args[0]) == 0 and k in self.module_params:
            return k
        return None

    # --- the plan -----------------------------------------------------------------------

    def plan(self):
        self.regs = [Site(rec, True) for _, rec in sorted(REGS.items())]
        self.unregs = [Site(rec, False) for _, rec in sorted(UNREGS.items())]
        self.check_coverage()
        bad = set()
        for x in self.regs + self.unregs:
            s = src(x.file)
            o = s.off(x.line, x.rec['col'])
            if s.code_pp[o] != s.code[o]:
                self.refuse(x.file, x.line, '%s(): inside a macro definition' % x.name)
                bad.add(id(x))
        for r in self.regs:
            if id(r) in bad:
                continue
            try:
                self.reg_locations(r)
            except Refusal as e:
                self.refuse(r.file, r.line, '%s(): %s' % (r.name, e))
                bad.add(id(r))
        for u in self.unregs:
            if id(u) in bad:
                continue
            try:
                s = src(u.file)
                locs = self.locate(s, u.fn, u.rec['argtexts'][0], u.rec['args'][0][0])
                if locs and locs[0][0][0] == 'local':
                    # the registrations whose stored result reaches this call
                    a = u.rec['args'][0][0]
                    a += len(s.text[a:]) - len(s.text[a:].lstrip())
                    locs = [(locs[0][0] + (r.line, r.rec['col']), None) for r in self.regs
                            if r.file == u.file and any(x[0] == a for x in r.rec['uses'])]
                rng = self.range_of(u)
                u.locs = [lk + rng for lk, how in locs]
                for lk, how in locs:
                    u.inst[lk + rng] = how
            except Refusal as e:
                self.refuse(u.file, u.line, '%s(): %s' % (u.name, e))
                bad.add(id(u))
        # Groups: registrations that share a place, and the unregistrations of that place.
        groups = []
        by_loc = {}
        for r in self.regs:
            if id(r) in bad:
                continue
            g = None
            for k in r.locs:
                if k in by_loc:
                    g = self.merge(groups, g, by_loc[k])
            if g is None:
                g = {'regs': [], 'unregs': [], 'locs': set()}
                groups.append(g)
            g['regs'].append(r)
            for k in r.locs:
                g['locs'].add(k)
                by_loc[k] = g
            for gg in groups:
                for k in gg['locs']:
                    by_loc[k] = gg
        for u in self.unregs:
            if id(u) in bad:
                continue
            gs = [by_loc[k] for k in u.locs if k in by_loc]
            if not gs:
                self.refuse(u.file, u.line, '%s(%s): no registration in the files given keeps '
                            'its major there (give all the files of the driver)' %
                            (u.name, u.args[0]))
                continue
            # one unregister call for several registrations (if/else branches storing into
            # one variable): they are one place, one handle
            g = gs[0]
            for other in gs[1:]:
                g = self.merge(groups, g, other)
            for gg in groups:
                for k in gg['locs']:
                    by_loc[k] = gg
            g['unregs'].append(u)
        self.groups = [g for g in groups if g['regs']]
        self.added = {}
        self.n_scalar = len([g for g in self.groups
                             if not set(k[0] for k in g['locs']) & {'member', 'elem'}])
        for n, g in enumerate(self.groups):
            for x in g['regs'] + g['unregs']:
                x.group = n
            try:
                self.decide(g)
            except Refusal as e:
                for r in g['regs']:
                    self.refuse(r.file, r.line, '%s(): %s' % (r.name, e))
                g['refused'] = True

    def merge(self, groups, a, b):
        if a is None or a is b:
            return b
        a['regs'] += b['regs']
        a['unregs'] += b['unregs']
        a['locs'] |= b['locs']
        groups.remove(b)
        return a

    def check_coverage(self):
        known = set()
        for x in list(REGS.values()) + list(UNREGS.values()):
            s = src(x['file'])
            known.add((x['file'], s.off(x['line'], x['col'])))
        for s in self.srcs:
            for m in CALL_RE.finditer(s.code):
                if (s.path, m.start(1)) not in known:
                    self.refuse(s.path, s.line_of(m.start()),
                                '%s: a use the conversion cannot follow (inside a macro, through a '
                                'function pointer, or in code spatch cannot parse)' % m.group(1))

    def decide(self, g):
        kinds = set(k[0] for k in g['locs'])
        regs, unregs = g['regs'], g['unregs']
        sites = regs + unregs
        files = sorted(set(x.file for x in sites))
        g['files'] = files
        if 'member' in kinds:
            sts = set(k[1:3] for k in g['locs'] if k[0] == 'member')
            if len(sts) != 1:
                raise Refusal('the major is kept in %s' % ' and '.join(
                    'struct %s.%s' % st for st in sorted(sts)))
            sname, field = list(sts)[0]
            self.embed_member(g, sname, field, sites)
        elif 'elem' in kinds:
            arrays = set(k[1] for k in g['locs'] if k[0] == 'elem')
            if len(arrays) != 1:
                raise Refusal('the major is kept in the arrays %s' % ', '.join(sorted(arrays)))
            self.handle_array(g, list(arrays)[0], sites)
        else:
            loops = [r for r in regs if r.rec['loop'] or self.in_do_loop(r)]
            if loops:
                raise Refusal('registers in a loop but keeps the major in one place (%s): '
                              'each registration needs its own handle' %
                              ', '.join(sorted(set(loc_name(k) for k in g['locs']))))
            for r in regs:
                self.check_invariant(r)
                if self.major_class(r.args[0]) != 'nonzero' and not self.module_lifetime(r.fn) \
                        and not self.guarded(r):
                    # (a fixed major registered twice fails the second time either way)
                    if self.lifetime(r.fn) == 'files':
                        raise Refusal('registers a major that may be dynamic in %s(), which runs '
                                      'from a file not given (give all the files of the module)'
                                      % r.fn)
                    raise Refusal('registers a major that may be dynamic in %s(), which may run '
                                  'more than once (a probe, a callback): one handle per '
                                  'registration belongs in the device struct' % r.fn)
            self.handle_scalar(g, sites)
        for r in regs:
            self.reg_text(g, r)
        for u in unregs:
            self.unreg_text(g, u)
        self.check_ranges(g)

    def guarded(self, r):
        # The registration only runs while the variable it stores the major in says it is
        # not registered (if (major == -1), if (major <= 0), ...).
        rec = r.rec
        if rec['ctx'] != 'assign' or not rec['x']:
            return False
        s = src(r.file)
        x = norm(s.span_text(*rec['x']))
        return any(norm(s.span_text(a, b)) == x for a, b in rec['guards']) and \
            not self.is_local(s, r.fn, x)

    def check_invariant(self, r):
        # One handle for a registration whose minors depend on a local variable or a
        # parameter would be registered again for other minors on the next call.
        if r.name != '__register_chrdev':
            return
        s = src(r.file)
        f = s.funcs.get(r.fn)
        params = set(p['name'] for p in (f.params if f else []) if p)
        for t in r.args[1:3]:
            for m in re.finditer(IDENT, t):
                v = m.group(0)
                if v in params or self.is_local(s, r.fn, v):
                    raise Refusal('the minors (%s, %s) depend on %s, which changes from call '
                                  'to call: one handle per registration belongs in the device '
                                  'struct (by hand)' % (r.args[1], r.args[2], v))

    def check_ranges(self, g):
        for u in g['unregs']:
            if not any(k in g['locs'] for k in u.locs):
                raise Refusal('%s:%d unregisters minors %s..+%s, not the range registered' %
                              (u.file, u.line, self.range_of(u)[0], self.range_of(u)[1]))

    def in_do_loop(self, r):
        s = src(r.file)
        off = s.off(r.line, r.rec['col'])
        f = s.func_at(off)
        if f is None:
            return False
        body = s.code_pp[f.body[0]:f.body[1]]
        for m in re.finditer(r'\bdo\s*\{', body):
            o = f.body[0] + m.end() - 1
            if o < off < match_close(s.code_pp, o):
                return True
        return False
