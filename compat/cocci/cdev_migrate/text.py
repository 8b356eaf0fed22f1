# SPDX-License-Identifier: GPL-2.0-only
"""C text: comments, strings and preprocessor lines blanked (offsets kept), and the
top-level items of a file (functions, structs, declarations), read once per file (src())."""

import re


DQ, SQ = '"', "'"
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
