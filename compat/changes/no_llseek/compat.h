/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * no_llseek: ".llseek = no_llseek," on every kernel.
 *
 * Before 6.0 no_llseek() was a function returning -ESPIPE; 6.0 made it "#define no_llseek
 * NULL" (a NULL .llseek had come to mean -ESPIPE too), and 6.12 removed the name. Where it
 * is gone it is NULL again, which keeps its meaning. Code written for 6.12 leaves .llseek
 * out, which means -ESPIPE on every kernel: nothing to bridge that way.
 */
#ifndef CDEV_COMPAT_CHANGE_NO_LLSEEK_H
#define CDEV_COMPAT_CHANGE_NO_LLSEEK_H

#include <linux/fs.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_NO_LLSEEK && !defined(no_llseek)
#define no_llseek NULL
#endif

#endif /* CDEV_COMPAT_CHANGE_NO_LLSEEK_H */
