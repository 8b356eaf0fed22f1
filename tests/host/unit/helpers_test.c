// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cdev-compat helpers against the userspace model of the kernel in mock-kernel/, as
 * the first file of a two-file module (helpers_b.c is the second): range checks at the
 * edges of dev_t and CHRDEV_MAJOR_MAX; register/unregister on a handle, spilling ranges,
 * the inode->i_cdev step; a handle that is still registered is refused, one that a file still
 * holds registers again while that file keeps the old cdev and file operations; a region
 * freed at run time through its parent kobject; device nodes by name prefix; class_create()
 * in both spellings; redirect mode registering in one file and unregistering in the other,
 * unregistering while a file is open, the owner, file operations without one, a count of 0,
 * a range of another module left alone; a failed cdev_add() in both APIs, the unregister
 * order for a region its cdev alone keeps alive, and kobject releases that run late
 * (MOCK_DELAYED_RELEASE, as CONFIG_DEBUG_KOBJECT_RELEASE); and no leak at the end.
 * Redirect mode is module-wide, as the fragment sets it (t-helpers.sh defines it for both
 * files). Built with AddressSanitizer: a cdev freed while a file holds it is a reported
 * use-after-free. One TAP line per check, unbuffered.
 */
#define CDEV_COMPAT_DEFINE_HELPERS
#include <linux/fs.h>
#include <cdev_compat.h>

#include "helpers_b.h"

static int failures;

static void check(int cond, const char *fmt, ...) __printf(2, 3);
static void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - %d-arg, class_create %s%s: ", cond ? "" : "not ", MOCK_ARGS,
	       MOCK_CLASS_OWNER ? "(owner, name)" : "(name)",
	       MOCK_DELAYED_RELEASE ? ", delayed releases" : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!cond)
		printf(" [last kernel message: %s]", mock_last_msg);
	printf("\n");
	failures += !cond;
}

static const struct file_operations fops = { .owner = NULL };
static const struct file_operations owned_fops = { .owner = THIS_MODULE };
static struct module other_module;
static const struct file_operations other_fops = { .owner = &other_module };

/* References to the module's own kobject: 1 when no cdev holds it. */
static int module_kobj_refs(void)
{
	return kref_read(&THIS_MODULE->mkobj.kobj.kref);
}

static void test_ranges(void)
{
	static const struct {
		unsigned int major, baseminor, count;
		int want;
		const char *what;
	} cases[] = {
		{ 0, 0, 0, -EINVAL, "a zero count" },
		{ 512, 0, 1, -EINVAL, "major CHRDEV_MAJOR_MAX" },
		{ 4095, MINORMASK - 1, 2, -EINVAL, "a range ending at the top of dev_t" },
		{ 4095, MINORMASK, 2, -EINVAL, "a range past the top of dev_t" },
		{ 511, MINORMASK, 1, 0, "the last minor of the largest major" },
		{ 511, MINORMASK - 1, 2, 0, "a range ending at the largest major's last minor" },
		{ 511, MINORMASK, 2, -EINVAL, "a range running past the largest major" },
		{ 10, MINORMASK, 2, 0, "a fixed range spilling into the next major" },
		{ 10, MINORMASK + 1, 1, -EINVAL, "a base minor beyond MINORMASK" },
		{ 0, 0, MINORMASK + 1, 0, "a dynamic major's every minor" },
		{ 0, 1, MINORMASK + 1, -EINVAL, "a dynamic range over one major" },
		{ 0, 0, 0xffffffffU, -EINVAL, "a huge dynamic count" },
		{ 10, 0, 0xffffffffU, -EINVAL, "a huge fixed count" },
	};
	unsigned int i;
	int got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = cdev_compat_check_range("t", cases[i].major, cases[i].baseminor,
					      cases[i].count);
		check(got == cases[i].want, "check_range: %s (%u, %u, %u): %d, want %d",
		      cases[i].what, cases[i].major, cases[i].baseminor, cases[i].count, got,
		      cases[i].want);
	}
}

