// SPDX-License-Identifier: GPL-2.0-only
/// Move register_chrdev()/__register_chrdev() callers onto the cdev interface
/// through the cdev-compat helpers, whole or not at all, and report the code
/// that looks devices up by minor number.
///
/// The SmPL rules below only find things: the register and unregister calls,
/// where each result goes and how it is used, where each major lives (a
/// variable, an array element, a struct member, behind a pointer parameter),
/// loops, frees, the fops tables and every minor-number use. The Python at the
/// end decides, for all the files given at once, and edits their text:
///
///  - one struct cdev_compat_region handle per place a major lives: a static
///    beside the major variable, an array beside a major array, or a member of
///    the driver's own struct for a major kept in that struct (per-device
///    majors), or for --embed STRUCT.member / the one struct the fops use;
///  - each register call replaced in place by cdev_compat_register_chrdev()
///    or cdev_compat_register() (the minor count the driver serves when it
///    checks or indexes the minor against a constant), with the legacy result
///    kept wherever it is used: the major for a dynamic request, via
///    cdev_compat_major(&handle);
///  - each unregister call tied to the handle of the major it names, through
///    function parameters and across files, replaced by
///    cdev_compat_unregister(&handle).
///
/// A file whose every registration and unregistration cannot be converted
/// that way is left unchanged, and so is every file sharing a registration
/// with it; each reason is written, with its line, for the tool to print.
//
// Confidence: High for what it converts (every case it cannot prove is refused)
// Options: --no-includes --include-headers
// Environment: CDEV_COMPAT_MIGRATE_OUT (result directory, required),
// CDEV_COMPAT_MIGRATE_EMBED (STRUCT.member), CDEV_COMPAT_MIGRATE_INCLUDE (0: add no
// #include), CDEV_COMPAT_MIGRATE_DEFINE (0: add no CDEV_COMPAT_DEFINE_HELPERS).

virtual patch
virtual report

@initialize:python@
@@
import os
import re

# ---------------------------------------------------------------------------------------
# C text helpers: comments, strings and preprocessor lines blanked (offsets kept), the
# top-level items of a file (functions, structs, declarations).

# No two slashes in a row and no double quote here: the SmPL lexer reads the Python too.
DQ, SQ = chr(34), chr(39)
QUOTES = DQ + SQ
BLANK_RE = re.compile('[/][/][^\\n]*|[/][*].*?[*][/]|' +
                      DQ + r'(?:\\.|[^' + DQ + r'\\\n])*' + DQ + '|' +
                      SQ + r'(?:\\.|[^' + SQ + r'\\\n])*' + SQ, re.S)
IDENT = r'[A-Za-z_][A-Za-z0-9_]*'
KEYWORDS = {'static', 'extern', 'const', 'volatile', 'struct', 'union', 'enum', 'unsigned',
            'signed', 'int', 'long', 'short', 'char', 'void', 'register', 'inline',
            '__read_mostly', '__initdata', '__devinitdata', 'typedef', 'bool', 'u8', 'u16',
            'u32', 'u64', 'dev_t', 'size_t', 'unsigned int'}


def blank(text):
    # Comments and string/char literals replaced by spaces, newlines kept.
    def rep(m):
        s = m.group(0)
        if s[0] in QUOTES:
            return s[0] + re.sub(r'[^\n]', ' ', s[1:-1]) + s[-1]
        return re.sub(r'[^\n]', ' ', s)
    return BLANK_RE.sub(rep, text)


def blank_pp(code):
    # Preprocessor lines (and their continuations) replaced by spaces.
    out = []
    cont = False
    for line in code.split('\n'):
        if cont or line.lstrip().startswith('#'):
            cont = line.rstrip().endswith('\\')
            out.append(' ' * len(line))
        else:
            out.append(line)
    return '\n'.join(out)


def match_close(code, i):
    # Offset of the bracket closing the one at code[i] (or -1).
    pairs = {'(': ')', '[': ']', '{': '}'}
    stack = []
    for j in range(i, len(code)):
        c = code[j]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ')]}':
            if not stack or stack.pop() != c:
                return -1
            if not stack:
                return j
    return -1


def split_top(s, sep=','):
    # s split at sep outside brackets; returns (start, end) offsets of the parts.
    parts, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == sep and depth == 0:
            parts.append((start, i))
            start = i + 1
    parts.append((start, len(s)))
    return parts


