// SPDX-License-Identifier: GPL-2.0-only
/*
 * The userspace model of the kernel's char device API behind mock_kernel.h. Ranges are kept
 * like fs/char_dev.c's chrdevs (a clash is -EBUSY, dynamic majors from 254 down), the cdev
 * map like kobj_map (the newest mapping wins a lookup), and a cdev from cdev_alloc() is
 * freed by its kobject's release() on the last put, like cdev_dynamic_release().
 */
#include "mock_kernel.h"

char mock_last_msg[512];
int mock_msgs;
int mock_allocs;
int mock_cdevs_alive;
int mock_devices_alive;
int mock_classes_alive;
struct module mock_this_module;
struct module *mock_class_owner;

void mock_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mock_last_msg, sizeof(mock_last_msg), fmt, ap);
	va_end(ap);
	mock_msgs++;
}

void *kzalloc(size_t size, gfp_t gfp)
{
	void *p = calloc(1, size);

	(void)gfp;
	if (p)
		mock_allocs++;
	return p;
}

void *kvcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kzalloc(n * size, gfp);
}

void kfree(const void *p)
{
	if (p)
		mock_allocs--;
	free((void *)p);
}

void kvfree(const void *p)
{
	kfree(p);
}

void mutex_lock(struct mutex *m)
{
	if (m->held) {
		fprintf(stderr, "mock: mutex locked twice\n");
		abort();
	}
	m->held = 1;
}

void mutex_unlock(struct mutex *m)
{
	if (!m->held) {
		fprintf(stderr, "mock: mutex unlocked while not held\n");
		abort();
	}
	m->held = 0;
}

static const struct kobj_type ktype_cdev_dynamic;

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype)
{
	if (kobj->state_initialized && kobj->kref.refcount) {
		fprintf(stderr, "mock: kobject_init on a kobject in use\n");
		abort();
	}
	memset(kobj, 0, sizeof(*kobj));
	kobj->kref.refcount = 1;
	kobj->ktype = ktype;
	kobj->state_initialized = 1;
	if (ktype == &ktype_cdev_dynamic)
		mock_cdevs_alive++;
}

struct kobject *kobject_get(struct kobject *kobj)
{
	if (kobj) {
		if (kobj->kref.refcount <= 0) {
			fprintf(stderr, "mock: kobject_get on a released kobject\n");
			abort();
		}
		kobj->kref.refcount++;
	}
	return kobj;
}

#define MOCK_PENDING 64
static struct kobject *pending[MOCK_PENDING];

#if MOCK_DELAYED_RELEASE
static void kobject_delayed_cleanup(struct work_struct *work)
{
	(void)work;
}
#endif

static void kobject_cleanup(struct kobject *kobj)
{
	int i;

	for (i = 0; i < MOCK_PENDING; i++)
		if (pending[i] == kobj)
			pending[i] = NULL;
	kobj->release.pending = 0;
	if (kobj->ktype && kobj->ktype->release)
		kobj->ktype->release(kobj);
}

void kobject_put(struct kobject *kobj)
{
	int i;

	if (!kobj)
		return;
	if (kobj->kref.refcount <= 0) {
		fprintf(stderr, "mock: kobject_put on a released kobject\n");
		abort();
	}
	if (--kobj->kref.refcount)
		return;
#if MOCK_DELAYED_RELEASE
	kobj->release.work.func = kobject_delayed_cleanup;
	kobj->release.pending = 1;
	for (i = 0; i < MOCK_PENDING && pending[i]; i++)
		;
	if (i == MOCK_PENDING) {
		fprintf(stderr, "mock: too many pending releases\n");
		abort();
	}
	pending[i] = kobj;
#else
	(void)i;
	kobject_cleanup(kobj);
#endif
}

void flush_delayed_work(struct delayed_work *dwork)
{
	if (dwork->pending)
		kobject_cleanup(container_of(dwork, struct kobject, release));
}

