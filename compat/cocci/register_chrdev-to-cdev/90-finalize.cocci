// SPDX-License-Identifier: GPL-2.0-only
// After the last file: decide and edit (--cdev), or report (--report).

@finalize:python@
@@
main()