def norm(s):
    # The text of an expression without comments and white space.
    return re.sub(r'\s+', '', blank_keep(s))


def blank_keep(s):
    return BLANK_RE.sub(lambda m: m.group(0) if m.group(0)[0] in QUOTES else ' ', s)


def strip_parens(s):
    s = s.strip()
    while s.startswith('(') and match_close(s, 0) == len(s) - 1:
        s = s[1:-1].strip()
    return s


def declarator(s):
    s = s.split('=')[0]
    m = re.search(r'(' + IDENT + r')\s*((?:\[[^\]]*\]\s*)*)$', s.strip())
    if not m:
        return None
    dims = re.findall(r'\[([^\]]*)\]', m.group(2))
    return {'name': m.group(1), 'dims': dims,
            'pointer': s.strip()[:m.start()].rstrip().endswith('*')}



class Item(object):
    def __init__(self, kind, start, end):
        self.kind, self.start, self.end = kind, start, end
        self.name = None


class Src(object):
    # One source file: its text, blanked code and top-level items.

    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            self.text = f.read()
        self.starts = [0] + [m.end() for m in re.finditer('\n', self.text)]
        self.code = blank(self.text)
        self.code_pp = blank_pp(self.code)
        self.ifdepth = self._ifdepth()
        self.items = []
        self.funcs = {}
        self.structs = {}
        self.globals = {}
        self._scan()

    def off(self, line, col):
        return self.starts[line - 1] + col

    def line_of(self, off):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if self.starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def line_text(self, line):
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1]:end]

    def _ifdepth(self):
        depth, out = 0, []
        for line in self.code.split('\n'):
            t = line.strip().replace(' ', '').replace('\t', '')
            if t.startswith(('#if', '#ifdef', '#ifndef')):
                out.append(depth)
                depth += 1
                continue
            if t.startswith('#endif'):
                depth -= 1
            out.append(depth)
        return out

    def depth_at_line(self, line):
        # the #if nesting at a line, not counting the include guard of a header
        d = self.ifdepth[line - 1] if line - 1 < len(self.ifdepth) else 0
        m = re.match(r'\s*[ \t]*#[ \t]*ifndef[ \t]+(' + IDENT + r')[ \t]*\n[ \t]*#[ \t]*define[ \t]+(' +
                     IDENT + ')', self.code)
        if m and m.group(1) == m.group(2) and line > self.line_of(m.start(1)):
            d -= 1
        return max(d, 0)

    def _scan(self):
        code = self.code_pp
        i, n = 0, len(code)
        start = None
        while i < n:
            c = code[i]
            if start is None:
                if c.isspace():
                    i += 1
                    continue
                start = i
            if c in '([':
                j = match_close(code, i)
                if j < 0:
                    return
                i = j + 1
                continue
            if c == '{':
                head = code[start:i]
                j = match_close(code, i)
                if j < 0:
                    return
                if head.rstrip().endswith(')') and '=' not in head.replace('==', ''):
                    it = Item('func', start, j + 1)
                    it.body = (i, j + 1)
                    self._func(it, head)
                    self.items.append(it)
                    start = None
                    i = j + 1
                    continue
                i = j + 1
                continue
            if c == ';':
                it = Item('decl', start, i + 1)
                self._decl(it)
                self.items.append(it)
                start = None
            i += 1

    def _func(self, it, head):
        best = None
        for m in re.finditer(r'(' + IDENT + r')\s*\(', head):
            if m.group(1) in ('__attribute__', '__acquires', '__releases', '__must_hold',
                              '__printf', '__scanf', '__aligned', '__section'):
                continue
            if best is None:
                best = m
        if best is None:
            it.kind = 'other'
            return
        it.name = best.group(1)
        po = head.index('(', best.end() - 1)
        pc = match_close(head, po)
        it.params = []
        ptext = head[po + 1:pc]
        for a, b in split_top(ptext):
            p = ptext[a:b].strip()
            m = re.search(r'(' + IDENT + r')\s*(\[[^\]]*\])?\s*$', p)
            if not m or p in ('void', '...'):
                it.params.append(None)
                continue
            it.params.append({'name': m.group(1), 'pointer': '*' in p[:m.start()],
                              'type': p[:m.start()].strip()})
        it.head = head
        it.is_init = bool(re.search(r'\b__init\b', head))
        it.is_exit = bool(re.search(r'\b__exit\b', head))
        it.static = bool(re.search(r'\bstatic\b', head))
        self.funcs.setdefault(it.name, it)

    def _decl(self, it):
        text = self.code_pp[it.start:it.end - 1]
        m = re.match(r'\s*(?:typedef\s+)?(?:(?:static|const|volatile)\s+)*(struct|union)\s+(' +
                     IDENT + r')?\s*\{', text)
        if m:
            bo = text.index('{', m.start())
            bc = match_close(text, bo)
            it.kind = 'struct'
            it.name = m.group(2)
            it.body = (it.start + bo, it.start + bc + 1)
            rest = text[bc + 1:].strip()
            if text.lstrip().startswith('typedef'):
                if re.match(IDENT + '$', rest):
                    it.name = rest
                rest = ''
            if it.name:
                self.structs.setdefault(it.name, it)
            if rest:
                for a, b in split_top(rest):
                    d = declarator(rest[a:b])
                    if d:
                        d.update({'type': 'struct ' + (m.group(2) or ''), 'item': it,
                                  'static': text.lstrip().startswith('static'),
                                  'extern': False})
                        self.globals.setdefault(d['name'], d)
            return
        parts = split_top(text)
        first = text[parts[0][0]:parts[0][1]]
        eq = split_top(first, '=')
        head = first[eq[0][0]:eq[0][1]]
        if '(' in head.split('[')[0]:
            it.kind = 'other'
            return
        mname = re.search(r'(' + IDENT + r')\s*((?:\[[^\]]*\]\s*)*)$', head)
        if not mname or mname.group(1) in KEYWORDS:
            it.kind = 'other'
            return
        typ = head[:mname.start()].replace('*', ' ').split()
        storage = [w for w in typ if w in ('static', 'extern')]
        typ = ' '.join(w for w in typ if w not in ('static', 'extern', '__read_mostly'))
        if not typ:
            it.kind = 'other'
            return
        it.names = []
        for k, (a, b) in enumerate(parts):
            d = declarator(text[a:b] if k else head + (
                first[eq[0][1]:] if len(eq) > 1 else ''))
            if not d:
                continue
            d.update({'type': typ, 'item': it, 'static': 'static' in storage,
                      'extern': 'extern' in storage})
            if k == 0:
                d['pointer'] = head[:mname.start()].rstrip().endswith('*')
            it.names.append(d['name'])
            if d['extern'] and d['name'] in self.globals:
                continue
            self.globals[d['name']] = d

    def func_at(self, off):
        for it in self.items:
            if it.kind == 'func' and it.start <= off < it.end:
                return it
        return None

    def call_span(self, line, col):
        # (start, open paren, close paren) of the call whose name starts at line:col.
        s = self.off(line, col)
        po = self.code.index('(', s)
        pc = match_close(self.code, po)
        return s, po, pc

    def call_args(self, line, col):
        s, po, pc = self.call_span(line, col)
        inner = self.code[po + 1:pc]
        return [(po + 1 + a, po + 1 + b) for a, b in split_top(inner)]

    def span_text(self, a, b):
        return self.text[a:b]


