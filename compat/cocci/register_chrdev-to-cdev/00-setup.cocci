// SPDX-License-Identifier: GPL-2.0-only
/// Move register_chrdev()/__register_chrdev() callers onto the cdev interface
/// through the cdev-compat helpers, whole or not at all, and report the code
/// that looks devices up by minor number.
///
/// The SmPL rules of these files only find things: the register and unregister calls,
/// where each result goes and how it is used, where each major lives (a
/// variable, an array element, a struct member, behind a pointer parameter),
/// loops, frees, the fops tables and every minor-number use. The Python package
/// cdev_migrate (compat/cocci/cdev_migrate/) decides, for all the files given at once, and edits their text:
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

// scripts/cdev-compat-migrate joins the files of this directory in the order of their names
// into one semantic patch, and puts compat/cocci (or its installed copy) on PYTHONPATH.
@initialize:python@
@@
from cdev_migrate.facts import (DEVM, FOPS, FREES, IDENTS, FIELDS, LOCALS, MEMBER_TYPES,
                                MINORS, MINOR_VARS, REGS, UNREGS, add_call, key,
                                minor_var_use, note_names, same_fn, span_of)
from cdev_migrate.run import main
from cdev_migrate.text import src
