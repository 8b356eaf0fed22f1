// SPDX-License-Identifier: GPL-2.0-only
/// A platform driver's remove callback in a spelling that builds on every kernel: void (as
/// 6.11 wants), named in the platform_driver with CDEV_COMPAT_PLATFORM_REMOVE(), which gives
/// it, on a kernel whose .remove returns int, the int callback
/// CDEV_COMPAT_DEFINE_PLATFORM_REMOVE() defines after it. An int callback's "return 0;" go;
/// one that returns anything else is left as it is, and the build says so.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@pd_remove@
identifier drv, fn;
@@
struct platform_driver drv = {
  ...,
- .remove = fn,
+ CDEV_COMPAT_PLATFORM_REMOVE(fn),
  ...
};

@pd_remove_new@
identifier drv, fn;
@@
struct platform_driver drv = {
  ...,
- .remove_new = fn,
+ CDEV_COMPAT_PLATFORM_REMOVE(fn),
  ...
};

@voidify@
identifier fn = { pd_remove.fn, pd_remove_new.fn };
identifier pdev;
@@
- int
+ void
  fn(struct platform_device *pdev)
  { ... }

// The body's last "return 0;" goes; one elsewhere becomes "return;".
@@
identifier fn = { pd_remove.fn, pd_remove_new.fn };
identifier pdev;
statement S;
@@
  void fn(struct platform_device *pdev)
  {
  ...
  S
- return 0;
  }

@depends on voidify@
identifier fn = { pd_remove.fn, pd_remove_new.fn };
identifier pdev;
@@
  void fn(struct platform_device *pdev)
  {
  <...
- return 0;
+ return;
  ...>
  }

// After the callback, what an int .remove needs (one rule per way it was named).
@@
identifier pd_remove.fn;
declarer name CDEV_COMPAT_DEFINE_PLATFORM_REMOVE;
type T;
@@
  T fn(...) { ... }
+ CDEV_COMPAT_DEFINE_PLATFORM_REMOVE(fn);

@@
identifier pd_remove_new.fn;
declarer name CDEV_COMPAT_DEFINE_PLATFORM_REMOVE;
type T;
@@
  T fn(...) { ... }
+ CDEV_COMPAT_DEFINE_PLATFORM_REMOVE(fn);