SRCS = {}


def src(path):
    if path not in SRCS:
        SRCS[path] = Src(path)
    return SRCS[path]


# ---------------------------------------------------------------------------------------
# Facts, filled by the rules below.

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

# ---------------------------------------------------------------------------------------
# The decisions. Everything below runs once, after every file was matched.

# <linux/major.h> (uapi): every major it names is a fixed, non-zero one, except
# UNNAMED_MAJOR.
MAJOR_H = set((
    'MEM_MAJOR RAMDISK_MAJOR FLOPPY_MAJOR PTY_MASTER_MAJOR IDE0_MAJOR HD_MAJOR '
    'PTY_SLAVE_MAJOR TTY_MAJOR TTYAUX_MAJOR LP_MAJOR VCS_MAJOR LOOP_MAJOR '
    'SCSI_DISK0_MAJOR SCSI_TAPE_MAJOR MD_MAJOR MISC_MAJOR SCSI_CDROM_MAJOR MUX_MAJOR '
    'XT_DISK_MAJOR INPUT_MAJOR SOUND_MAJOR CDU31A_CDROM_MAJOR JOYSTICK_MAJOR '
    'GOLDSTAR_CDROM_MAJOR OPTICS_CDROM_MAJOR SANYO_CDROM_MAJOR MITSUMI_X_CDROM_MAJOR '
    'MFM_ACORN_MAJOR SCSI_GENERIC_MAJOR IDE1_MAJOR DIGICU_MAJOR DIGI_MAJOR '
    'MITSUMI_CDROM_MAJOR CDU535_CDROM_MAJOR STL_SERIALMAJOR MATSUSHITA_CDROM_MAJOR '
    'STL_CALLOUTMAJOR MATSUSHITA_CDROM2_MAJOR QIC117_TAPE_MAJOR MATSUSHITA_CDROM3_MAJOR '
    'MATSUSHITA_CDROM4_MAJOR STL_SIOMEMMAJOR ACSI_MAJOR AZTECH_CDROM_MAJOR FB_MAJOR '
    'MTD_BLOCK_MAJOR CM206_CDROM_MAJOR IDE2_MAJOR IDE3_MAJOR Z8530_MAJOR XPRAM_MAJOR '
    'NETLINK_MAJOR PS2ESDI_MAJOR IDETAPE_MAJOR Z2RAM_MAJOR APBLOCK_MAJOR DDV_MAJOR '
    'NBD_MAJOR RISCOM8_NORMAL_MAJOR DAC960_MAJOR RISCOM8_CALLOUT_MAJOR MKISS_MAJOR '
    'DSP56K_MAJOR IDE4_MAJOR IDE5_MAJOR SCSI_DISK1_MAJOR SCSI_DISK2_MAJOR '
    'SCSI_DISK3_MAJOR SCSI_DISK4_MAJOR SCSI_DISK5_MAJOR SCSI_DISK6_MAJOR '
    'SCSI_DISK7_MAJOR COMPAQ_SMART2_MAJOR COMPAQ_SMART2_MAJOR1 COMPAQ_SMART2_MAJOR2 '
    'COMPAQ_SMART2_MAJOR3 COMPAQ_SMART2_MAJOR4 COMPAQ_SMART2_MAJOR5 COMPAQ_SMART2_MAJOR6 '
    'COMPAQ_SMART2_MAJOR7 SPECIALIX_NORMAL_MAJOR SPECIALIX_CALLOUT_MAJOR AURORA_MAJOR '
    'I2O_MAJOR SHMIQ_MAJOR SCSI_CHANGER_MAJOR IDE6_MAJOR IDE7_MAJOR IDE8_MAJOR '
    'MTD_CHAR_MAJOR IDE9_MAJOR DASD_MAJOR MDISK_MAJOR UBD_MAJOR PP_MAJOR JSFD_MAJOR '
    'PHONE_MAJOR COMPAQ_CISS_MAJOR COMPAQ_CISS_MAJOR1 COMPAQ_CISS_MAJOR2 '
    'COMPAQ_CISS_MAJOR3 COMPAQ_CISS_MAJOR4 COMPAQ_CISS_MAJOR5 COMPAQ_CISS_MAJOR6 '
    'COMPAQ_CISS_MAJOR7 VIODASD_MAJOR VIOCD_MAJOR ATARAID_MAJOR SCSI_DISK8_MAJOR '
    'SCSI_DISK9_MAJOR SCSI_DISK10_MAJOR SCSI_DISK11_MAJOR SCSI_DISK12_MAJOR '
    'SCSI_DISK13_MAJOR SCSI_DISK14_MAJOR SCSI_DISK15_MAJOR UNIX98_PTY_MASTER_MAJOR '
    'UNIX98_PTY_SLAVE_MAJOR DRBD_MAJOR RTF_MAJOR RAW_MAJOR USB_ACM_MAJOR '
    'USB_ACM_AUX_MAJOR USB_CHAR_MAJOR MMC_BLOCK_MAJOR VXVM_MAJOR VXSPEC_MAJOR '
    'VXDMP_MAJOR XENVBD_MAJOR MSR_MAJOR CPUID_MAJOR OSST_MAJOR IBM_TTY3270_MAJOR '
    'IBM_FS3270_MAJOR VIOTAPE_MAJOR BLOCK_EXT_MAJOR SCSI_OSD_MAJOR '
).split())

