#include <linux/fs.h>
#include <linux/module.h>

static int tiny_major;
static const struct file_operations tiny_fops = {
	.owner = THIS_MODULE,
};

static int __init tiny_init(void)
{
	tiny_major = register_chrdev(0, "tiny", &tiny_fops);
	if (tiny_major < 0)
		return tiny_major;
	return 0;
}

static void __exit tiny_exit(void)
{
	unregister_chrdev(tiny_major, "tiny");
}
module_init(tiny_init);
module_exit(tiny_exit);
