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
#define CDEV_COMPAT_NS_CHAR8(s, i)					\
	CDEV_COMPAT_NS_CHAR(s, (i)), CDEV_COMPAT_NS_CHAR(s, (i) + 1),	\
	CDEV_COMPAT_NS_CHAR(s, (i) + 2), CDEV_COMPAT_NS_CHAR(s, (i) + 3),	\
	CDEV_COMPAT_NS_CHAR(s, (i) + 4), CDEV_COMPAT_NS_CHAR(s, (i) + 5),	\
	CDEV_COMPAT_NS_CHAR(s, (i) + 6), CDEV_COMPAT_NS_CHAR(s, (i) + 7)

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
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 0),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 8),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 16),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 24),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 32),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 40),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 48),		\
		CDEV_COMPAT_NS_CHAR8(__stringify(ns), 56), '\0' }

#endif /* CDEV_COMPAT_CHANGE_IMPORT_NS_H */