# Calls that may be dropped with the arguments of an unregister call: they have no side effect.
PURE_CALLS = {'num_possible_cpus', 'num_online_cpus', 'num_present_cpus', 'ARRAY_SIZE',
              'MAJOR', 'MINOR', 'MKDEV', 'sizeof', 'dev_name', 'kobject_name', 'KBUILD_MODNAME'}
REGION = 'struct cdev_compat_region'
# (No hash sign before a directive name in a string: the SmPL lexer would take it.)
NL = chr(10)
HOLE = chr(1)   # where the handle goes in a rewritten statement
INCLUDE = chr(35) + 'include <cdev_compat.h>'
DEFINE = chr(35) + 'define CDEV_COMPAT_DEFINE_HELPERS'
CALL_RE = re.compile(r'(?<![A-Za-z0-9_])((?:__)?(?:un)?register_chrdev)(?![A-Za-z0-9_])')


class Refusal(Exception):
    pass


def loc_name(k):
    # what a location key names, for messages
    if k[0] == 'var':
        return k[2]
    if k[0] == 'local':
        return k[3]
    if k[0] == 'member':
        return 'struct %s.%s' % (k[1], k[2])
    return str(k[1])


def int_value(text, defines=None, depth=0):
    t = strip_parens(blank_keep(text)).strip()
    m = re.fullmatch(r'(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*', t)
    if m:
        return int(m.group(1), 0)
    if defines is not None and depth < 8 and t in defines:
        return int_value(defines[t], defines, depth + 1)
    return None