static void test_register(void)
{
	struct cdev_compat_region r = { 0 }, s = { 0 };
	struct inode *in;
	int ret;

	ret = cdev_compat_register(&r, 100, MINORMASK - 1, 4, "spill", &fops);
	check(ret == 0 && mock_regions() == 2 && mock_mapped() == 1,
	      "register 100:%u+4 spills into major 101 (%d, %d ranges)", MINORMASK - 1, ret,
	      mock_regions());
	check(r.cdev && r.cdev->owner == THIS_MODULE, "the cdev's owner is the calling module");
	in = mock_open(MKDEV(101, 1));
	check(in && cdev_compat_region_of(in) == &r && cdev_compat_index(in) == 3,
	      "open 101:1 finds the region at index 3 (%u)", in ? cdev_compat_index(in) : 0);
	check(mock_this_module.refs == 1, "an open file holds the module");
	if (in)
		mock_close(in);
	ret = cdev_compat_register(&s, 101, 0, 1, "clash", &fops);
	check(ret == -EBUSY && mock_regions() == 2, "a clash is -EBUSY and leaves nothing (%d)",
	      ret);
	cdev_compat_unregister(&r);
	check(mock_regions() == 0 && mock_mapped() == 0 && !r.count,
	      "unregister by handle removes both majors' ranges and the map");
	cdev_compat_unregister(&r);
	check(mock_regions() == 0, "unregistering again does nothing");

	ret = cdev_compat_register_chrdev(&r, 0, "dyn", &fops);
	check(ret == 254 && cdev_compat_major(&r) == 254,
	      "register_chrdev shape, major 0: returns the allocated major (%d)", ret);
	ret = cdev_compat_register_chrdev(&r, 0, "dyn", &fops);
	check(ret == -EBUSY && mock_regions() == 1 && mock_mapped() == 1,
	      "registering a handle that is still registered is -EBUSY and changes nothing (%d)",
	      ret);
	cdev_compat_unregister(&r);
	ret = cdev_compat_register_chrdev(&r, 200, "fixed", &fops);
	check(ret == 0 && cdev_compat_major(&r) == 200,
	      "register_chrdev shape, fixed major: returns 0 (%d)", ret);
	cdev_compat_unregister(&r);
}

static const struct file_operations alt_fops = { .owner = NULL };

/*
 * A handle registered again while a file of the earlier registration is open: the new one
 * serves new opens, the old file (and a new open through its inode) keeps the old cdev and
 * its file operations until the last close; the kernel then frees the old cdev.
 */
static void test_open_across_unregister(void)
{
	struct cdev_compat_region r = { 0 };
	struct inode *in, *again, *fresh;
	struct cdev *old;
	dev_t first;
	int ret, alive;

	mock_run_delayed();
	cdev_compat_register(&r, 0, 0, 2, "held", &fops);
	first = r.first;
	old = r.cdev;
	in = mock_open(first + 1);
	alive = mock_cdevs_alive;
	cdev_compat_unregister(&r);
	check(mock_mapped() == 0 && !mock_open(first),
	      "after unregister no new open finds the device");
	ret = cdev_compat_register(&r, 120, 0, 2, "held", &alt_fops);
	check(ret == 0 && r.cdev != old && mock_cdevs_alive == alive + 1,
	      "the handle registers again while a file still holds its old cdev, with a new cdev (%d)",
	      ret);
	fresh = mock_open(r.first);
	check(fresh && fresh->i_cdev == r.cdev && fresh->i_cdev->ops == &alt_fops,
	      "a new open reaches the new registration and its file operations");
	again = in ? mock_reopen(in) : NULL;
	check(in && again && in->i_cdev == old && old->ops == &fops &&
	      cdev_compat_region_of(again) == &r && cdev_compat_index(again) == 1,
	      "the old file, and a new open through its inode, keep the old cdev, its file operations, the region and the index");
	if (again)
		mock_close(again);
	if (in)
		mock_close(in);
	mock_run_delayed();
	check(mock_cdevs_alive == alive, "the last close of the old file frees the old cdev");
	if (fresh)
		mock_close(fresh);
	cdev_compat_unregister(&r);
	mock_run_delayed();
}

struct obj {
	struct kobject kobj;
	struct cdev_compat_region r;
};

static int obj_released;

static void obj_release(struct kobject *kobj)
{
	obj_released++;
	kfree(container_of(kobj, struct obj, kobj));
}

static const struct kobj_type obj_ktype = { .release = obj_release };
static const struct kobj_type module_ktype = { .release = NULL };

static void test_parent(void)
{
	struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
	struct inode *in;

	kobject_init(&o->kobj, &obj_ktype);
	o->r.parent = &o->kobj;
	cdev_compat_register(&o->r, 0, 0, 2, "parent", &fops);
	in = mock_open(MKDEV(cdev_compat_major(&o->r), 1));
	cdev_compat_unregister(&o->r);
	kobject_put(&o->kobj);
	check(!obj_released, "a region freed at run time waits for the last close (parent)");
	if (in)
		mock_close(in);
	mock_run_delayed();
	check(obj_released == 1, "the last close frees the object through its release()");
}

