// SPDX-License-Identifier: GPL-2.0-only
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
