#!/bin/bash
# make-backport-headers.sh - a "backport-patched" 6.1 headers tree, as some distributions ship
# (RHEL 9.4 did): a copy of the installed Debian 6.1 headers (linux-headers-amd64) whose
# class_create() has 6.4's form (commit 1aaba11da9aa: no owner argument, a plain function)
# while the version stays 6.1, so a driver's LINUX_VERSION_CODE test picks the wrong spelling.
# Prints the tree's build dir. Compile tests only: nothing built against it is ever loaded.
#
# Cached under $CDEV_COMPAT_CACHE/backport-headers/, keyed by the headers package version and
# this script.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

derived_headers backport-headers "${BASH_SOURCE[0]}" ""
[ ! -f "$DH_TOP/.complete" ] || { printf '%s\n' "$DH_KDIR"; exit 0; }
kdir=$DH_KDIR common=$DH_COMMON
class_h=$common/include/linux/device/class.h
# 6.1's macro and the declaration behind it, replaced by 6.4's declaration.
python3 - "$class_h" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
macro = re.search(r'#define class_create\(owner, name\)\s*\\\n(?:.*\\\n)*.*\n', s)
if not macro:
    sys.exit("no class_create(owner, name) macro in " + p)
s = s[:macro.start()] + "struct class * __must_check class_create(const char *name);\n" + s[macro.end():]
open(p, "w").write(s)
PY
grep -q '^struct class \* __must_check class_create(const char \*name);$' "$class_h" ||
	die "could not give $class_h 6.4's class_create()"
# The kernel behind such headers exports it (modpost checks modules against this list).
printf '0x00000000\tclass_create\tvmlinux\tEXPORT_SYMBOL_GPL\t\n' >>"$kdir/Module.symvers"
touch "$DH_TOP/.complete"
log "backport-patched headers: $kdir ($(basename "$kdir") $DH_VERSION, class_create(name) of 6.4)"
printf '%s\n' "$kdir"
