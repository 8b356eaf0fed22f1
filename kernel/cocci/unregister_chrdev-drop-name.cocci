// SPDX-License-Identifier: GPL-2.0-only
/// unregister_chrdev() and __unregister_chrdev() ignore their last argument,
/// the name: __unregister_chrdev() only calls __unregister_chrdev_region(major,
/// baseminor, count), which finds the region by number. Drop the argument from
/// every caller.
//
// Confidence: High
// Options: --no-includes --include-headers
//
// The definitions (include/linux/fs.h, fs/char_dev.c) are changed by hand;
// this semantic patch only rewrites call sites.

virtual patch

@unregister_chrdev_drop_name depends on patch@
expression M, N;
@@
  unregister_chrdev(M
- , N
  )

@__unregister_chrdev_drop_name depends on patch@
expression M, B, C, N;
@@
  __unregister_chrdev(M, B, C
- , N
  )
