// SPDX-License-Identifier: GPL-2.0-only
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
