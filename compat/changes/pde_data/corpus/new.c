// SPDX-License-Identifier: GPL-2.0-only
/*
 * pde_data corpus, new spelling: a /proc file whose show() finds its data with pde_data(), the
 * way drivers give one show() to several /proc files. The test: /proc/KBUILD_MODNAME reads
 * the data.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

static char cc_data[] = KBUILD_MODNAME " data\n";

static int cc_show(struct seq_file *m, void *v)
{
	seq_puts(m, m->private);
	return 0;
}

static int cc_open(struct inode *inode, struct file *file)
{
	return single_open(file, cc_show, pde_data(inode));
}

static const struct proc_ops cc_proc_ops = {
	.proc_open = cc_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

static int __init cc_init(void)
{
	return proc_create_data(KBUILD_MODNAME, 0444, NULL, &cc_proc_ops, cc_data) ? 0 : -ENOMEM;
}

static void __exit cc_exit(void)
{
	remove_proc_entry(KBUILD_MODNAME, NULL);
}

module_init(cc_init);
module_exit(cc_exit);
MODULE_DESCRIPTION("cdev-compat API change corpus: pde_data, new spelling");
MODULE_LICENSE("GPL");
