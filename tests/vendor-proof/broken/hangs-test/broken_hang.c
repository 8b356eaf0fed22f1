// SPDX-License-Identifier: GPL-2.0-only
/*
 * broken_hang - made to fail the vendor matrix's test cell with a hang: a read waits for data
 * that never comes (the bug: nothing ever wakes the queue). The wait is killable, so the
 * matrix's timeout ends the test and the module still unloads cleanly.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/wait.h>

static int broken_major;
static DECLARE_WAIT_QUEUE_HEAD(broken_wq);
static bool broken_data_ready;

static ssize_t broken_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	int ret = wait_event_killable(broken_wq, READ_ONCE(broken_data_ready));

	return ret ? ret : 0;
}

static const struct file_operations broken_fops = {
	.owner = THIS_MODULE,
	.read = broken_read,
	.llseek = noop_llseek,
};

static int __init broken_init(void)
{
	broken_major = register_chrdev(0, "broken_hang", &broken_fops);
	return broken_major < 0 ? broken_major : 0;
}

static void __exit broken_exit(void)
{
	unregister_chrdev(broken_major, "broken_hang");
}

module_init(broken_init);
module_exit(broken_exit);
MODULE_DESCRIPTION("vendor matrix proof: a read that never returns");
MODULE_LICENSE("GPL");
