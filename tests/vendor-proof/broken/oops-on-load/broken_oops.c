// SPDX-License-Identifier: GPL-2.0-only
/*
 * broken_oops - made to fail the vendor matrix's load cell (and its log cell, which finds the
 * Oops) on every kernel: its init registers a char device, then writes through a pointer
 * that its (simulated) probe never set.
 */
#include <linux/fs.h>
#include <linux/module.h>

struct broken_state {
	int ready;
};

static int broken_major;
static struct broken_state *broken_state;

static const struct file_operations broken_fops = {
	.owner = THIS_MODULE,
};

static int __init broken_init(void)
{
	broken_major = register_chrdev(0, "broken_oops", &broken_fops);
	if (broken_major < 0)
		return broken_major;
	/* the bug: broken_state was never allocated */
	WRITE_ONCE(broken_state->ready, 1);
	return 0;
}

static void __exit broken_exit(void)
{
	unregister_chrdev(broken_major, "broken_oops");
}

module_init(broken_init);
module_exit(broken_exit);
MODULE_DESCRIPTION("vendor matrix proof: oopses on load");
MODULE_LICENSE("GPL");
