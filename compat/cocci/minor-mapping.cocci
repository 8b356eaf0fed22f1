// SPDX-License-Identifier: GPL-2.0-only
/// Find code that maps a minor number onto an internal device: iminor(inode)
/// or MINOR(inode->i_rdev) used as an array index, or compared inside a lookup
/// loop. With the cdev interface the inode already points at the device:
/// inode->i_cdev is the cdev the driver embedded in its own struct, and
/// cdev_compat_from_inode(inode, type, member) (container_of) gets the struct
/// back. Report only: the rewrite needs a cdev per device, a design decision.
//
// Confidence: Moderate (a report; some hits are legitimate uses of the minor)
// Options: --no-includes --include-headers

virtual report

@initialize:python@
@@
seen = set()


def flag(p, msg):
	key = (p[0].file, p[0].line, msg)
	if key not in seen:
		seen.add(key)
		coccilib.report.print_report(p[0], msg)

// 1. the minor itself indexes an array: devs[iminor(inode)]
@index_direct depends on report exists@
identifier I;
expression A, E;
position p;
@@
(
  A[<+... iminor@p(I) ...+>]
|
  A[<+... MINOR@p(I->i_rdev) ...+>]
|
  A[<+... MINOR@p(E->i_rdev) ...+>]
)

// 2. the minor is kept in a variable that indexes an array ...
@index_var depends on report exists@
identifier I, m;
expression A, E, X;
position p, q;
@@
(
  m = iminor@p(I)
|
  m = MINOR@p(I->i_rdev)
|
  m = MINOR@p(E->i_rdev)
)
  ... when != m = X
  A[<+... m@q ...+>]

@index_decl depends on report exists@
identifier I, m;
type T;
expression A, E, X;
position p, q;
@@
(
  T m = iminor@p(I);
|
  T m = MINOR@p(I->i_rdev);
|
  T m = MINOR@p(E->i_rdev);
)
  ... when != m = X
  A[<+... m@q ...+>]

// ... or that a lookup loop compares against each device's number.
@lookup_loop depends on report exists@
identifier I, m;
iterator it;
expression E, X, Y;
position p, q;
@@
(
  m = iminor@p(I)
|
  m = MINOR@p(I->i_rdev)
|
  m = MINOR@p(E->i_rdev)
)
  ... when != m = Y
(
  for (...; ...; ...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
  while (...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
  it(...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
)

@lookup_decl depends on report exists@
identifier I, m;
type T;
iterator it;
expression E, X, Y;
position p, q;
@@
(
  T m = iminor@p(I);
|
  T m = MINOR@p(I->i_rdev);
|
  T m = MINOR@p(E->i_rdev);
)
  ... when != m = Y
(
  for (...; ...; ...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
  while (...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
|
  it(...) { <+... \(X == m@q\|m@q == X\|X != m@q\|m@q != X\) ...+> }
)

@script:python depends on index_direct@
p << index_direct.p;
@@
flag(p,
	"minor number used as an array index to find the device: "
	"embed a struct cdev_compat_region (or struct cdev) in the device struct "
	"and use cdev_compat_from_inode(inode, type, member) / inode->i_cdev")

@script:python depends on index_var@
p << index_var.p;
q << index_var.q;
@@
flag(p,
	"minor number (line %s) used as an array index (line %s) to find the "
	"device: inode->i_cdev and cdev_compat_from_inode() give it directly"
	% (p[0].line, q[0].line))

@script:python depends on index_decl@
p << index_decl.p;
q << index_decl.q;
@@
flag(p,
	"minor number (line %s) used as an array index (line %s) to find the "
	"device: inode->i_cdev and cdev_compat_from_inode() give it directly"
	% (p[0].line, q[0].line))

@script:python depends on lookup_loop@
p << lookup_loop.p;
q << lookup_loop.q;
@@
flag(p,
	"minor number (line %s) looked up in a loop (line %s) to find the "
	"device: inode->i_cdev and cdev_compat_from_inode() give the device "
	"directly" % (p[0].line, q[0].line))

@script:python depends on lookup_decl@
p << lookup_decl.p;
q << lookup_decl.q;
@@
flag(p,
	"minor number (line %s) looked up in a loop (line %s) to find the "
	"device: inode->i_cdev and cdev_compat_from_inode() give the device "
	"directly" % (p[0].line, q[0].line))