def side_effect_free(text):
    t = blank_keep(text)
    if re.search(r'\+\+|--|(?<![=!<>])=(?!=)', t):
        return False
    for m in re.finditer(r'(' + IDENT + r')\s*\(', t):
        if m.group(1) not in PURE_CALLS:
            return False
    return True


def lvalue_like(text):
    # An identifier, *p, a member or an element: reads it twice, same value.
    t = strip_parens(blank_keep(text)).strip()
    return bool(re.fullmatch(r'[\w\s\->.\[\]*&]+', t)) and side_effect_free(t)


def width(s):
    return len(s.expandtabs(8))


def indent_to(col):
    return '\t' * (col >> 3) + ' ' * (col & 7)


class Site(object):
    # A register or unregister call and what the plan does with it.

    def __init__(self, rec, is_reg):
        self.rec = rec
        self.is_reg = is_reg
        self.file = rec['file']
        self.line = rec['line']
        self.fn = rec['fn']
        self.name = rec['name']
        self.args = [blank_keep(t).strip() for t in rec['argtexts']]
        self.raw = rec['argtexts']
        self.locs = []      # location keys
        self.inst = {}      # location key -> (how to reach the handle at this site)
        self.group = None

    def where(self):
        return '%s:%d' % (self.file, self.line)


class Planner(object):
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

    # --- where the handle goes ----------------------------------------------------------

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


# ---------------------------------------------------------------------------------------
# Editing: replace call spans, insert whole lines (comments stay where they were).

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


# ---------------------------------------------------------------------------------------
# --report: every minor-number use, and what to do with it.

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

// ---------------------------------------------------------------------------------------
// The calls.

@reg@
identifier rf = {register_chrdev, __register_chrdev};
position p;
@@
rf@p(...)

@script:python@
p << reg.p;
rf << reg.rf;
@@
add_call(REGS, rf, p)

@unreg@
identifier uf = {unregister_chrdev, __unregister_chrdev};
position p;
@@
uf@p(...)

@script:python@
p << unreg.p;
uf << unreg.uf;
@@
add_call(UNREGS, uf, p)

@unreg_stmt@
identifier unreg.uf;
expression E;
position unreg.p, q;
@@
uf@p(E@q, ...);

@script:python@
p << unreg.p;
q << unreg_stmt.q;
@@
UNREGS[key(p)]['stmt'] = True

// Where the result of a registration goes.
@reg_assign@
expression X;
identifier reg.rf;
position reg.p, px;
@@
X@px = rf@p(...)

@script:python@
p << reg.p;
px << reg_assign.px;
@@
r = REGS[key(p)]
r['ctx'] = 'assign'
r['x'] = span_of(px)
note_names(src(p[0].file).span_text(*r['x']))

@reg_assign_stmt@
expression reg_assign.X;
identifier reg.rf;
position reg.p, ps;
@@
X@ps = rf@p(...);

@script:python@
p << reg.p;
ps << reg_assign_stmt.ps;
@@
REGS[key(p)]['stmt'] = True

@reg_init@
type T;
identifier X;
identifier reg.rf;
position reg.p, px;
@@
T X@px = rf@p(...);

@script:python@
p << reg.p;
px << reg_init.px;
@@
r = REGS[key(p)]
r['ctx'] = 'assign'
r['stmt'] = True
r['x'] = span_of(px)
note_names(src(p[0].file).span_text(*r['x']))

