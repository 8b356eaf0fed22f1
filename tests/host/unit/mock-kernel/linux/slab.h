/* SPDX-License-Identifier: GPL-2.0-only */
/* Mock <linux/slab.h>: see ../mock_kernel.h. */
#include "../mock_kernel.h"
