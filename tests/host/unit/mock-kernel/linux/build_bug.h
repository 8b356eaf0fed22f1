/* SPDX-License-Identifier: GPL-2.0-only */
/* Mock <linux/build_bug.h>: see ../mock_kernel.h. */
#include "../mock_kernel.h"
