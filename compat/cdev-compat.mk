# SPDX-License-Identifier: GPL-2.0-only
#
# cdev-compat Kbuild fragment. A driver's Kbuild (or the Kbuild part of its Makefile) adds
#
#	include /usr/share/cdev-compat/cdev-compat.mk
#
# and can then #include <cdev_compat.h>. To build an unmodified driver, set
#
#	CDEV_COMPAT_FORCE_INCLUDE := y
#
# before that line: the header is force-included and compat/wrap/ goes first on the include
# path (NOSTDINC_FLAGS), so the driver's own pr_fmt stays warning-free.
#
# In the compile pass it runs the feature probes against the kernel being built ($(objtree),
# never the running kernel) once per kernel (results cached; see probes/run-probes.sh) and
# stops the build, naming the failed probe's log, when the kernel fits no known variant.

CDEV_COMPAT_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# Only scripts/Makefile.build compiles; the clean and modpost passes read this file too.
ifneq ($(filter scripts/Makefile.build %/scripts/Makefile.build,$(MAKEFILE_LIST)),)
ifndef CDEV_COMPAT_PROBED
# Probe with the compiler the module is built with, when it was chosen on the command line.
cdev-compat-probe-args := $(foreach v,CC LLVM CROSS_COMPILE,$(if $(filter command line,$(origin $(v))),$(v)=$($(v))))
CDEV_COMPAT_PROBED := $(shell $(CDEV_COMPAT_DIR)/probes/run-probes.sh $(abspath $(objtree)) $(cdev-compat-probe-args))
ifneq ($(.SHELLSTATUS),0)
$(error cdev-compat: feature probes failed for kernel $(KERNELRELEASE) in $(abspath $(objtree)); the failed probe and its log are named above)
endif
endif

ccflags-y += -I$(CDEV_COMPAT_PROBED) -I$(CDEV_COMPAT_DIR)/include
ifeq ($(CDEV_COMPAT_FORCE_INCLUDE),y)
NOSTDINC_FLAGS += -I$(CDEV_COMPAT_DIR)/wrap
ccflags-y += -include $(CDEV_COMPAT_DIR)/include/cdev_compat.h
endif
endif
