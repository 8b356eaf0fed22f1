#include <linux/fs.h>

extern int lone_major;

void lone_exit(void)
{
	unregister_chrdev(lone_major, "lone");
}