static void test_nodes(void)
{
	struct cdev_compat_region r = { 0 }, one = { 0 }, big = { 0 };
	int ret;

	cdev_compat_register(&r, 0, 5, 3, "nodes", &fops);
	ret = cdev_compat_create_nodes(&r, NULL, 0640, "n%s");
	check(ret == 0 && mock_find_device("n%s5") && mock_find_device("n%s7") &&
	      mock_devices_alive == 3,
	      "nodes are <prefix><minor>, and the prefix is never a format (%d)", ret);
	check(mock_find_device("n%s6") && mock_find_device("n%s6")->devt == MKDEV(254, 6),
	      "each node has its own device number");
	cdev_compat_register(&one, 0, 0, 1, "one", &fops);
	ret = cdev_compat_create_nodes(&one, "oneclass", 0, "one%sminor");
	check(ret == 0 && mock_find_device("one%sminor"), "a region of one minor gets exactly the prefix");
	cdev_compat_unregister(&r);
	cdev_compat_unregister(&one);
	check(mock_devices_alive == 0 && mock_classes_alive == 0 && !r.devs,
	      "unregister removes the nodes and the class");
	cdev_compat_register(&big, 300, 0, CDEV_COMPAT_MAX_NODES + 1, "big", &fops);
	ret = cdev_compat_create_nodes(&big, NULL, 0, "big");
	check(ret == -E2BIG && mock_devices_alive == 0 && mock_classes_alive == 0 && big.count,
	      "more than CDEV_COMPAT_MAX_NODES nodes is -E2BIG; the region stays (%d)", ret);
	cdev_compat_unregister(&big);
	ret = cdev_compat_create_nodes(&big, NULL, 0, "big");
	check(ret == -EINVAL, "nodes for an unregistered region: -EINVAL (%d)", ret);
}

static int owner_evals;

static struct module *owner(void)
{
	owner_evals++;
	return THIS_MODULE;
}

static void test_class_create(void)
{
	struct class *c2, *c1;

	mock_class_owner = NULL;
	c2 = class_create(owner(), "two");
	check(!IS_ERR(c2) && owner_evals == 1 &&
	      mock_class_owner == (MOCK_CLASS_OWNER ? THIS_MODULE : NULL),
	      "class_create(owner, name) works, evaluating the owner once");
	c1 = class_create("one");
	check(!IS_ERR(c1) && mock_class_owner == (MOCK_CLASS_OWNER ? THIS_MODULE : NULL),
	      "class_create(name) works (owner THIS_MODULE where the kernel takes one)");
	class_destroy(c2);
	class_destroy(c1);
}