/* A release may put a parent whose release is delayed in turn: run until none is left. */
int mock_run_delayed(void)
{
	int i, n = 0;

	while (mock_delayed_pending()) {
		for (i = 0; i < MOCK_PENDING; i++) {
			if (pending[i]) {
				kobject_cleanup(pending[i]);
				n++;
			}
		}
	}
	return n;
}

int mock_delayed_pending(void)
{
	int i, n = 0;

	for (i = 0; i < MOCK_PENDING; i++)
		n += pending[i] != NULL;
	return n;
}

int kobject_set_name(struct kobject *kobj, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kobj->name, sizeof(kobj->name), fmt, ap);
	va_end(ap);
	return 0;
}

/* --- cdev --------------------------------------------------------------------------- */

static void cdev_default_release(struct kobject *kobj)
{
	struct cdev *p = container_of(kobj, struct cdev, kobj);

	kobject_put(p->kobj.parent);
}

/* As fs/char_dev.c: the memory is the cdev's own, freed with kfree(). */
static void cdev_dynamic_release(struct kobject *kobj)
{
	struct cdev *p = container_of(kobj, struct cdev, kobj);
	struct kobject *parent = p->kobj.parent;

	mock_cdevs_alive--;
	kfree(p);
	kobject_put(parent);
}

static const struct kobj_type ktype_cdev_default = { .release = cdev_default_release };
static const struct kobj_type ktype_cdev_dynamic = { .release = cdev_dynamic_release };

void cdev_init(struct cdev *cdev, const struct file_operations *fops)
{
	if (cdev->kobj.release.pending) {
		fprintf(stderr, "mock: cdev_init on a cdev whose release is still pending\n");
		abort();
	}
	memset(cdev, 0, sizeof(*cdev));
	INIT_LIST_HEAD(&cdev->list);
	kobject_init(&cdev->kobj, &ktype_cdev_default);
	cdev->ops = fops;
}

struct cdev *cdev_alloc(void)
{
	struct cdev *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (p) {
		INIT_LIST_HEAD(&p->list);
		kobject_init(&p->kobj, &ktype_cdev_dynamic);
	}
	return p;
}

/* As the kernel's: WARN_ON(!kobj->state_initialized) reads through the pointer. */
void cdev_set_parent(struct cdev *p, struct kobject *kobj)
{
	if (!kobj) {
		fprintf(stderr, "mock: cdev_set_parent with a NULL parent (a NULL dereference)\n");
		abort();
	}
	p->kobj.parent = kobj;
}

#define MOCK_MAP 64
static struct cdev *map[MOCK_MAP];

int mock_fail_cdev_add;

int cdev_add(struct cdev *p, dev_t dev, unsigned int count)
{
	int i;

	p->dev = dev;
	p->count = count;
	if (mock_fail_cdev_add) {
		mock_fail_cdev_add = 0;
		return -ENOMEM;
	}
	for (i = 0; i < MOCK_MAP; i++) {
		if (!map[i]) {
			map[i] = p;
			kobject_get(p->kobj.parent);
			return 0;
		}
	}
	return -ENOMEM;
}

static void cdev_unmap(struct cdev *p)
{
	int i;

	for (i = 0; i < MOCK_MAP; i++)
		if (map[i] == p)
			map[i] = NULL;
}

void cdev_del(struct cdev *p)
{
	cdev_unmap(p);
	kobject_put(&p->kobj);
}

int mock_mapped(void)
{
	int i, n = 0;

	for (i = 0; i < MOCK_MAP; i++)
		n += map[i] != NULL;
	return n;
}

struct inode *mock_open(dev_t dev)
{
	struct inode *inode;
	struct cdev *p = NULL;
	int i;

	for (i = MOCK_MAP - 1; i >= 0; i--)
		if (map[i] && dev >= map[i]->dev && dev - map[i]->dev < map[i]->count)
			p = map[i];
	if (!p)
		return NULL;
	inode = calloc(1, sizeof(*inode));
	if (!inode)
		abort();
	kobject_get(&p->kobj);
	if (p->owner)
		p->owner->refs++;
	inode->i_rdev = dev;
	inode->i_cdev = p;
	return inode;
}

