// SPDX-License-Identifier: GPL-2.0-only
/// Move register_chrdev()/__register_chrdev() callers onto the cdev interface
/// through the cdev-compat helpers: a struct cdev_compat_region handle per
/// registration, cdev_compat_register_chrdev()/cdev_compat_register() to
/// register (region, cdev_init, owner, cdev_add last) and
/// cdev_compat_unregister(&handle) wherever the driver unregistered that major.
///
/// The call is replaced in place, so every use of its result keeps its meaning:
/// cdev_compat_register_chrdev() returns the major for a dynamic request, 0 for
/// a fixed one, or a negative errno, as register_chrdev() does.
//
// Confidence: Moderate
// Options: --no-includes --include-headers
//
// Not converted (left for a human, see compat/cocci/README.md): registrations
// whose major, minor or result lives behind a pointer (per-device
// registrations need the handle in the device struct), and files where an
// unregister call cannot be tied to one registration.

virtual patch
virtual no_include

@initialize:python@
@@
import os
import re

# Per file: fops text -> handle name, and the names in use.
handles = {}
names = {}
# Per file: line of the last #include outside any #if.
last_include = {}


def last_top_include(path):
	if path not in last_include:
		depth, last = 0, 0
		with open(path, errors='replace') as f:
			for n, line in enumerate(f, 1):
				t = line.strip().replace(' ', '')
				if t.startswith(('#if', '#ifdef', '#ifndef')):
					depth += 1
				elif t.startswith('#endif'):
					depth -= 1
				elif t.startswith('#include') and depth == 0:
					last = n
		last_include[path] = last
	return last_include[path]

# Names of function-local variables.
local_vars = set()
# Per file: names declared at file scope -> True.
file_vars = {}
# Per (file, major expression): [(line, function)] of its unregister calls.
unreg_sites = {}
# Per (file, handle): major expressions (the register call's, and aliases).
majors = {}


def anchor(pos, fn, h):
	"""The function the handle must be declared before: the first one using it."""
	best = (int(pos[0].line), fn)
	for m in majors.get((pos[0].file, h), []):
		for site in unreg_sites.get((pos[0].file, m), []):
			best = min(best, site)
	return best[1]


# Per (file, function): handles declared just before it, and the functions done.
fn_handles = {}
fn_done = set()


def fn_decl(pos, fn):
	key = (pos[0].file, fn)
	if key in fn_done or key not in fn_handles:
		return None
	fn_done.add(key)
	return ', '.join(fn_handles[key])


def handle_for(pos, fops):
	key = pos[0].file
	hs = handles.setdefault(key, {})
	used = names.setdefault(key, set())
	if fops in hs:
		return hs[fops]
	m = re.match(r'^&?\s*([A-Za-z_][A-Za-z0-9_]*?)_?fops$', fops)
	if m and m.group(1):
		base = m.group(1)
	else:
		base = re.sub(r'[^A-Za-z0-9_]', '_', os.path.basename(key)[:-2])
		if not re.match(r'^[A-Za-z_]', base):
			base = 'dev_' + base
	name = base + '_region'
	n = 2
	while name in used:
		name = '%s%d_region' % (base, n)
		n += 1
	used.add(name)
	hs[fops] = name
	return name

// Per-device registrations (major, minor or result behind a pointer) are not
// converted: one static handle cannot serve them.
@perdev depends on patch exists@
expression E, M, B, C, N, F;
identifier fld;
position p;
@@
(
  E->fld = \(register_chrdev@p(M, N, F)\|__register_chrdev@p(M, B, C, N, F)\)
|
  register_chrdev@p(<+... E->fld ...+>, N, F)
|
  __register_chrdev@p(<+... E->fld ...+>, B, C, N, F)
|
  __register_chrdev@p(M, <+... E->fld ...+>, C, N, F)
)

