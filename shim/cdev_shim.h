/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_shim.h - what the parts of cdev_shim.ko share.
 */
#ifndef CDEV_SHIM_H
#define CDEV_SHIM_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <cdev_compat.h>
#include "cdev_shim_ioctl.h"

/**
 * struct cdev_shim_dev - a test device's state, with its cdev-compat region embedded
 * @region: the region; open() gets back here from inode->i_cdev
 * @opens: number of opens so far
 */
struct cdev_shim_dev {
	struct cdev_compat_region region;
	atomic_t opens;
};

struct cdev_shim_region_info {
	const char *name;
	unsigned int major;
	unsigned int minor;
	unsigned int index;
	bool served_by_cdev_compat;
};

/* The redirect device's name in /proc/devices. */
#define CDEV_SHIM_REDIRECT_NAME "cdev_shim_redirect"

/**
 * struct cdev_shim_fops - a test device's file operations and where its facts come from
 * @fops: what the device registers; file->f_op points here (cdev_shim_fops.c)
 * @info: fills in the device, major, minor and index that serve @inode
 */
struct cdev_shim_fops {
	const struct file_operations fops;
	void (*info)(struct inode *inode, struct cdev_shim_region_info *info);
};

ssize_t cdev_shim_read(struct file *file, char __user *buf, size_t len,
		       loff_t *ppos);
ssize_t cdev_shim_write(struct file *file, const char __user *buf, size_t len,
			loff_t *ppos);
long cdev_shim_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* A test device's struct cdev_shim_fops: OPEN (or NULL) and INFO are its own. */
#define CDEV_SHIM_FOPS(OPEN, INFO) {					\
	.fops = {							\
		.owner = THIS_MODULE,					\
		.open = (OPEN),						\
		.read = cdev_shim_read,					\
		.write = cdev_shim_write,				\
		.unlocked_ioctl = cdev_shim_ioctl,			\
		.compat_ioctl = compat_ptr_ioctl,			\
	},								\
	.info = (INFO),							\
}

extern const struct cdev_shim_fops cdev_shim_region_fops;
extern const struct cdev_shim_fops cdev_shim_alt_fops;

int cdev_shim_legacy_init(void);
void cdev_shim_legacy_exit(void);
int cdev_shim_redirect_init(void);
void cdev_shim_redirect_exit(void);
int cdev_shim_redirect_set(bool on);
void cdev_shim_redirect_unregister(int major);
int cdev_shim_ctl_init(void);
void cdev_shim_ctl_exit(void);
int cdev_shim_bench_init(void);
void cdev_shim_bench_exit(void);

#endif /* CDEV_SHIM_H */
