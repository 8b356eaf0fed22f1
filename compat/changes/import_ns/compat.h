/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MODULE_IMPORT_NS(): with an identifier (before 6.13) and with a string (6.13 and later), on
 * every kernel.
 *
 * 6.13 made the namespace a string literal, MODULE_IMPORT_NS("NS"). The old spelling
 * stringified an identifier; given a string it records the quotes too ("\"NS\""), which modpost
 * does not match, and the new one given an identifier does not build. The preprocessor
 * cannot tell the two apart, so MODULE_IMPORT_NS() becomes a macro that stringifies its
 * argument either way and writes the .modinfo entry itself, "import_ns=NS", from the
 * characters of that string with its quotes, if any, left out: a constant character array
 * (the compiler folds each character), padded with NULs, which modpost and modinfo skip.
 */
#ifndef CDEV_COMPAT_CHANGE_IMPORT_NS_H
#define CDEV_COMPAT_CHANGE_IMPORT_NS_H

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/stringify.h>

/* The longest namespace name MODULE_IMPORT_NS() records. */
#define CDEV_COMPAT_NS_MAX	64

/* @s is __stringify() of the argument: "NS", or "\"NS\"" for a string argument. */
#define CDEV_COMPAT_NS_QUOTED(s)	((s)[0] == '"')
#define CDEV_COMPAT_NS_LEN(s)		(sizeof(s) - 1 - 2 * CDEV_COMPAT_NS_QUOTED(s))
#define CDEV_COMPAT_NS_CHAR(s, i)					\
	((i) < CDEV_COMPAT_NS_LEN(s) ?					\
	 (s)[((i) < CDEV_COMPAT_NS_LEN(s) ? (i) : 0) + CDEV_COMPAT_NS_QUOTED(s)] : '\0')
/* Character @i of the namespace named by @ns, NUL past its end. */
#define CDEV_COMPAT_NSC(ns, i)		CDEV_COMPAT_NS_CHAR(__stringify(ns), i)

/**
 * MODULE_IMPORT_NS() - import a symbol namespace, named by an identifier or by a string
 * @ns: the namespace: NS or "NS"
 *
 * Writes "import_ns=NS" into .modinfo, as the kernel's own does, for either spelling.
 */
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns)						\
	_Static_assert(CDEV_COMPAT_NS_LEN(__stringify(ns)) < CDEV_COMPAT_NS_MAX,	\
		       "cdev-compat: namespace name too long");		\
	static const char __UNIQUE_ID(import_ns)[]			\
	__used __section(".modinfo") __aligned(1) = {			\
		'i', 'm', 'p', 'o', 'r', 't', '_', 'n', 's', '=',	\
		CDEV_COMPAT_NSC(ns, 0), CDEV_COMPAT_NSC(ns, 1), CDEV_COMPAT_NSC(ns, 2),		\
		CDEV_COMPAT_NSC(ns, 3), CDEV_COMPAT_NSC(ns, 4), CDEV_COMPAT_NSC(ns, 5),		\
		CDEV_COMPAT_NSC(ns, 6), CDEV_COMPAT_NSC(ns, 7), CDEV_COMPAT_NSC(ns, 8),		\
		CDEV_COMPAT_NSC(ns, 9), CDEV_COMPAT_NSC(ns, 10), CDEV_COMPAT_NSC(ns, 11),	\
		CDEV_COMPAT_NSC(ns, 12), CDEV_COMPAT_NSC(ns, 13), CDEV_COMPAT_NSC(ns, 14),	\
		CDEV_COMPAT_NSC(ns, 15), CDEV_COMPAT_NSC(ns, 16), CDEV_COMPAT_NSC(ns, 17),	\
		CDEV_COMPAT_NSC(ns, 18), CDEV_COMPAT_NSC(ns, 19), CDEV_COMPAT_NSC(ns, 20),	\
		CDEV_COMPAT_NSC(ns, 21), CDEV_COMPAT_NSC(ns, 22), CDEV_COMPAT_NSC(ns, 23),	\
		CDEV_COMPAT_NSC(ns, 24), CDEV_COMPAT_NSC(ns, 25), CDEV_COMPAT_NSC(ns, 26),	\
		CDEV_COMPAT_NSC(ns, 27), CDEV_COMPAT_NSC(ns, 28), CDEV_COMPAT_NSC(ns, 29),	\
		CDEV_COMPAT_NSC(ns, 30), CDEV_COMPAT_NSC(ns, 31), CDEV_COMPAT_NSC(ns, 32),	\
		CDEV_COMPAT_NSC(ns, 33), CDEV_COMPAT_NSC(ns, 34), CDEV_COMPAT_NSC(ns, 35),	\
		CDEV_COMPAT_NSC(ns, 36), CDEV_COMPAT_NSC(ns, 37), CDEV_COMPAT_NSC(ns, 38),	\
		CDEV_COMPAT_NSC(ns, 39), CDEV_COMPAT_NSC(ns, 40), CDEV_COMPAT_NSC(ns, 41),	\
		CDEV_COMPAT_NSC(ns, 42), CDEV_COMPAT_NSC(ns, 43), CDEV_COMPAT_NSC(ns, 44),	\
		CDEV_COMPAT_NSC(ns, 45), CDEV_COMPAT_NSC(ns, 46), CDEV_COMPAT_NSC(ns, 47),	\
		CDEV_COMPAT_NSC(ns, 48), CDEV_COMPAT_NSC(ns, 49), CDEV_COMPAT_NSC(ns, 50),	\
		CDEV_COMPAT_NSC(ns, 51), CDEV_COMPAT_NSC(ns, 52), CDEV_COMPAT_NSC(ns, 53),	\
		CDEV_COMPAT_NSC(ns, 54), CDEV_COMPAT_NSC(ns, 55), CDEV_COMPAT_NSC(ns, 56),	\
		CDEV_COMPAT_NSC(ns, 57), CDEV_COMPAT_NSC(ns, 58), CDEV_COMPAT_NSC(ns, 59),	\
		CDEV_COMPAT_NSC(ns, 60), CDEV_COMPAT_NSC(ns, 61), CDEV_COMPAT_NSC(ns, 62),	\
		CDEV_COMPAT_NSC(ns, 63), '\0' }

#endif /* CDEV_COMPAT_CHANGE_IMPORT_NS_H */