// A dynamic request stored in a variable: the variable is the major the
// driver unregisters later.
@dyn depends on patch@
expression X, N, F, B, C;
position p != perdev.p;
@@
  X = \(register_chrdev@p(0, N, F)\|__register_chrdev@p(0, B, C, N, F)\)

// Any other registration: its first argument is the major.
@fixed depends on patch@
expression M, N, F, B, C;
position p != {perdev.p, dyn.p};
@@
  \(register_chrdev@p(M, N, F)\|__register_chrdev@p(M, B, C, N, F)\)

// The function around each registration (no function-wide matching: slow on big files).
@script:python dynfn@
p << dyn.p;
fn;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)

@script:python name_dyn@
p << dyn.p;
F << dyn.F;
X << dyn.X;
H;
@@
coccinelle.H = cocci.make_ident(handle_for(p, F))
majors.setdefault((p[0].file, handle_for(p, F)), []).append(X)

// Where each major is unregistered, to declare a handle before its first use.
@unreg_sites depends on patch@
expression M;
position q;
@@
\(unregister_chrdev@q(M, ...)\|__unregister_chrdev@q(M, ...)\)

@script:python@
M << unreg_sites.M;
q << unreg_sites.q;
@@
g = q[0].current_element
unreg_sites.setdefault((q[0].file, M), []).append((int(q[0].line), g))

// File-scope declarations (a variable declared only in a header gets no handle beside it).
@tops depends on patch@
type T;
identifier v;
position q;
@@
T v@q;

@script:python@
v << tops.v;
q << tops.q;
@@
file_vars.setdefault(q[0].file, {}).setdefault(v, set()).add(q[0].line)

// ret = register_chrdev(0, ...); ... major = ret;: major is the major too.
@alias depends on patch exists@
expression dyn.X, Y, E;
position dyn.p;
identifier dynfn.fn;
@@
fn(...) {
  ... when any
  X = \(register_chrdev@p(...)\|__register_chrdev@p(...)\)
  ... when != X = E
  Y = X;
  ... when any
}

@script:python name_alias@
p << dyn.p;
F << dyn.F;
Y << alias.Y;
H;
@@
coccinelle.H = cocci.make_ident(handle_for(p, F))
majors.setdefault((p[0].file, handle_for(p, F)), []).append(Y)

// Variables declared inside a function: never a place for the handle.
@locals depends on patch exists@
identifier dynfn.fn;
identifier v;
type T;
@@
fn(...) {
  ... when any
  T v;
  ... when any
}

@script:python@
v << locals.v;
@@
local_vars.add(v)

@params depends on patch@
identifier dynfn.fn;
identifier v;
type T;
@@
fn(..., T v, ...) { ... }

@script:python@
v << params.v;
@@
local_vars.add(v)

@script:python name_fixed@
p << fixed.p;
F << fixed.F;
M << fixed.M;
H;
@@
h = handle_for(p, F)
coccinelle.H = cocci.make_ident(h)
majors.setdefault((p[0].file, h), []).append(M)
lst = fn_handles.setdefault((p[0].file, anchor(p, p[0].current_element, h)), [])
if h not in lst:
	lst.append(h)

// #include <cdev_compat.h> after the file's last #include, unless it is there.
@has_inc depends on patch@
@@
#include <cdev_compat.h>

@incs depends on patch && !no_include && (dyn || fixed) && !has_inc@
position p;
@@
(
#include <...>@p
|
#include "..."@p
)


@add_inc depends on patch && !no_include && (dyn || fixed) && !has_inc@
position p : script:python() { int(p[0].line) == last_top_include(p[0].file) };
@@
(
#include <...>@p
+#include <cdev_compat.h>
|
#include "..."@p
+#include <cdev_compat.h>
)

// The calls. register_chrdev() keeps its return value convention;
// __register_chrdev(0, ...) returned the major, which the handle holds.
@conv_dyn depends on patch@
expression dyn.X, dyn.N, dyn.F, dyn.B, dyn.C;
identifier name_dyn.H;
@@
  X =