static void test_redirect(void)
{
	struct inode *in;
	int maj, kmaj;

	maj = b_register(0, &owned_fops);
	in = maj > 0 ? mock_open(MKDEV(maj, 7)) : NULL;
	check(in && cdev_compat_redirect_serves(in) && in->i_cdev->owner == THIS_MODULE,
	      "redirect: register_chrdev() in one file, a cdev owned by fops->owner (%d)", maj);
	if (in)
		mock_close(in);
	mock_msgs = 0;
	unregister_chrdev(maj, "b_dev");
	mock_run_delayed();
	check(mock_regions() == 0 && mock_mapped() == 0 && mock_cdevs_alive == 0 && !mock_msgs,
	      "redirect: unregister_chrdev() in the other file finds it and frees everything");

	maj = register_chrdev(0, "here", &owned_fops);
	in = mock_open(MKDEV(maj, 0));
	b_unregister(maj);
	mock_run_delayed();
	check(mock_mapped() == 0 && mock_regions() == 0 && mock_cdevs_alive == 1,
	      "redirect: unregistered while open, the cdev lives on for the open file");
	if (in)
		mock_close(in);
	mock_run_delayed();
	check(mock_cdevs_alive == 0 && mock_this_module.refs == 0,
	      "redirect: the last close frees the cdev and drops the module");

	maj = b_register_range(0, 16, 4, &fops);
	__unregister_chrdev(maj, 16, 4);
	check(maj > 0 && mock_regions() == 0 && mock_mapped() == 0,
	      "redirect: __register_chrdev() there, 3-argument __unregister_chrdev() here");
	maj = b_register_range(0, 16, 4, &fops);
	__unregister_chrdev(maj, 16, 4, "b_range");
	check(maj > 0 && mock_regions() == 0 && mock_mapped() == 0,
	      "redirect: 4-argument __unregister_chrdev()");

	kmaj = cdev_compat_kernel_register_chrdev(0, 0, 256, "kernel", &fops);
	mock_msgs = 0;
	unregister_chrdev(kmaj, "kernel");
	mock_run_delayed();
	check(kmaj > 0 && mock_msgs == 0 && mock_regions() == 0 && mock_mapped() == 0 &&
	      mock_cdevs_alive == 0,
	      "redirect: a range registered by the kernel through cdev_compat_kernel_register_chrdev() goes to the kernel, silently as there");

	/* Another module's registration (here the kernel's own, made behind the module's back). */
	kmaj = (__register_chrdev)(0, 0, 256, "other", &fops);
	mock_msgs = 0;
	unregister_chrdev(kmaj, "other");
	check(mock_msgs == 1 && strstr(mock_last_msg, "ignored") && mock_regions() == 1 &&
	      mock_mapped() == 1,
	      "redirect: an unregister of a range this module did not register is ignored with a message; the range stays");
#if MOCK_ARGS == 1
	(__unregister_chrdev)(kmaj, 0, 256);
#else
	(__unregister_chrdev)(kmaj, 0, 256, "other");
#endif
	mock_run_delayed();
	mock_msgs = 0;
	unregister_chrdev(77, "nobody");
	check(mock_msgs == 1 && mock_regions() == 0,
	      "redirect: an unregister of a range nobody registered is ignored with a message");

	maj = b_register_range(0, 3, 0, &fops);
	check(maj > 0 && mock_regions() == 1 && mock_mapped() == 1,
	      "redirect: a count of 0 is registered as the kernel's __register_chrdev() does (%d)",
	      maj);
	__unregister_chrdev(maj, 3, 0);
	mock_run_delayed();
	check(mock_regions() == 0 && mock_mapped() == 0 && mock_cdevs_alive == 0,
	      "redirect: ... and unregistered by the kernel");

	maj = b_register(0, &fops);
	in = maj > 0 ? mock_open(MKDEV(maj, 1)) : NULL;
	check(in && in->i_cdev->owner == NULL && !in->i_cdev->kobj.parent,
	      "redirect: file operations without an owner register, with no owner and no parent, as in the kernel (%d)",
	      maj);
	if (in)
		mock_close(in);
	b_unregister(maj);
	mock_run_delayed();
	check(mock_regions() == 0 && mock_cdevs_alive == 0,
	      "redirect: ... and unregister");

	maj = register_chrdev(600, "toobig", &fops);
	check(maj == -EINVAL && mock_regions() == 0 &&
	      !strcmp(mock_last_msg, "CHRDEV \"toobig\" major requested (600) is greater than the maximum (511)\n"),
	      "redirect: major 600 is -EINVAL with the kernel's message (%d)", maj);
	maj = b_register_range(10, MINORMASK, 2, &fops);
	check(maj == -EINVAL && mock_regions() == 0 && mock_mapped() == 0 &&
	      strstr(mock_last_msg, "CHRDEV \"b_range\" minor range requested (1048575-1048576) is out of range of maximum range (0-1048575) for a single major"),
	      "redirect: a fixed range past one major is -EINVAL with the kernel's message (%d)",
	      maj);

	maj = b_register(0, &other_fops);
	in = maj > 0 ? mock_open(MKDEV(maj, 0)) : NULL;
	check(in && in->i_cdev->owner == &other_module && other_module.refs == 1,
	      "redirect: the cdev's owner is fops->owner, not the calling module (%d)", maj);
	check(kref_read(&other_module.mkobj.kobj.kref) == 2,
	      "redirect: the cdev holds its owner's kobject (unloading waits for its release)");
	if (in)
		mock_close(in);
	b_unregister(maj);
	mock_run_delayed();
	check(kref_read(&other_module.mkobj.kobj.kref) == 1,
	      "redirect: ... until the release after the last close");
}

/*
 * A failed cdev_add() leaves the handle as it was (it registers again at once) and drops no
 * reference it did not take: cdev_add() takes the parent's only when it succeeds.
 */
