// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_loop - three character devices of different kinds, registered in a
 * loop over a table, their dynamic majors kept in an array; unwound with goto
 * on failure and in reverse order at unload.
 *
 * Written for the cdev-compat migration corpus (register_chrdev() inside a
 * loop).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define CORP_LOOP_KINDS 3

static const char * const corp_loop_names[CORP_LOOP_KINDS] = {
	"corp_loop_a", "corp_loop_b", "corp_loop_c",
};
static int corp_loop_majors[CORP_LOOP_KINDS];

static ssize_t corp_loop_read(struct file *file, char __user *buf,
			      size_t len, loff_t *ppos)
{
	unsigned int kind = (uintptr_t)file->private_data;
	char line[48];
	int n;

	n = scnprintf(line, sizeof(line), "%s minor %u\n", corp_loop_names[kind],
		      iminor(file_inode(file)));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_loop_open(struct inode *inode, struct file *file)
{
	unsigned int kind;

	for (kind = 0; kind < CORP_LOOP_KINDS; kind++) {
		if (corp_loop_majors[kind] == imajor(inode)) {
			file->private_data = (void *)(uintptr_t)kind;
			return 0;
		}
	}
	return -ENODEV;
}

static const struct file_operations corp_loop_fops = {
	.owner = THIS_MODULE,
	.open = corp_loop_open,
	.read = corp_loop_read,
};

static int __init corp_loop_init(void)
{
	int i, err;

	for (i = 0; i < CORP_LOOP_KINDS; i++) {
		corp_loop_majors[i] = register_chrdev(0, corp_loop_names[i],
						      &corp_loop_fops);
		if (corp_loop_majors[i] < 0) {
			err = corp_loop_majors[i];
			goto unwind;
		}
	}
	return 0;

unwind:
	while (--i >= 0)
		unregister_chrdev(corp_loop_majors[i], corp_loop_names[i]);
	return err;
}

static void __exit corp_loop_exit(void)
{
	int i;

	for (i = CORP_LOOP_KINDS - 1; i >= 0; i--)
		unregister_chrdev(corp_loop_majors[i], corp_loop_names[i]);
}

module_init(corp_loop_init);
module_exit(corp_loop_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: register_chrdev() in a loop");
MODULE_LICENSE("GPL");