struct inode *mock_reopen(const struct inode *old)
{
	struct inode *inode;
	struct cdev *p = old->i_cdev;

	/* cdev_get(): the owner, then kobject_get_unless_zero(). */
	if (p->kobj.kref.refcount <= 0)
		return NULL;
	inode = calloc(1, sizeof(*inode));
	if (!inode)
		abort();
	kobject_get(&p->kobj);
	if (p->owner)
		p->owner->refs++;
	*inode = *old;
	return inode;
}

void mock_close(struct inode *inode)
{
	struct cdev *p = inode->i_cdev;
	struct module *owner = p->owner;

	kobject_put(&p->kobj);
	if (owner)
		owner->refs--;
	free(inode);
}

/* --- device number ranges ----------------------------------------------------------- */

struct range {
	bool used;
	unsigned int major, baseminor, count;
	char name[64];
	struct cdev *cdev;	/* __register_chrdev()'s own */
};

#define MOCK_RANGES 64
static struct range ranges[MOCK_RANGES];

static struct range *range_add(unsigned int major, unsigned int baseminor,
			       unsigned int count, const char *name)
{
	int i;

	if (major >= CHRDEV_MAJOR_MAX || count > MINORMASK + 1 - baseminor)
		return ERR_PTR(-EINVAL);
	for (i = 0; i < MOCK_RANGES; i++) {
		struct range *r = &ranges[i];

		if (r->used && r->major == major &&
		    baseminor < r->baseminor + r->count && r->baseminor < baseminor + count)
			return ERR_PTR(-EBUSY);
	}
	for (i = 0; i < MOCK_RANGES; i++) {
		if (!ranges[i].used) {
			ranges[i] = (struct range){ true, major, baseminor, count, "", NULL };
			snprintf(ranges[i].name, sizeof(ranges[i].name), "%s", name);
			return &ranges[i];
		}
	}
	return ERR_PTR(-ENOMEM);
}

static struct range *range_find(unsigned int major, unsigned int baseminor,
				unsigned int count)
{
	int i;

	for (i = 0; i < MOCK_RANGES; i++)
		if (ranges[i].used && ranges[i].major == major &&
		    ranges[i].baseminor == baseminor && ranges[i].count == count)
			return &ranges[i];
	return NULL;
}

static unsigned int dynamic_major(void)
{
	unsigned int m;
	int i;

	for (m = 254; m >= 234; m--) {
		for (i = 0; i < MOCK_RANGES; i++)
			if (ranges[i].used && ranges[i].major == m)
				break;
		if (i == MOCK_RANGES)
			return m;
	}
	return 0;
}

/* As fs/char_dev.c: a fixed range may spill over majors; a wrap registers nothing. */
int register_chrdev_region(dev_t from, unsigned int count, const char *name)
{
	dev_t to = from + count, n, next;
	struct range *r;

	for (n = from; n < to; n = next) {
		next = MKDEV(MAJOR(n) + 1, 0);
		if (next > to)
			next = to;
		r = range_add(MAJOR(n), MINOR(n), next - n, name);
		if (IS_ERR(r))
			goto fail;
	}
	return 0;
fail:
	to = n;
	for (n = from; n < to; n = next) {
		next = MKDEV(MAJOR(n) + 1, 0);
		range_find(MAJOR(n), MINOR(n), next - n)->used = false;
	}
	return PTR_ERR(r);
}

int alloc_chrdev_region(dev_t *dev, unsigned int baseminor, unsigned int count,
			const char *name)
{
	unsigned int major = dynamic_major();
	struct range *r;

	if (!major)
		return -EBUSY;
	r = range_add(major, baseminor, count, name);
	if (IS_ERR(r))
		return PTR_ERR(r);
	*dev = MKDEV(major, baseminor);
	return 0;
}

void unregister_chrdev_region(dev_t from, unsigned int count)
{
	dev_t to = from + count, n, next;
	struct range *r;

	for (n = from; n < to; n = next) {
		next = MKDEV(MAJOR(n) + 1, 0);
		if (next > to)
			next = to;
		r = range_find(MAJOR(n), MINOR(n), next - n);
		if (r)
			r->used = false;
	}
}

