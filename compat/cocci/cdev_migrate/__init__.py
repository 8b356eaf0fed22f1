# SPDX-License-Identifier: GPL-2.0-only
"""cdev_migrate: the Python half of register_chrdev-to-cdev.cocci (scripts/cdev-compat-migrate
--cdev and --report). The SmPL rules find; their script rules record what they found in
facts; after the last file, run.main() has the planner decide for all the files at once and
edit their text (or report.write_report() list the minor-number uses).

text -> facts -> planner -> edit -> run, and report (facts, text) -> run: no module imports
one that imports it."""