@reg_discard@
identifier reg.rf;
expression E;
position reg.p, q;
@@
rf@p(E@q, ...);

@script:python@
p << reg.p;
q << reg_discard.q;
@@
REGS[key(p)]['ctx'] = 'discard'

@reg_sign@
identifier reg.rf;
expression E;
position reg.p, q;
@@
\(rf@p(E@q, ...) < 0\|rf@p(E@q, ...) >= 0\|0 > rf@p(E@q, ...)\|0 <= rf@p(E@q, ...)\)

@script:python@
p << reg.p;
q << reg_sign.q;
@@
REGS[key(p)]['ctx'] = REGS[key(p)]['ctx'] or 'sign'

// Every use of a stored result until it is assigned again.
@uses_a exists@
expression reg_assign.X, E;
identifier reg.rf;
position reg.p, u;
@@
X = rf@p(...);
... when != X = E
    when any
X@u

@script:python@
p << reg.p;
u << uses_a.u;
@@
REGS[key(p)]['uses'].append(span_of(u))

@uses_i exists@
type reg_init.T;
identifier reg_init.X;
expression E;
identifier reg.rf;
position reg.p, u;
@@
T X = rf@p(...);
... when != X = E
    when any
X@u

@script:python@
p << reg.p;
u << uses_i.u;
@@
REGS[key(p)]['uses'].append(span_of(u))

// Uses that only test the sign, and the branches taken on a negative result.
@sign_a@
expression reg_assign.X;
position u;
@@
\(X@u < 0\|X@u >= 0\|0 > X@u\|0 <= X@u\)

@script:python@
p << reg.p;
u << sign_a.u;
@@
if same_fn(p, u):
	REGS[key(p)]['sign_uses'].add(span_of(u)[0])

@sign_i@
identifier reg_init.X;
position u;
@@
\(X@u < 0\|X@u >= 0\|0 > X@u\|0 <= X@u\)

@script:python@
p << reg.p;
u << sign_i.u;
@@
if same_fn(p, u):
	REGS[key(p)]['sign_uses'].add(span_of(u)[0])

@negbr_a@
expression reg_assign.X;
statement S, S2;
position s;
@@
(
if (\(X < 0\|unlikely(X < 0)\)) S@s else S2
|
if (\(X < 0\|unlikely(X < 0)\)) S@s
)

@script:python@
p << reg.p;
s << negbr_a.s;
@@
if same_fn(p, s):
	REGS[key(p)]['negbr'].append(span_of(s))

@negbr_i@
identifier reg_init.X;
statement S, S2;
position s;
@@
(
if (\(X < 0\|unlikely(X < 0)\)) S@s else S2
|
if (\(X < 0\|unlikely(X < 0)\)) S@s
)

@script:python@
p << reg.p;
s << negbr_i.s;
@@
if same_fn(p, s):
	REGS[key(p)]['negbr'].append(span_of(s))

// The uses reached without going through one of those branches (a use after a goto
// out of it sees the negative errno, which both calls return alike).
@uses_na exists@
expression reg_assign.X, E;
statement negbr_a.S;
position negbr_a.s;
identifier reg.rf;
position reg.p, u;
@@
X = rf@p(...);
... when != X = E
    when != S
    when any
X@u

@script:python@
p << reg.p;
s << negbr_a.s;
u << uses_na.u;
@@
REGS[key(p)]['uses_nb'].setdefault(span_of(s), []).append(span_of(u))

@uses_ni exists@
type reg_init.T;
identifier reg_init.X;
expression E;
statement negbr_i.S;
position negbr_i.s;
identifier reg.rf;
position reg.p, u;
@@
T X = rf@p(...);
... when != X = E
    when != S
    when any
X@u

@script:python@
p << reg.p;
s << negbr_i.s;
u << uses_ni.u;
@@
REGS[key(p)]['uses_nb'].setdefault(span_of(s), []).append(span_of(u))

// The legacy idiom that stores an allocated major: if (ret > 0) major = ret;
@idiom_a@
expression reg_assign.X, M;
position i, m;
@@
(
if@i (X > 0) M@m = X;
|
if@i (X > 0) { M@m = X; }
|
if@i (M@m == 0) M = X;
|
if@i (M@m == 0) { M = X; }
|
if@i (!M@m) M = X;
|
if@i (!M@m) { M = X; }
)

