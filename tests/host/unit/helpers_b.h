/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HELPERS_B_H
#define HELPERS_B_H
int b_register(unsigned int major, const struct file_operations *fops);
int b_register_range(unsigned int major, unsigned int baseminor, unsigned int count,
		     const struct file_operations *fops);
void b_unregister(unsigned int major);
#endif
