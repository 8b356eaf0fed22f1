# SPDX-License-Identifier: GPL-2.0-only
"""Where each handle goes (a static beside the major, an array beside a major array, a member
of the driver's struct) and the text of the calls that use it."""

import os
import re

from .facts import DEVM, FOPS, FREES
from .sites import HOLE, REGION, Refusal, side_effect_free
from .text import DQ, IDENT, src, strip_parens


class HandlePlacer(object):
    """Planner's methods that place the handles and write the calls (a mixin of Planner)."""

    def new_name(self, base, files, suffix='_region'):
        base = re.sub(r'[^A-Za-z0-9_]', '_', base).strip('_') or 'chrdev'
        if not re.match(r'[A-Za-z_]', base):
            base = 'dev_' + base
        taken = getattr(self, 'taken', set())
        names = [base + suffix, base + '_chrdev' + suffix]
        names += ['%s%d%s' % (base, n, suffix) for n in range(2, 100)]
        for name in names:
            if name not in taken and not any(re.search(r'\b%s\b' % name, src(f).code)
                                             for f in files):
                break
        taken.add(name)
        self.taken = taken
        return name

    def base_name(self, g):
        for k in sorted(g['locs']):
            if k[0] in ('var', 'gvar', 'deref', 'elem'):
                v = k[2] if k[0] == 'var' else k[1]
                b = re.sub(r'_?major(s)?$', '', v)
                if b and b != v or (b and k[0] == 'elem'):
                    return b
        r = g['regs'][0]
        fops = re.sub(r'^&\s*', '', strip_parens(r.args[-1]))
        m = re.match(r'(' + IDENT + r'?)_?f(?:ile_?)?op(?:eration)?s$', fops)
        if m and m.group(1):
            return m.group(1)
        return os.path.basename(r.file).rsplit('.', 1)[0]

    def handle_scalar(self, g, sites):
        files = g['files']
        emb = self.find_embed(g)
        if emb:
            s, inst, op, sname, member = emb
            g['handle'] = dict((id(x), '&%s%s%s' % (inst, op, member)) for x in sites)
            self.add_member(g, sname, member, None)
            return
        name = self.new_name(self.base_name(g), files)
        g['handle'] = dict((id(x), '&' + name) for x in sites)
        home = g['regs'][0].file
        var = None
        for k in sorted(g['locs']):
            if k[0] == 'var' and k[1] == home:
                var = k[2]
            elif k[0] in ('gvar', 'deref') and var is None:
                ds, d = self.global_decl(k[1], [home])
                if d and not d['extern']:
                    var = k[1]
        shared = len(files) > 1
        decl = '%s%s %s;' % ('' if shared else 'static ', REGION, name)
        g.setdefault('inserts', []).append((home, self.after_decl_line(home, var, g), decl))
        if shared:
            self.extern_decl(g, name, files, home, '%s %s;' % (REGION, name))

    def extern_decl(self, g, name, files, home, decl):
        # extern declaration of a handle in the header every other file includes.
        others = [f for f in files if f != home]
        var = None
        for k in sorted(g['locs']):
            if k[0] in ('gvar', 'deref'):
                var = k[1]
        for s in self.srcs:
            if not s.path.endswith('.h'):
                continue
            d = s.globals.get(var) if var else None
            if not d or not d['extern']:
                continue
            if all(self.includes(f, s.path) for f in others + [home]):
                line = s.line_of(d['item'].end - 1)
                g['inserts'].append((s.path, line, 'extern ' + decl))
                g['files'] = sorted(set(g['files']) | {s.path})
                return
        raise Refusal('the major %s is shared by %s, and no header they all include declares '
                      'it extern (the handle needs the same)' % (var, ', '.join(files)))

    def includes(self, cfile, header):
        if cfile == header:
            return True
        s = src(cfile)
        for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*' + DQ + '([^' + DQ + ']+)' + DQ,
                             s.text, re.M):
            p = os.path.normpath(os.path.join(os.path.dirname(cfile), m.group(1)))
            if p == os.path.normpath(header):
                return True
        return False

    def find_embed(self, g):
        # (Src, instance, op, struct, member) to embed a scalar handle in, or None.
        regs = g['regs']
        files = g['files']
        if self.embed:
            sname, member = self.embed.split('.', 1)
            if self.n_scalar > 1:
                raise Refusal('--embed %s names one member, and the files keep %d majors outside '
                              'any struct' % (self.embed, self.n_scalar))
            cands = self.instances(sname, files)
            if len(cands) != 1:
                raise Refusal('--embed %s: %s file-scope instance%s of struct %s where it '
                              'registers' % (self.embed, 'no' if not cands else 'more than one',
                                             '' if not cands else 's', sname))
            s, inst, d = cands[0]
            if d['pointer'] and not all(self.assigned_before(r, inst) for r in regs):
                raise Refusal('--embed %s: %s is not set before the registration in %s()' %
                              (self.embed, inst, regs[0].fn))
            return (s, inst, '->' if d['pointer'] else '.', sname,
                    self.member_name(sname))
        # Automatically: the one struct instance in static storage that the fops use.
        cands = set()
        for r in regs:
            fops = re.sub(r'^&\s*', '', strip_parens(r.args[-1]))
            for fn in FOPS.get(fops, ()):
                for s in self.srcs:
                    f = s.funcs.get(fn)
                    if f is None:
                        continue
                    body = s.code_pp[f.body[0]:f.body[1]]
                    for name, d in s.globals.items():
                        if d['dims'] or d['pointer'] or not d['type'].startswith('struct '):
                            continue
                        sn = d['type'].split()[1]
                        # the driver's own state: a struct of this file, an instance in
                        # zeroed static storage (no initializer: not an ops table)
                        if sn not in s.structs or self.initialized(s, name) or \
                                re.search(r'\bconst\b', d['type']):
                            continue
                        if re.search(r'\b%s\b' % name, body):
                            cands.add((s.path, name, sn))
        if len(cands) != 1:
            return None
        path, inst, sname = list(cands)[0]
        if any(not self.visible(f, path, inst) for f in files):
            return None
        member = self.member_name(sname, self.base_name(g))
        return (src(path), inst, '.', sname, member)

    def initialized(self, s, name):
        for it in s.items:
            if name in (getattr(it, 'names', None) or []) or (
                    it.kind == 'struct' and re.search(r'\}\s*%s\b' % name,
                                                      s.code_pp[it.start:it.end])):
                if '=' in s.code_pp[it.start:it.end].split(name, 1)[-1]:
                    return True
        return False

    def visible(self, f, path, name):
        if f == path:
            return True
        d = src(f).globals.get(name)
        return bool(d)

    def struct_defs(self):
        out = {}
        for s in self.srcs:
            for n, it in s.structs.items():
                out.setdefault(n, (s, it))
        return out

    def instances(self, sname, files):
        out = []
        for s in self.srcs:
            for name, d in s.globals.items():
                if d['extern'] or d['dims'] or d['type'] != 'struct ' + sname:
                    continue
                if all(self.visible(f, s.path, name) for f in files):
                    out.append((s, name, d))
        return out

    def assigned_before(self, r, inst):
        s = src(r.file)
        off = s.off(r.line, r.rec['col'])
        f = s.func_at(off)
        if f is None:
            return False
        return bool(re.search(r'\b%s\s*=(?!=)' % re.escape(inst), s.code_pp[f.body[0]:off]))

    def member_name(self, sname, base=None):
        # A free member name in struct sname: the one --embed gives for it (refused when
        # taken), else region, or <base>_region when region is taken.
        sd = self.struct_defs().get(sname)
        if sd is None:
            raise Refusal('struct %s is not defined in the files given' % sname)
        s, it = sd
        body = s.code_pp[it.body[0]:it.body[1]]
        added = self.added.setdefault(sname, set())

        def free(n):
            return n not in added and not re.search(r'\b%s\b' % n, body)
        if self.embed and self.embed.split('.', 1)[0] == sname:
            want = self.embed.split('.', 1)[1]
            if not free(want):
                raise Refusal('--embed %s: struct %s already has a member %s' %
                              (self.embed, sname, want))
            added.add(want)
            return want
        for n in ['region'] + ([base + '_region'] if base else []) + ['cdev_region']:
            if free(n):
                added.add(n)
                return n
        raise Refusal('struct %s already has members named region and cdev_region' % sname)

    def embed_member(self, g, sname, field, sites):
        member = self.member_name(sname, self.base_name(g))
        self.check_lifetime(sname)
        handle = {}
        for x in sites:
            how = None
            for k in x.locs:
                if k[0] == 'member' and k[1] == sname and x.inst.get(k):
                    how = x.inst[k]
                    break
            if how is None:
                raise Refusal('cannot tell which struct %s %s:%d means' % (sname, x.file, x.line))
            base, op = how
            if not side_effect_free(base):
                raise Refusal('%s%s%s: the struct is reached through an expression with side '
                              'effects' % (base, op, field))
            handle[id(x)] = '&%s%s%s' % (base, op, member)
        g['handle'] = handle
        self.add_member(g, sname, member, field)

    def add_member(self, g, sname, member, after_field):
        s, it = self.struct_defs()[sname]
        body_start, body_end = it.body
        line = None
        if after_field:
            for m in re.finditer(r'\b%s\b' % after_field, s.code_pp[body_start:body_end]):
                o = body_start + m.start()
                line = s.line_of(s.code_pp.index(';', o))
                break
        close_line = s.line_of(body_end - 1)
        if line is None or s.depth_at_line(line) != s.depth_at_line(close_line):
            line = close_line - 1
        ind = re.match(r'[ \t]*', s.line_text(line)).group(0) or '\t'
        if s.line_of(body_start) == close_line or line < s.line_of(body_start):
            raise Refusal('struct %s is defined on one line' % sname)
        g.setdefault('inserts', []).append((s.path, line, '%s%s %s;' % (ind, REGION, member)))
        g['files'] = sorted(set(g['files']) | {s.path})

    def check_lifetime(self, sname):
        t = 'struct ' + sname
        if t in DEVM:
            raise Refusal('struct %s is allocated with devm_*() and freed when the device goes, '
                          'maybe while a file is open; embedding the cdev needs region.parent '
                          'set to a kobject that outlives the last close (by hand)' % sname)
        for f, fn, ty in FREES:
            if re.sub(r'\s+', ' ', ty) == t and not self.module_lifetime(fn):
                raise Refusal('struct %s is freed in %s(), not only when the module goes: a '
                              'cdev embedded in it could be freed while a file is open; set '
                              'region.parent to a kobject that outlives the last close (by '
                              'hand)' % (sname, fn))

    def module_lifetime(self, fn):
        return self.lifetime(fn) == 'init'

    def lifetime(self, fn, seen=None):
        # When fn runs: init (only from module init or exit, so its frees happen when no
        # file of the module can be open, and it registers once), files (reached from a
        # function that files not given call: unknown), or more (a callback, a probe: may
        # run more than once).
        seen = seen if seen is not None else set()
        if fn in seen:
            return 'init'
        seen.add(fn)
        static = True
        for s in self.srcs:
            f = s.funcs.get(fn)
            if f is not None:
                if f.is_init or f.is_exit:
                    return 'init'
                static = static and f.static
            if re.search(r'\b(?:module_init|module_exit|__initcall|console_initcall|(?:early|'
                         r'core|postcore|arch|subsys|fs|rootfs|device|late)_initcall(?:_sync)?)'
                         r'\s*\(\s*%s\s*\)' % re.escape(fn), s.code):
                return 'init'
        sites = self.callers(fn)
        if sites is None:
            return 'more'
        if not sites:
            return 'more' if static else 'files'
        whens = [self.lifetime(caller, seen) for _, caller, _ in sites]
        if all(w == 'init' for w in whens):
            return 'init'
        return 'more' if 'more' in whens else 'files'

    def handle_array(self, g, array, sites):
        ds, d = self.global_decl(array)
        if ds is None or d['extern'] or len(g['files']) > 1:
            raise Refusal('the majors are kept in %s, shared between files' % array)
        name = self.new_name(self.base_name(g), g['files'], '_regions')
        handle = {}
        for x in sites:
            idx = None
            for k in x.locs:
                if k[0] == 'elem' and k[1] == array:
                    idx = x.inst[k]
            if idx is None:
                raise Refusal('cannot tell which element of %s %s:%d means' %
                              (array, x.file, x.line))
            handle[id(x)] = '&%s[%s]' % (name, idx)
        g['handle'] = handle
        dims = ''.join('[%s]' % dd.strip() for dd in d['dims'])
        line = ds.line_of(d['item'].end - 1)
        g.setdefault('inserts', []).append(
            (ds.path, line, 'static %s %s%s;' % (REGION, name, dims)))

    def after_decl_line(self, path, var, g):
        # The line after which a file-scope handle is declared: after the own
        # declaration, else after the last file-scope variable before the first function that
        # uses the handle, else before that function.
        s = src(path)
        if var and var in s.globals:
            d = s.globals[var]
            if not d['extern']:
                it = d['item']
                # past module_param(var, ...) and the like, which belong with it
                k = s.items.index(it) + 1
                while k < len(s.items) and s.items[k].kind == 'other' and re.search(
                        r'\b%s\b|^\s*MODULE_PARM_DESC\b' % re.escape(var),
                        s.code_pp[s.items[k].start:s.items[k].end]):
                    it = s.items[k]
                    k += 1
                line = s.line_of(it.end - 1)
                if s.depth_at_line(line) == 0:
                    return line
        first = min(s.off(x.line, x.rec['col']) for x in g['regs'] + g['unregs']
                    if x.file == path)
        f = s.func_at(first)
        limit = f.start if f else first
        best, state = None, None
        for it in s.items:
            if it.start >= limit:
                break
            text = s.code_pp[it.start:it.end]
            if it.kind == 'decl' and getattr(it, 'names', None) and \
                    s.depth_at_line(s.line_of(it.end - 1)) == 0 and \
                    not re.match(r'\s*extern\b', text):
                best = it
                if '=' not in text and not re.search(r'\bconst\b', text):
                    state = it
        best = state or best
        if best is not None:
            return s.line_of(best.end - 1)
        # before the function and the comment above it: a blank line follows
        line = s.line_of(limit)
        while line > 1 and re.match(r'\s*([/][*]|[*]|[/][/])', s.line_text(line - 1)):
            line -= 1
        return -(line - 1)

    # --- the new text -------------------------------------------------------------------

    def reg_text(self, g, r):
        h = g['handle'][id(r)]
        m, n, f = r.args[0], r.args[-2], r.args[-1]
        for t in r.raw:
            if re.search(r'[/][/]', t):
                raise Refusal('a line comment inside the call')
        if not side_effect_free(n) or not side_effect_free(f):
            raise Refusal('an argument with side effects')
        count = self.minor_count(r)
        r.idioms = []
        if r.name == 'register_chrdev' and count is None:
            # returns what register_chrdev() returned: every use keeps its meaning
            call = ['cdev_compat_register_chrdev(' + h, m, n, f]
            tail = None
        else:
            need = self.value_needed(r)
            b, c = ('0', count) if r.name == 'register_chrdev' else (r.args[1], r.args[2])
            call = ['cdev_compat_register(' + h, m, b, c, n, f]
            tail = None
            if need:
                cls = self.major_class(m)
                if cls == 'zero':
                    tail = 'cdev_compat_major(%s)' % h
                elif cls == 'pure':
                    tail = '(%s ? 0 : cdev_compat_major(%s))' % (m, h)
                elif cls == 'impure':
                    raise Refusal('the major argument %s has side effects, and the legacy '
                                  'result is used' % m)
        r.count = count
        r.call = call
        r.tail = tail
        r.paren = tail is not None and not (r.rec['ctx'] == 'assign' and r.rec['stmt'])
        s = src(r.file)
        r.idiom_edits = [(i_off, end, text.replace(HOLE, h))
                         for i_off, end, text in r.idioms]

    def exit_checked(self, r, i_off):
        # Whether a negative result left the function before i_off: an if (X < 0) branch
        # that ends in return or goto, in the same block, with no label in between.
        s = src(r.file)
        start = s.off(r.line, r.rec['col'])
        for a, b in r.rec['negbr']:
            if not start < a < i_off:
                continue
            body = s.code_pp[a:b].strip()
            if body.startswith('{'):
                body = body[1:-1].strip()
            last = [x for x in re.split(r';', body) if x.strip()]
            if not last or not re.match(r'\s*(return\b|goto\b)', last[-1]):
                continue
            between = s.code_pp[start:i_off]
            if re.search(r'^\s*' + IDENT + r'\s*:(?!:)', between, re.M):
                continue
            if self.depth(s, start) == self.depth(s, a) == self.depth(s, i_off):
                return True
        return False

    def depth(self, s, off):
        f = s.func_at(off)
        if f is None:
            return -1
        d = 0
        for c in s.code_pp[f.body[0]:off]:
            if c == '{':
                d += 1
            elif c == '}':
                d -= 1
        return d

    def unreg_text(self, g, u):
        if not u.rec['stmt']:
            raise Refusal('%s:%d: the result of %s() is used' % (u.file, u.line, u.name))
        for a in u.args[1:]:
            if not side_effect_free(a):
                raise Refusal('%s:%d: %s() has an argument with side effects (%s)' %
                              (u.file, u.line, u.name, a))
        u.call = ['cdev_compat_unregister(' + g['handle'][id(u)]]