static void test_failed_add(void)
{
	struct cdev_compat_region r = { 0 };
	int ret, refs, alive;

	mock_run_delayed();
	refs = module_kobj_refs();
	alive = mock_cdevs_alive;
	mock_fail_cdev_add = 1;
	ret = cdev_compat_register(&r, 0, 0, 4, "noadd", &fops);
	mock_run_delayed();
	check(ret == -ENOMEM && mock_regions() == 0 && mock_mapped() == 0 && !r.count &&
	      !r.cdev && mock_cdevs_alive == alive && module_kobj_refs() == refs,
	      "a failed cdev_add() is returned and undone: no range, no cdev, the module's kobject as before (%d)",
	      ret);
	ret = cdev_compat_register(&r, 0, 0, 4, "noadd", &fops);
	check(ret == 0 && r.count == 4,
	      "after a failed cdev_add() the same handle registers again (%d)", ret);
	cdev_compat_unregister(&r);

	mock_fail_cdev_add = 1;
	ret = register_chrdev(0, "noadd", &owned_fops);
	mock_run_delayed();
	check(ret == -ENOMEM && mock_regions() == 0 && mock_mapped() == 0 &&
	      mock_cdevs_alive == alive && module_kobj_refs() == refs,
	      "redirect: a failed cdev_add() is undone and leaves the owner's kobject as before (%d)",
	      ret);
}

/*
 * The documented parent pattern with the driver's own reference dropped first: the cdev
 * alone keeps the object, and cdev_del() frees it; unregister must not read the region after.
 */
static void test_unregister_order(void)
{
	struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
	int before = obj_released;

	kobject_init(&o->kobj, &obj_ktype);
	o->r.parent = &o->kobj;
	cdev_compat_register(&o->r, 0, 0, 2, "order", &fops);
	kobject_put(&o->kobj);
	cdev_compat_unregister(&o->r);
	mock_run_delayed();
	check(obj_released == before + 1 && mock_regions() == 0 && mock_mapped() == 0,
	      "unregister of a region its cdev alone kept: numbers freed, object freed once");
}

/*
 * Releases that run late: a registration's cdev holds the module's kobject until the kernel has
 * released it (unloading waits for that), and nothing of a released cdev is the region's, so
 * the region may be freed or registered again at once, while a release is still pending.
 */
static void test_late_release(void)
{
	struct cdev_compat_region *h = kzalloc(sizeof(*h), GFP_KERNEL);
	struct cdev_compat_region r = { 0 };
	struct inode *in;
	int ret, refs;

	mock_run_delayed();
	refs = module_kobj_refs();
	cdev_compat_register(h, 0, 0, 1, "freed", &fops);
	check(module_kobj_refs() == refs + 1, "a registered cdev holds the module's kobject");
	cdev_compat_unregister(h);
	kfree(h);
	check(module_kobj_refs() == refs + !!MOCK_DELAYED_RELEASE,
	      "unregister with no file open: the module's kobject is held until the release (%d refs)",
	      module_kobj_refs());
	mock_run_delayed();
	check(module_kobj_refs() == refs,
	      "the release, after the region was freed, touches nothing of it and drops the module's kobject");

	cdev_compat_register(&r, 0, 0, 1, "late", &fops);
	in = mock_open(r.first);
	cdev_compat_unregister(&r);
	if (in)
		mock_close(in);
	ret = cdev_compat_register(&r, 0, 0, 1, "late", &fops);
	check(ret == 0 && module_kobj_refs() == refs + 1 + !!MOCK_DELAYED_RELEASE,
	      "registering the handle again needs no wait for a pending release (%d)", ret);
	mock_run_delayed();
	in = mock_open(r.first);
	check(in && in->i_cdev == r.cdev && module_kobj_refs() == refs + 1,
	      "... the old release runs later without touching the new registration, which serves opens");
	if (in)
		mock_close(in);
	cdev_compat_unregister(&r);
	mock_run_delayed();
	check(module_kobj_refs() == refs, "every release ran: the module's kobject is free");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	kobject_init(&THIS_MODULE->mkobj.kobj, &module_ktype);
	kobject_init(&other_module.mkobj.kobj, &module_ktype);
	test_ranges();
	test_register();
	test_open_across_unregister();
	test_parent();
	test_nodes();
	test_class_create();
	test_redirect();
	test_failed_add();
	test_unregister_order();
	test_late_release();
	mock_run_delayed();
	check(mock_regions() == 0 && mock_mapped() == 0 && mock_cdevs_alive == 0 &&
	      mock_allocs == 0 && mock_devices_alive == 0 && mock_classes_alive == 0 &&
	      mock_this_module.refs == 0 && module_kobj_refs() == 1,
	      "nothing left: %d ranges, %d mapped, %d cdevs, %d allocations, %d module kobject refs",
	      mock_regions(), mock_mapped(), mock_cdevs_alive, mock_allocs, module_kobj_refs());
	return failures ? 1 : 0;
}