@script:python@
p << reg.p;
i << idiom_a.i;
m << idiom_a.m;
@@
if same_fn(p, i):
	REGS[key(p)]['idioms'].append((span_of(i)[0], span_of(m)))

@idiom_i@
identifier reg_init.X;
expression M;
position i, m;
@@
(
if@i (X > 0) M@m = X;
|
if@i (X > 0) { M@m = X; }
|
if@i (M@m == 0) M = X;
|
if@i (M@m == 0) { M = X; }
|
if@i (!M@m) M = X;
|
if@i (!M@m) { M = X; }
)

@script:python@
p << reg.p;
i << idiom_i.i;
m << idiom_i.m;
@@
if same_fn(p, i):
	REGS[key(p)]['idioms'].append((span_of(i)[0], span_of(m)))

// Where a stored result is copied: major = ret;
@alias_a exists@
expression reg_assign.X, Y, E;
identifier reg.rf;
position reg.p, a;
@@
X = rf@p(...);
... when != X = E
    when any
Y@a = X;

@script:python@
p << reg.p;
a << alias_a.a;
@@
sp = span_of(a)
REGS[key(p)]['aliases'].append(sp)
note_names(src(p[0].file).span_text(*sp))

@alias_i exists@
type reg_init.T;
identifier reg_init.X;
expression Y, E;
identifier reg.rf;
position reg.p, a;
@@
T X = rf@p(...);
... when != X = E
    when any
Y@a = X;

@script:python@
p << reg.p;
a << alias_i.a;
@@
sp = span_of(a)
REGS[key(p)]['aliases'].append(sp)
note_names(src(p[0].file).span_text(*sp))

// Registrations inside a loop (do-while loops are found in the text).
@in_loop@
identifier reg.rf;
position q;
@@
(
for (...;...;...) { <+... rf@q(...) ...+> }
|
while (...) { <+... rf@q(...) ...+> }
)

@script:python@
q << in_loop.q;
@@
if key(q) in REGS:
	REGS[key(q)]['loop'] = True

// Registrations guarded by a test that the major is not registered yet: if (major == -1),
// if (major <= 0), if (!major): one registration at a time, whoever calls.
@guarded@
identifier reg.rf;
expression V;
position q, v;
@@
(
if (\(V@v == -1\|V@v < 0\|V@v <= 0\|V@v == 0\|!V@v\)) { <+... rf@q(...) ...+> }
)

@script:python@
q << guarded.q;
v << guarded.v;
@@
if key(q) in REGS:
	REGS[key(q)]['guards'].append(span_of(v))

// The struct type behind each member that holds a major.
@member_type@
type T;
T E;
identifier f : script:python() { f in FIELDS };
position m;
@@
\(E->f@m\|E.f@m\)

@script:python@
T << member_type.T;
E << member_type.E;
m << member_type.m;
@@
MEMBER_TYPES[key(m)] = (str(T), str(E))

// Local variables named in majors.
@local_decl@
type T;
identifier lv;
position q;
@@
(
T lv@q;
|
T lv@q = ...;
)

@script:python@
T << local_decl.T;
lv << local_decl.lv;
q << local_decl.q;
@@
if lv in IDENTS:
	LOCALS[(q[0].file, q[0].current_element, lv)] = str(T)

// Objects freed by hand, and allocated with devm (freed when the device goes).
@frees@
type T;
T *E;
identifier fr = {kfree, kvfree, vfree, kfree_sensitive, kzfree};
position p;
@@
fr@p(E)

@script:python@
T << frees.T;
p << frees.p;
@@
FREES.append((p[0].file, p[0].current_element, str(T)))

@frees_rcu@
type T;
T *E;
position p;
@@
kfree_rcu@p(E, ...)

@script:python@
T << frees_rcu.T;
p << frees_rcu.p;
@@
FREES.append((p[0].file, p[0].current_element, str(T)))

@devm@
type T;
T *E;
identifier da = {devm_kzalloc, devm_kmalloc, devm_kcalloc, devm_kmalloc_array};
@@
E = da(...)

@script:python@
T << devm.T;
@@
DEVM.add(str(T))

// The functions of each file_operations table.
@fops@
identifier F, fn, fld;
@@
struct file_operations F = { ..., .fld = fn, ... };

@script:python@
F << fops.F;
fn << fops.fn;
@@
FOPS.setdefault(F, set()).add(fn)

// ---------------------------------------------------------------------------------------
// Minor numbers: every iminor() and MINOR(x->i_rdev), and what it is used for.

