/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Marker: its presence on the include path tells <cdev_compat.h> that compat/wrap/ comes
 * first, so a force-included <cdev_compat.h> can leave the work to the wrapper
 * <linux/fs.h>.
 */
