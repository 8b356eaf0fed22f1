// SPDX-License-Identifier: GPL-2.0-only
// What surrounds a registration: loops, guards, the types and variables its major lives
// in, frees, devm allocations, fops tables.

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