@minor@
expression E;
position p;
@@
\(iminor@p(E)\|MINOR@p(E->i_rdev)\)

@script:python@
p << minor.p;
@@
MINORS.setdefault(key(p), {'file': p[0].file, 'line': int(p[0].line),
	'fn': p[0].current_element, 'uses': [], 'var': None})

@minor_index@
position minor.p;
expression A;
position a;
@@
A@a[<+... \(iminor@p(...)\|MINOR@p(...)\) ...+>]

@script:python@
p << minor.p;
a << minor_index.a;
@@
MINORS[key(p)]['uses'].append(('index', span_of(a), int(a[0].line)))

@minor_key@
position minor.p;
expression I;
identifier kf = {idr_find, xa_load, radix_tree_lookup, idr_get_next, xa_find};
position q;
@@
kf@q(I, <+... \(iminor@p(...)\|MINOR@p(...)\) ...+>)

@script:python@
p << minor.p;
kf << minor_key.kf;
I << minor_key.I;
q << minor_key.q;
@@
MINORS[key(p)]['uses'].append(('key', '%s(%s, ...)' % (kf, str(I).replace('& ', '&')), int(q[0].line)))

@minor_bound@
position minor.p;
expression K;
position q;
@@
(
iminor@p(...) >= K@q
|
MINOR@p(...) >= K@q
|
K@q <= iminor@p(...)
|
K@q <= MINOR@p(...)
|
iminor@p(...) < K@q
|
MINOR@p(...) < K@q
)

@script:python@
p << minor.p;
K << minor_bound.K;
q << minor_bound.q;
@@
MINORS[key(p)]['uses'].append(('bound', str(K), int(q[0].line)))

// ... or kept in a variable first.
@minor_var@
position minor.p;
identifier m;
@@
m = \(iminor@p(...)\|MINOR@p(...)\)

@script:python@
p << minor.p;
m << minor_var.m;
@@
MINORS[key(p)]['var'] = m
MINOR_VARS.add(m)

@minor_var_decl@
position minor.p;
identifier m;
type T;
@@
T m = \(iminor@p(...)\|MINOR@p(...)\);

@script:python@
p << minor.p;
m << minor_var_decl.m;
@@
MINORS[key(p)]['var'] = m
MINOR_VARS.add(m)

@mv_index@
identifier m : script:python() { m in MINOR_VARS };
expression A;
position a, q;
@@
A@a[<+... m@q ...+>]

@script:python@
a << mv_index.a;
q << mv_index.q;
@@
minor_var_use(q, ('index', span_of(a), int(q[0].line)))

@mv_key@
identifier m : script:python() { m in MINOR_VARS };
expression I;
identifier kf = {idr_find, xa_load, radix_tree_lookup, idr_get_next, xa_find};
position q;
@@
kf(I, <+... m@q ...+>)

@script:python@
kf << mv_key.kf;
I << mv_key.I;
q << mv_key.q;
@@
minor_var_use(q, ('key', '%s(%s, ...)' % (kf, str(I).replace('& ', '&')), int(q[0].line)))

@mv_bound@
identifier m : script:python() { m in MINOR_VARS };
expression K;
position q, k;
@@
\(m@q >= K@k\|K@k <= m@q\|m@q < K@k\)

@script:python@
K << mv_bound.K;
q << mv_bound.q;
@@
minor_var_use(q, ('bound', str(K), int(q[0].line)))

@mv_loop@
identifier m : script:python() { m in MINOR_VARS };
iterator it;
expression X;
position q;
@@
(
for (...;...;...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
while (...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
it(...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
)

@script:python@
q << mv_loop.q;
@@
minor_var_use(q, ('loop', None, int(q[0].line)))

@minor_loop@
position minor.p, q;
iterator it;
expression X;
@@
(
for (...;...;...) { <+... \(X@q == \(iminor@p(...)\|MINOR@p(...)\)\|\(iminor@p(...)\|MINOR@p(...)\) == X@q\) ...+> }
|
it(...) { <+... \(X@q == \(iminor@p(...)\|MINOR@p(...)\)\|\(iminor@p(...)\|MINOR@p(...)\) == X@q\) ...+> }
)

@script:python@
p << minor.p;
q << minor_loop.q;
@@
MINORS[key(p)]['uses'].append(('loop', None, int(p[0].line)))

@finalize:python@
@@
main()
