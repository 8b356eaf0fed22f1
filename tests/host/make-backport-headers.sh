#!/bin/bash
# make-backport-headers.sh [function|macro] - a "backport-patched" 6.1 headers tree: a copy of
# the installed Debian 6.1 headers (linux-headers-amd64) whose class_create() has 6.4's
# spelling (commit 1aaba11da9aa: no owner argument) while the version stays 6.1, so a driver's
# LINUX_VERSION_CODE test picks the wrong spelling. Two shapes, as kernels ship it:
#   function (default): 6.4's declaration, a plain function (RHEL 9.4 did this);
#   macro: a one-argument macro over 6.1's __class_create(), as the backports project's
#          backport-include/linux/device/class.h defines it for kernels before 6.4.
# Prints the tree's build dir. Compile tests only: nothing built against it is ever loaded.
#
# Cached under $CDEV_COMPAT_CACHE/backport-headers/ (backport-macro-headers/ for the macro),
# keyed by the headers package version and this script.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

shape=${1:-function}
case "$shape" in
function) name=backport-headers ;;
macro) name=backport-macro-headers ;;
*) die "usage: make-backport-headers.sh [function|macro]" ;;
esac
derived_headers "$name" "${BASH_SOURCE[0]}" ""
[ ! -f "$DH_TOP/.complete" ] || { printf '%s\n' "$DH_KDIR"; exit 0; }
kdir=$DH_KDIR common=$DH_COMMON
class_h=$common/include/linux/device/class.h
if [ "$shape" = function ]; then
	want='struct class * __must_check class_create(const char *name);'
else
	want='#define class_create(name) ({ static struct lock_class_key __key; __class_create(THIS_MODULE, name, &__key); })'
fi
# 6.1's macro replaced by the shape's class_create().
python3 - "$class_h" "$want" <<'PY'
import re, sys
p, want = sys.argv[1], sys.argv[2]
s = open(p).read()
macro = re.search(r'#define class_create\(owner, name\)\s*\\\n(?:.*\\\n)*.*\n', s)
if not macro:
    sys.exit("no class_create(owner, name) macro in " + p)
s = s[:macro.start()] + want + "\n" + s[macro.end():]
open(p, "w").write(s)
PY
grep -qxF "$want" "$class_h" || die "could not give $class_h the $shape class_create()"
if [ "$shape" = function ]; then
	# The kernel behind such headers exports it (modpost checks modules against this list).
	printf '0x00000000\tclass_create\tvmlinux\tEXPORT_SYMBOL_GPL\t\n' >>"$kdir/Module.symvers"
fi
touch "$DH_TOP/.complete"
log "backport-patched headers: $kdir ($(basename "$kdir") $DH_VERSION, class_create(name) as a $shape)"
printf '%s\n' "$kdir"