(
- register_chrdev(0, N, F)
+ cdev_compat_register_chrdev(&H, 0, N, F)
|
- __register_chrdev(0, B, C, N, F)
+ cdev_compat_register(&H, 0, B, C,
+                      N, F) ?: MAJOR(H.first)
)

@conv_fixed depends on patch@
expression fixed.M, fixed.N, fixed.F, fixed.B, fixed.C;
identifier name_fixed.H;
@@
(
- register_chrdev(M, N, F)
+ cdev_compat_register_chrdev(&H, M, N, F)
|
- __register_chrdev(M, B, C, N, F)
+ cdev_compat_register(&H, M, B, C,
+                      N, F)
)

// Unregister calls tied to a registration by its major expression.
@unreg_dyn depends on patch@
expression dyn.X, N, B, C;
identifier name_dyn.H;
@@
(
- unregister_chrdev(X, N)
+ cdev_compat_unregister(&H)
|
- unregister_chrdev(X)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(X, B, C, N)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(X, B, C)
+ cdev_compat_unregister(&H)
)

@unreg_fixed depends on patch@
expression fixed.M, N, B, C;
identifier name_fixed.H;
@@
(
- unregister_chrdev(M, N)
+ cdev_compat_unregister(&H)
|
- unregister_chrdev(M)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(M, B, C, N)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(M, B, C)
+ cdev_compat_unregister(&H)
)

@unreg_alias depends on patch@
expression alias.Y, N, B, C;
identifier name_alias.H;
@@
(
- unregister_chrdev(Y, N)
+ cdev_compat_unregister(&H)
|
- unregister_chrdev(Y)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(Y, B, C, N)
+ cdev_compat_unregister(&H)
|
- __unregister_chrdev(Y, B, C)
+ cdev_compat_unregister(&H)
)

// The handle: next to the variable that holds the major when that is a
// file-scope variable, otherwise just before the registering function.
@script:python place@
X << dyn.X;
p << dyn.p;
F << dyn.F;
XI;
H;
@@
# One environment per registration; a placement that does not apply gets a name that
# matches nothing (include_match(False) would drop the registration from later rules).
h = handle_for(p, F)
coccinelle.H = cocci.make_ident(h)
if X in file_vars.get(p[0].file, {}) and X not in local_vars:
	coccinelle.XI = cocci.make_ident(X)
else:
	coccinelle.XI = cocci.make_ident('cdev_compat_no_such_variable_')
	lst = fn_handles.setdefault((p[0].file, anchor(p, p[0].current_element, h)), [])
	if h not in lst:
		lst.append(h)

@decl_var depends on patch@
identifier place.XI;
identifier place.H;
type T;
@@
  T XI;
+ static struct cdev_compat_region H;

// All the handles placed before one function go into one declaration (two additions
// before the same function would clash).
@script:python fn_dyn@
p << dyn.p;
F << dyn.F;
FI;
HL;
@@
a = anchor(p, p[0].current_element, handle_for(p, F))
d = fn_decl(p, a)
coccinelle.FI = cocci.make_ident(a if d else 'cdev_compat_no_such_function_')
coccinelle.HL = cocci.make_ident(d or 'unused')

@script:python fn_fixed@
p << fixed.p;
F << fixed.F;
FI;
HL;
@@
a = anchor(p, p[0].current_element, handle_for(p, F))
d = fn_decl(p, a)
coccinelle.FI = cocci.make_ident(a if d else 'cdev_compat_no_such_function_')
coccinelle.HL = cocci.make_ident(d or 'unused')

@decl_dyn_fn depends on patch@
identifier fn_dyn.FI;
identifier fn_dyn.HL;
@@
+ static struct cdev_compat_region HL;
+
  FI(...) {...}

@decl_fixed_fn depends on patch@
identifier fn_fixed.FI;
identifier fn_fixed.HL;
@@
+ static struct cdev_compat_region HL;
+
  FI(...) {...}
