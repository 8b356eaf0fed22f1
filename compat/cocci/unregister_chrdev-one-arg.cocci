// SPDX-License-Identifier: GPL-2.0-only
/// unregister_chrdev(M, N) -> unregister_chrdev(M), and
/// __unregister_chrdev(M, B, C, N) -> __unregister_chrdev(M, B, C): the name
/// was never checked, and kernels with the name dropped take one argument
/// (three for __unregister_chrdev()). The file gets #include <cdev_compat.h>
/// after its last #include, so the one-arg spelling also builds on kernels
/// that still take the name.
///
/// The alternative is to change nothing and let the header take both
/// spellings (force-include it: CDEV_COMPAT_FORCE_INCLUDE := y).
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual no_include

@initialize:python@
@@
last_include = {}

@drop_name depends on patch@
expression M, N;
@@
  unregister_chrdev(M
- , N
  )

@__drop_name depends on patch@
expression M, B, C, N;
@@
  __unregister_chrdev(M, B, C
- , N
  )

@has_inc depends on patch@
@@
#include <cdev_compat.h>

@incs depends on patch && !no_include && (drop_name || __drop_name) && !has_inc@
position p;
@@
(
#include <...>@p
|
#include "..."@p
)

@script:python@
p << incs.p;
@@
last_include[p[0].file] = max(last_include.get(p[0].file, 0), int(p[0].line))

@add_inc depends on patch && !no_include && (drop_name || __drop_name) && !has_inc@
position p : script:python() { int(p[0].line) == last_include.get(p[0].file) };
@@
(
#include <...>@p
+#include <cdev_compat.h>
|
#include "..."@p
+#include <cdev_compat.h>
)
