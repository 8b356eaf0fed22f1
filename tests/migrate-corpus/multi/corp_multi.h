/* SPDX-License-Identifier: GPL-2.0-only */
/* corp_multi - what the two files of the driver share. */
#ifndef CORP_MULTI_H
#define CORP_MULTI_H

#include <linux/types.h>

#define CORP_MULTI_NAME		"corp_multi"
#define CORP_MULTI_CHANNELS	4

extern int corp_multi_major;	/* 0 asks for a dynamic major */

int corp_multi_chrdev_init(void);
u32 corp_multi_channel_value(unsigned int channel);

#endif /* CORP_MULTI_H */