int __register_chrdev(unsigned int major, unsigned int baseminor, unsigned int count,
		      const char *name, const struct file_operations *fops)
{
	struct range *r;
	struct cdev *cdev;
	int err;

	if (!major)
		major = dynamic_major();
	r = range_add(major, baseminor, count, name);
	if (IS_ERR(r))
		return PTR_ERR(r);
	cdev = cdev_alloc();
	cdev->owner = fops->owner;
	cdev->ops = fops;
	err = cdev_add(cdev, MKDEV(major, baseminor), count);
	if (err)
		return err;
	r->cdev = cdev;
	return major;
}

#if MOCK_ARGS == 1
void __unregister_chrdev(unsigned int major, unsigned int baseminor, unsigned int count)
#else
void __unregister_chrdev(unsigned int major, unsigned int baseminor, unsigned int count,
			 const char *name)
#endif
{
	struct range *r = range_find(major, baseminor, count);

#if MOCK_ARGS != 1
	(void)name;
#endif
	if (!r)
		return;
	r->used = false;
	if (r->cdev)
		cdev_del(r->cdev);
	r->cdev = NULL;
}

int mock_regions(void)
{
	int i, n = 0;

	for (i = 0; i < MOCK_RANGES; i++)
		n += ranges[i].used;
	return n;
}

const char *mock_region_name(dev_t dev)
{
	int i;

	for (i = 0; i < MOCK_RANGES; i++)
		if (ranges[i].used && ranges[i].major == MAJOR(dev) &&
		    MINOR(dev) >= ranges[i].baseminor &&
		    MINOR(dev) < ranges[i].baseminor + ranges[i].count)
			return ranges[i].name;
	return NULL;
}

/* --- class and device nodes --------------------------------------------------------- */

#define MOCK_DEVS 64
static struct device *devs[MOCK_DEVS];

static struct class *class_new(const char *name)
{
	struct class *cls = kzalloc(sizeof(*cls), GFP_KERNEL);

	if (!cls)
		return ERR_PTR(-ENOMEM);
	cls->name = name;
	mock_classes_alive++;
	return cls;
}

#if MOCK_CLASS_OWNER
struct class *__class_create(struct module *owner, const char *name,
			     struct lock_class_key *key)
{
	(void)key;
	mock_class_owner = owner;
	return class_new(name);
}
#else
struct class *class_create(const char *name)
{
	mock_class_owner = NULL;
	return class_new(name);
}
#endif

void class_destroy(struct class *cls)
{
	int i;

	for (i = 0; i < MOCK_DEVS; i++)
		if (devs[i] && devs[i]->class == cls) {
			fprintf(stderr, "mock: class_destroy with device %s left\n", devs[i]->name);
			abort();
		}
	mock_classes_alive--;
	kfree(cls);
}

struct device *device_create(struct class *cls, struct device *parent, dev_t devt,
			     void *drvdata, const char *fmt, ...)
{
	struct device *dev;
	va_list ap;
	int i;

	(void)parent;
	for (i = 0; i < MOCK_DEVS && devs[i]; i++)
		;
	if (i == MOCK_DEVS)
		return ERR_PTR(-ENOMEM);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->class = cls;
	dev->devt = devt;
	dev->drvdata = drvdata;
	va_start(ap, fmt);
	vsnprintf(dev->name, sizeof(dev->name), fmt, ap);
	va_end(ap);
	devs[i] = dev;
	mock_devices_alive++;
	return dev;
}

void device_unregister(struct device *dev)
{
	int i;

	for (i = 0; i < MOCK_DEVS; i++)
		if (devs[i] == dev)
			devs[i] = NULL;
	mock_devices_alive--;
	kfree(dev);
}

struct device *mock_find_device(const char *name)
{
	int i;

	for (i = 0; i < MOCK_DEVS; i++)
		if (devs[i] && !strcmp(devs[i]->name, name))
			return devs[i];
	return NULL;
}
