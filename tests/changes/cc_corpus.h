/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_corpus.h - what the API-change corpus drivers (compat/changes/NAME/corpus/) share: one
 * misc device, /dev/<module name>, with the driver's file operations, and a read() that
 * returns one line the driver formats. Each driver keeps to itself the code path of its change.
 */
#ifndef CC_CORPUS_H
#define CC_CORPUS_H

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

/* cc_read_line() - copy one formatted line to a read() buffer (simple_read_from_buffer). */
static inline ssize_t cc_read_line(char __user *buf, size_t len, loff_t *ppos,
				   const char *line)
{
	return simple_read_from_buffer(buf, len, ppos, line, strlen(line));
}

/* CC_MISC(ops) - the driver's misc device, /dev/KBUILD_MODNAME, mode 0600, serving @ops. */
#define CC_MISC(ops)							\
	static struct miscdevice cc_misc = {				\
		.minor = MISC_DYNAMIC_MINOR,				\
		.name = KBUILD_MODNAME,					\
		.fops = &(ops),						\
		.mode = 0600,						\
	}

/* CC_MISC_MODULE(ops) - a module that is only that device. */
#define CC_MISC_MODULE(ops)						\
	CC_MISC(ops);							\
	static int __init cc_init(void)					\
	{								\
		return misc_register(&cc_misc);				\
	}								\
	static void __exit cc_exit(void)				\
	{								\
		misc_deregister(&cc_misc);				\
	}								\
	module_init(cc_init);						\
	module_exit(cc_exit)

#endif /* CC_CORPUS_H */
