/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A userspace model of the kernel's char device and driver-core API, as much as the
 * cdev-compat helpers use, for tests/host/unit/helpers_test.c. Every mock header under
 * linux/ includes this one. It keeps what the real kernel keeps: device number ranges
 * (fs/char_dev.c's chrdevs), the cdev map, kobject reference counts with release() on the
 * last put, module references taken by open files, and counts of live allocations, so a
 * test can open a device, unregister it, close it, and see what was freed when. Built with
 * AddressSanitizer, a free too early is a reported use-after-free.
 */
#ifndef MOCK_KERNEL_H
#define MOCK_KERNEL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;
#define U32_MAX UINT32_MAX
typedef uint32_t mock_dev_t;
#define dev_t mock_dev_t	/* the kernel's is 32 bits; libc's is not */
typedef unsigned short umode_t;
typedef unsigned int gfp_t;

#define GFP_KERNEL 0
#define __must_check __attribute__((warn_unused_result))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define KBUILD_MODNAME "mock_module"

#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & MINORMASK))
#define MKDEV(ma, mi)	(((ma) << MINORBITS) | (mi))
#define CHRDEV_MAJOR_MAX 512

/* printk: the last message is kept for the test. */
extern char mock_last_msg[512];
extern int mock_msgs;
void mock_printk(const char *fmt, ...) __printf(1, 2);
#define pr_err(fmt, ...) mock_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) mock_printk(fmt, ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...) mock_printk(fmt, ##__VA_ARGS__)

/* slab: counted. */
extern int mock_allocs;
void *kzalloc(size_t size, gfp_t gfp);
void *kvcalloc(size_t n, size_t size, gfp_t gfp);
void kfree(const void *p);
void kvfree(const void *p);

/* err.h */
#define MAX_ERRNO 4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO; }

/* list.h */
struct list_head {
	struct list_head *next, *prev;
};
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
static inline void list_add(struct list_head *n, struct list_head *head)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}
static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h->prev = h;
}
#define list_first_entry(head, type, member) container_of((head)->next, type, member)
static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = e->prev = NULL;
}
#define list_for_each_entry(pos, head, member)				\
	for (pos = container_of((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);						\
	     pos = container_of(pos->member.next, __typeof__(*pos), member))

/* mutex.h: a lock held twice, or released unheld, aborts. */
struct mutex {
	int held;
};
#define DEFINE_MUTEX(name) struct mutex name = { 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* The kernel's configuration: sysfs, and (-DMOCK_DELAYED_RELEASE) kobject release debugging. */
#define CONFIG_SYSFS 1
#if MOCK_DELAYED_RELEASE
#define CONFIG_DEBUG_KOBJECT_RELEASE 1
#endif

/* workqueue.h: only what a kobject's delayed release uses. */
struct work_struct {
	void (*func)(struct work_struct *work);
};
struct delayed_work {
	struct work_struct work;
	int pending;
};
/* Runs the work now if it is pending, as the kernel's waits for it. */
void flush_delayed_work(struct delayed_work *dwork);

/* kref.h, kobject.h */
struct kref {
	int refcount;
};
static inline unsigned int kref_read(const struct kref *k) { return k->refcount; }
/*
 * With MOCK_DELAYED_RELEASE the last put only schedules the release (the ktype's, as the
 * kernel's kobject does with CONFIG_DEBUG_KOBJECT_RELEASE); mock_run_delayed() runs every
 * pending one, as time passing does. Clearing a kobject whose release is pending aborts
 * (cdev_init()), as the kernel's pending timer in freed or cleared memory would crash.
 */
struct kobject;
struct kobj_type {
	void (*release)(struct kobject *kobj);
};
struct kobject {
	struct kref kref;
	struct kobject *parent;
	const struct kobj_type *ktype;
	struct delayed_work release;
	char name[64];
	unsigned int state_initialized:1;
};
void kobject_init(struct kobject *kobj, const struct kobj_type *ktype);
int mock_run_delayed(void);
int mock_delayed_pending(void);

/* module.h: the module's own kobject, which unloading waits for (free_module()). */
struct module_kobject {
	struct kobject kobj;
};
struct module {
	int refs;
	struct module_kobject mkobj;
};
extern struct module mock_this_module;
#define THIS_MODULE (&mock_this_module)
struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
int kobject_set_name(struct kobject *kobj, const char *fmt, ...) __printf(2, 3);

/* fs.h, cdev.h */
struct file_operations {
	struct module *owner;
};
struct cdev {
	struct kobject kobj;
	struct module *owner;
	const struct file_operations *ops;
	struct list_head list;
	dev_t dev;
	unsigned int count;
};
struct inode {
	dev_t i_rdev;
	struct cdev *i_cdev;
};
extern int mock_cdevs_alive;
void cdev_init(struct cdev *cdev, const struct file_operations *fops);
struct cdev *cdev_alloc(void);
int cdev_add(struct cdev *cdev, dev_t dev, unsigned int count);
void cdev_del(struct cdev *cdev);
void cdev_set_parent(struct cdev *p, struct kobject *kobj);
/* The next cdev_add() fails with -ENOMEM (as kobj_map() does without memory), once. */
extern int mock_fail_cdev_add;
int register_chrdev_region(dev_t from, unsigned int count, const char *name);
int alloc_chrdev_region(dev_t *dev, unsigned int baseminor, unsigned int count,
			const char *name);
void unregister_chrdev_region(dev_t from, unsigned int count);
#if MOCK_ARGS == 1
void __unregister_chrdev(unsigned int major, unsigned int baseminor, unsigned int count);
static inline void unregister_chrdev(unsigned int major)
{
	__unregister_chrdev(major, 0, 256);
}
#else
void __unregister_chrdev(unsigned int major, unsigned int baseminor, unsigned int count,
			 const char *name);
static inline void unregister_chrdev(unsigned int major, const char *name)
{
	__unregister_chrdev(major, 0, 256, name);
}
#endif
int __register_chrdev(unsigned int major, unsigned int baseminor, unsigned int count,
		      const char *name, const struct file_operations *fops);
static inline int register_chrdev(unsigned int major, const char *name,
				  const struct file_operations *fops)
{
	return __register_chrdev(major, 0, 256, name, fops);
}

/* A model of chrdev_open() and the last fput(): NULL (ENXIO) when nothing is mapped. */
struct inode *mock_open(dev_t dev);
/*
 * chrdev_open() through an inode that still points at its cdev (inode->i_cdev), as a second
 * open of a device node whose first file is still open: NULL (ENXIO) when the cdev is gone.
 */
struct inode *mock_reopen(const struct inode *inode);
void mock_close(struct inode *inode);
/* Registered ranges and mapped cdevs left over (a leak check at the end of a test). */
int mock_regions(void);
int mock_mapped(void);
/* Whether device number dev is in a registered range, and its name. */
const char *mock_region_name(dev_t dev);

/* device.h */
struct lock_class_key {
	int dummy;
};
struct device;
struct class {
	const char *name;
#if CDEV_COMPAT_MOCK_DEVNODE_CONST
	char *(*devnode)(const struct device *dev, umode_t *mode);
#else
	char *(*devnode)(struct device *dev, umode_t *mode);
#endif
};
struct device {
	struct class *class;
	dev_t devt;
	void *drvdata;
	char name[64];
};
extern int mock_devices_alive;
extern int mock_classes_alive;
extern struct module *mock_class_owner;
#if MOCK_CLASS_OWNER
/* Before 6.4: a macro with a lockdep key per call site. */
struct class *__class_create(struct module *owner, const char *name,
			     struct lock_class_key *key);
#define class_create(owner, name)					\
({									\
	static struct lock_class_key __key;				\
	__class_create(owner, name, &__key);				\
})
#else
/* 6.4 on, and kernels that backported it: a function without the owner. */
struct class *__must_check class_create(const char *name);
#endif
void class_destroy(struct class *cls);
struct device *device_create(struct class *cls, struct device *parent, dev_t devt,
			     void *drvdata, const char *fmt, ...) __printf(5, 6);
void device_unregister(struct device *dev);
static inline void *dev_get_drvdata(const struct device *dev) { return dev->drvdata; }
struct device *mock_find_device(const char *name);

#endif /* MOCK_KERNEL_H */
