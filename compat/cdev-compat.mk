# SPDX-License-Identifier: GPL-2.0-only
#
# cdev-compat Kbuild fragment. A driver's Kbuild (or the Kbuild part of its Makefile) adds,
# after its obj-m lines:
#
#	include /usr/share/cdev-compat/cdev-compat.mk
#
# and can then #include <cdev_compat.h>. To build an unmodified driver, put
#
#	CDEV_COMPAT_FORCE_INCLUDE := y
#
# on its own line before that include: the unregister_chrdev() and class_create() spellings of
# both kinds of kernel then work in every file, through wrapper <linux/fs.h>,
# <linux/device.h> and <linux/device/class.h> headers first on the include path (the
# backports technique), so the driver's own pr_fmt stays warning-free. To serve an unmodified
# driver's register_chrdev() with cdev regions (redirect mode), put
#
#	CDEV_COMPAT_REDIRECT := y
#
# there too: it is set for the whole module, never per file (a file that sets it alone is a
# build error naming that file). The settings cover the whole module tree below this Kbuild,
# subdirectories (obj-m += sub/) included.
#
# In the compile pass it runs the feature probes against the kernel being built ($(objtree),
# never the running kernel) with the compile command of that pass (the same toolchain and
# flags as the module's objects) and the caller's job count, once per kernel and command
# (results cached; see probes/run-probes.sh), and stops the build, naming the failed probe's
# log, when the kernel fits no known variant.

CDEV_COMPAT_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# Only scripts/Makefile.build compiles; the clean and modpost passes read this file too. A
# subdirectory whose Kbuild includes the fragment again inherits the parent's settings.
ifneq ($(filter scripts/Makefile.build %/scripts/Makefile.build,$(MAKEFILE_LIST)),)
# A result from the environment is used only for the kernel it was probed for (an outer build
# for another kernel may have exported it): run-probes.sh writes that kernel into target.txt.
ifdef CDEV_COMPAT_PROBED
ifneq ($(strip $(file <$(CDEV_COMPAT_PROBED)/target.txt)),$(KERNELRELEASE) $(realpath $(objtree)))
undefine CDEV_COMPAT_PROBED
endif
endif
ifndef CDEV_COMPAT_PROBED

# The probes compile with this pass's own command for a module object: the compiler and the
# flags the kernel's Makefile computed for it (exported to this pass), so they see the same
# toolchain (ARCH, CROSS_COMPILE, CC, LLVM, KCFLAGS, W=, ...) as the module. run-probes.sh runs
# it here, in this pass's directory, as one translation unit, and keys its cache on it; it
# takes the caller's job count from the MAKEFLAGS make exports to it. Quoted for the shell.
cdev-compat-quote = '$(subst ','\'',$(1))'
cdev-compat-probe-cmd := $(CC) $(NOSTDINC_FLAGS) $(LINUXINCLUDE) \
	-include $(srctree)/include/linux/compiler_types.h $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) \
	$(KBUILD_CFLAGS_MODULE) $(CFLAGS_MODULE) -DKBUILD_BASENAME='"cdev_compat_probe"' \
	-DKBUILD_MODNAME='"cdev_compat_probe"' -D__KBUILD_MODNAME=kmod_cdev_compat_probe
CDEV_COMPAT_PROBED := $(shell CDEV_COMPAT_PROBE_CMD=$(call cdev-compat-quote,$(cdev-compat-probe-cmd)) \
	CDEV_COMPAT_PROBE_CC=$(call cdev-compat-quote,$(CC)) \
	CDEV_COMPAT_PROBE_SRCARCH=$(call cdev-compat-quote,$(SRCARCH)) \
	CDEV_COMPAT_PROBE_CLANG=$(CONFIG_CC_IS_CLANG) \
	$(CDEV_COMPAT_DIR)/probes/run-probes.sh --in-pass $(abspath $(objtree)))
ifneq ($(.SHELLSTATUS),0)
$(error cdev-compat: feature probes failed for kernel $(KERNELRELEASE) in $(abspath $(objtree)); the failed probe and its log are named above)
endif
export CDEV_COMPAT_PROBED

# NOSTDINC_FLAGS precede the kernel's include dirs and reach subdirectory builds; so does
# subdir-ccflags-y (ccflags-y does not). Each API change (changes/NAME/) may bring wrapper
# headers of its own (changes/NAME/wrap/); <cdev_compat.h> reads each one's header part
# (changes/NAME/compat.h) through the list the probes wrote (cdev_compat_changes.h).
NOSTDINC_FLAGS += -I$(CDEV_COMPAT_DIR)/wrap $(patsubst %,-I%,$(wildcard $(CDEV_COMPAT_DIR)/changes/*/wrap))
subdir-ccflags-y += -I$(CDEV_COMPAT_PROBED) -I$(CDEV_COMPAT_DIR)/include -I$(CDEV_COMPAT_DIR)/changes
ifeq ($(strip $(CDEV_COMPAT_FORCE_INCLUDE)),y)
subdir-ccflags-y += -DCDEV_COMPAT_FORCE_INCLUDE
endif
ifeq ($(strip $(CDEV_COMPAT_REDIRECT)),y)
subdir-ccflags-y += -DCDEV_COMPAT_REDIRECT_REGISTER_CHRDEV -DCDEV_COMPAT_REDIRECT_MODULE_WIDE
endif

endif
endif
