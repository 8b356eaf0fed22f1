/* SPDX-License-Identifier: GPL-2.0-only */
/* corp_ptr - the batch device's entry points, called from corp_ptr_main.c. */
#ifndef CORP_PTR_H
#define CORP_PTR_H

int corp_ptr_batch_init(int *majordev);
void corp_ptr_batch_cleanup(int majordev);

#endif /* CORP_PTR_H */
