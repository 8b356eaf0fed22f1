/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * cdev_shim_ioctl.h - the ioctls of cdev_shim's test devices, for the guest test programs.
 */
#ifndef CDEV_SHIM_IOCTL_H
#define CDEV_SHIM_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct cdev_shim_whoami - which device and minor served an ioctl
 * @major: major of the device file
 * @minor: minor of the device file
 * @index: position within its region (counts across a major boundary)
 * @served_by_cdev_compat: 1 when the region behind it is a cdev-compat region
 * @name: region name
 */
struct cdev_shim_whoami {
	__u32 major;
	__u32 minor;
	__u32 index;
	__u32 served_by_cdev_compat;
	char name[32];
};

/*
 * The largest test region: one major's worth of minors (the helpers also refuse larger
 * dynamic ranges); nodes only up to the helpers' CDEV_COMPAT_MAX_NODES (4096).
 */
#define CDEV_SHIM_MAX_COUNT	(1U << 20)

/**
 * struct cdev_shim_region_req - register a test region through the cdev helpers
 * @major: major, 0 for a dynamic one (in)
 * @baseminor: first minor (in)
 * @count: number of minors, 1 to CDEV_SHIM_MAX_COUNT (in)
 * @nodes: 1 to create device nodes cdev_shim_t<id>_<minor>, or cdev_shim_t<id> for a region
 *	of one minor (in)
 * @id: handle of the new region, for CDEV_SHIM_IOC_UNREGISTER (out)
 * @first_major: major of the first device number (out)
 * @first_minor: minor of the first device number (out)
 */
struct cdev_shim_region_req {
	__u32 major;
	__u32 baseminor;
	__u32 count;
	__u32 nodes;
	__u32 id;
	__u32 first_major;
	__u32 first_minor;
};

/**
 * struct cdev_shim_reuse_req - register a test region's handle again
 * @id: the region (in)
 * @unregister_first: 1 to unregister it first (even while its files are open), 0 to register
 *	the handle while it is still registered (in)
 * @alt_fops: 1 to register it with the alternate file operations, whose reads and WHOAMI
 *	name the device "cdev_shim_alt", 0 with the region's own (in)
 */
struct cdev_shim_reuse_req {
	__u32 id;
	__u32 unregister_first;
	__u32 alt_fops;
};

#define CDEV_SHIM_IOC_MAGIC	0xCD
#define CDEV_SHIM_IOC_WHOAMI	_IOR(CDEV_SHIM_IOC_MAGIC, 1, struct cdev_shim_whoami)
/*
 * On the control device /dev/cdev_shim_ctl, for CAP_SYS_ADMIN only; errors come back as
 * errno. REUSE: the region is registered again on the same handle with the same request;
 * when that fails, the handle stays, unregistered, for another REUSE or an UNREGISTER.
 * REDIRECT: 0 unregisters the redirect device, 1 registers it again; the result is its major.
 */
#define CDEV_SHIM_IOC_REGISTER	_IOWR(CDEV_SHIM_IOC_MAGIC, 2, struct cdev_shim_region_req)
#define CDEV_SHIM_IOC_UNREGISTER _IOW(CDEV_SHIM_IOC_MAGIC, 3, __u32)
#define CDEV_SHIM_IOC_REUSE	_IOW(CDEV_SHIM_IOC_MAGIC, 4, struct cdev_shim_reuse_req)
#define CDEV_SHIM_IOC_REDIRECT	_IOW(CDEV_SHIM_IOC_MAGIC, 5, __u32)

#endif /* CDEV_SHIM_IOCTL_H */
