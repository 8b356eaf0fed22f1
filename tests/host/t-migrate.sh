#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-migrate.sh - scripts/cdev-compat-migrate and compat/cocci/: the tool's errors; the --cdev
# conversion of a synthetic driver with every return-value form (and, made unconvertible, left
# whole: exit 2, nothing written) and of cpuid, msr, xz_dec_test and ppp_generic from
# linux-source-6.1 (specific rewrites, nothing left of register_chrdev, checkpatch adds
# nothing); the converted four build with W=1 and add no diagnostic, in any file, to the
# originals' against the two-arg and the one-arg headers; --one-arg; --report. The corpus of
# legacy-driver shapes is t-migrate-corpus.sh.
# The converted drivers are regenerated here by `cdev-compat-migrate --cdev` (work dir below),
# the same way the guest tests get them. The full run over the tree is
# compat/cocci/prove-on-linux-source.sh (slow).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs patch:patch shellcheck:shellcheck perl:perl
need_coccinelle
tool=$CDEV_TOP/scripts/cdev-compat-migrate
work=$TEST_WORK/migrate
rm -rf "$work"
mkdir -p "$work"

# --- the tool itself ---------------------------------------------------------------------
out=$(cd "$CDEV_TOP" || exit 1; shellcheck -x --source-path=SCRIPTDIR scripts/cdev-compat-migrate compat/cocci/prove-on-linux-source.sh tests/legacy/stage-corpus.sh 2>&1) || true
check "shellcheck scripts/cdev-compat-migrate compat/cocci/prove-on-linux-source.sh tests/legacy/stage-corpus.sh: clean" test -z "$out"
status=0; err=$("$tool" "$work/missing.c" 2>&1 >/dev/null) || status=$?
check "a missing file: status 1 and 'no such file' (status $status: $err)" \
	eval '[ "$status" -eq 1 ] && grep -q "no such file: .*missing.c" <<<"$err"'
status=0; err=$("$tool" 2>&1 >/dev/null) || status=$?
check "no file: status 1 and a usage (status $status)" eval '[ "$status" -eq 1 ] && grep -q "^usage:" <<<"$err"'
mkdir -p "$work/nospatch"
ln -s "$(command -v bash)" "$work/nospatch/bash"
status=0; err=$(PATH=$work/nospatch bash "$tool" "$tool" 2>&1 >/dev/null) || status=$?
check "spatch missing: status 1 and 'apt install coccinelle' (status $status: $err)" \
	eval '[ "$status" -eq 1 ] && grep -q "apt install coccinelle" <<<"$err"'
mkdir -p "$work/nopython"
printf '#!/bin/sh\necho "Py.find_library: unable to find the Python library" >&2\nexit 1\n' >"$work/nopython/spatch"
chmod +x "$work/nopython/spatch"
printf 'int x;\n' >"$work/nopython.c"
status=0; err=$(PATH=$work/nopython:$PATH "$tool" --cdev "$work/nopython.c" 2>&1 >/dev/null) || status=$?
check "spatch without its libpython: status 1 and 'apt install libpython3-dev' (status $status)" \
	eval '[ "$status" -eq 1 ] && grep -q "apt install libpython3-dev" <<<"$err"'
status=0; err=$("$tool" --embed nodot "$tool" 2>&1 >/dev/null) || status=$?
check "--embed without STRUCT.MEMBER: status 1 and the expected form (status $status: $err)" \
	eval '[ "$status" -eq 1 ] && grep -q "STRUCT.MEMBER" <<<"$err"'

# --- a synthetic legacy driver: every form the conversion must keep -----------------------
cat >"$work/legacy.c" <<'EOF_C'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include "legacy.h"

static int major;
static int fixed_major = 240;
static int range_major;

static const struct file_operations a_fops = { .owner = THIS_MODULE };
static const struct file_operations b_fops = { .owner = THIS_MODULE };
static const struct file_operations c_fops = { .owner = THIS_MODULE };
static const struct file_operations d_fops = { .owner = THIS_MODULE };

struct per_dev {
	int major;
};

static int per_dev_add(struct per_dev *pd)
{
	pd->major = register_chrdev(0, "perdev", &d_fops);
	return pd->major < 0 ? pd->major : 0;
}

static int legacy_range_init(void)
{
	int ret;

	ret = __register_chrdev(0, 0, 1024, "legacy-c", &c_fops);
	if (ret < 0)
		return ret;
	range_major = ret;
	return 0;
}

static int __init legacy_init(void)
{
	int ret;

	major = register_chrdev(0, "legacy-a", &a_fops);
	if (major < 0)
		return major;
	if (register_chrdev(fixed_major, "legacy-b", &b_fops)) {
		ret = -EBUSY;
		goto err_a;
	}
	ret = legacy_range_init();
	if (ret < 0)
		goto err_b;
	return 0;

err_b:
	unregister_chrdev(fixed_major, "legacy-b");
err_a:
	unregister_chrdev(major, "legacy-a");
	return ret;
}

static void __exit legacy_exit(void)
{
	__unregister_chrdev(range_major, 0, 1024, "legacy-c");
	unregister_chrdev(fixed_major, "legacy-b");
	unregister_chrdev(major, "legacy-a");
}
EOF_C
status=0
"$tool" --cdev "$work/legacy.c" >"$work/legacy.diff" 2>"$work/legacy.log" || status=$?
check "synthetic driver: converted whole, exit status 0 (status $status; $(head -c 300 "$work/legacy.log"))" \
	test "$status" -eq 0
for want in \
	'^+static struct cdev_compat_region a_region;$' \
	'^+	major = cdev_compat_register_chrdev(&a_region, 0, "legacy-a", &a_fops);$' \
	'^+	if (cdev_compat_register_chrdev(&fixed_region, fixed_major, "legacy-b",$' \
	'^+	ret = cdev_compat_register(&range_region, 0, 0, 1024, "legacy-c",$' \
	'^+	range_major = cdev_compat_major(&range_region);$' \
	'^+	struct cdev_compat_region region;$' \
	'^+	pd->major = cdev_compat_register_chrdev(&pd->region, 0, "perdev",$' \
	'^+static struct cdev_compat_region range_region;$' \
	'^+static struct cdev_compat_region fixed_region;$' \
	'^+#define CDEV_COMPAT_DEFINE_HELPERS$' \
	'^+#include <cdev_compat.h>$'; do
	check "synthetic driver: the diff has '$want'" grep -q -- "$want" "$work/legacy.diff"
done
check "synthetic driver: #include <cdev_compat.h> right after the last #include (\"legacy.h\")" \
	grep -A2 -q -- '^ #include "legacy.h"$' "$work/legacy.diff"
check "synthetic driver: each handle sits next to the variable that holds its major" \
	eval "grep -A1 -q '^ static int major;\$' '$work/legacy.diff' &&
		grep -A1 '^ static int major;\$' '$work/legacy.diff' | grep -q 'a_region;'"
check "synthetic driver: both error labels and the exit path unregister by handle (5 calls)" \
	test "$(grep -c '^+.*cdev_compat_unregister(&[a-z]*_region);$' "$work/legacy.diff")" -eq 5
check "synthetic driver: no unregister call with a major left" \
	eval '! grep -q "^+.*unregister_chrdev(" "$work/legacy.diff"'

# Whole or nothing: a per-device struct freed outside module exit makes the file refused; the
# registrations the tool could convert stay as they are too, and --in-place writes nothing.
sed 's/^static int per_dev_add(struct per_dev \*pd)$/void per_dev_put(struct per_dev *pd)\n{\n\tkfree(pd);\n}\n\n&/' \
	"$work/legacy.c" >"$work/refused.c"
cp "$work/refused.c" "$work/refused.orig.c"
status=0
"$tool" --cdev --in-place "$work/refused.c" >"$work/refused.out" 2>"$work/refused.log" || status=$?
check "whole or nothing: exit 2, the per-device registration named with its line and reason (status $status)" \
	eval '[ "$status" -eq 2 ] && grep -q "refused.c:27: not converted: register_chrdev(): struct per_dev is freed in per_dev_put()" "$work/refused.log"'
check "whole or nothing: --in-place leaves the refused file as it was, the convertible calls included" \
	cmp -s "$work/refused.c" "$work/refused.orig.c"
check "whole or nothing: only the refused registration is named (1 line)" \
	test "$(grep -c "not converted" "$work/refused.log")" -eq 1

cp "$work/legacy.c" "$work/inplace.c"
before=$(sha256sum <"$work/inplace.c")
"$tool" --cdev "$work/inplace.c" >/dev/null 2>&1 || true
check "without --in-place the file is not changed" test "$(sha256sum <"$work/inplace.c")" = "$before"
"$tool" --cdev --in-place "$work/inplace.c" >/dev/null 2>&1 || true
check "--in-place writes the converted file" grep -q 'cdev_compat_register_chrdev(&a_region' "$work/inplace.c"

# --- the four real drivers ---------------------------------------------------------------
drivers=(arch/x86/kernel/cpuid.c arch/x86/kernel/msr.c lib/xz/xz_dec_test.c drivers/net/ppp/ppp_generic.c)
src=$(source_files "${drivers[@]}" scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
mkdir -p "$work/orig" "$work/conv"
for rel in "${drivers[@]}"; do
	name=$(basename "$rel")
	cp "$src/$rel" "$work/orig/"
	status=0
	(cd "$src" && "$tool" --cdev "$rel") >"$work/$name.diff" 2>"$work/$name.log" || status=$?
	check "$name: --cdev converts it all (status $status)" test "$status" -eq 0
	cp "$src/$rel" "$work/conv/"
	sed "s#^\(---\|+++\) [ab]/$(dirname "$rel")/#\1 a/#" "$work/$name.diff" |
		patch -s -d "$work/conv" -p1 --no-backup-if-mismatch
	check "$name: the converted driver calls no (__)(un)register_chrdev() (comments aside)" \
		eval "! grep -vE '^[[:space:]]*(/?\\*|//)' '$work/conv/$name' | grep -qE '(^|[^A-Za-z0-9_])(__)?(un)?register_chrdev\\('"
	n_unreg=$(grep -cE '(^|[^A-Za-z0-9_])(__)?unregister_chrdev\(' "$work/orig/$name")
	check "$name: each of its $n_unreg unregister calls became cdev_compat_unregister(&handle)" \
		test "$(grep -c 'cdev_compat_unregister(&[a-z_]*_region);' "$work/conv/$name")" -eq "$n_unreg"
	last=$(grep -n '^#include' "$work/conv/$name" | tail -n1 | cut -d: -f2-)
	check "$name: #include <cdev_compat.h> is its last #include" test "$last" = "#include <cdev_compat.h>"
	# checkpatch -f on the original and on the converted file: the conversion may add no finding.
	cp_out=$(comm -13 <(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types -f "$work/orig/$name" 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):' | cut -d: -f3- | sort -u) \
		<(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types -f "$work/conv/$name" 2>&1 |
			grep -E ': (ERROR|WARNING|CHECK):' | cut -d: -f3- | sort -u))
	check "$name: checkpatch -f finds nothing in the converted file that it does not find in the original${cp_out:+ ($(head -n2 <<<"$cp_out" | tr '\n' ' '))}" \
		test -z "$cp_out"
done
check "xz_dec_test.c: the dynamic major keeps its meaning (device_major = cdev_compat_register_chrdev(&device_region, 0, ...)" \
	grep -q 'device_major = cdev_compat_register_chrdev(&device_region, 0,' "$work/conv/xz_dec_test.c"
check "xz_dec_test.c: the handle sits next to device_major" \
	eval "grep -A1 '^static int device_major;\$' '$work/conv/xz_dec_test.c' | grep -q '^static struct cdev_compat_region device_region;\$'"
check "ppp_generic.c: err = cdev_compat_register_chrdev(&ppp_device_region, PPP_MAJOR, ...) and the out_chrdev label unregisters by handle" \
	eval "grep -q 'err = cdev_compat_register_chrdev(&ppp_device_region, PPP_MAJOR,' '$work/conv/ppp_generic.c' &&
		grep -A1 '^out_chrdev:' '$work/conv/ppp_generic.c' | grep -q 'cdev_compat_unregister(&ppp_device_region);'"
check "cpuid.c: __register_chrdev(CPUID_MAJOR, 0, NR_CPUS, ...) became cdev_compat_register(&cpuid_region, CPUID_MAJOR, 0, NR_CPUS, ...), the result used as before" \
	grep -q '	if (cdev_compat_register(&cpuid_region, CPUID_MAJOR, 0, NR_CPUS,$' "$work/conv/cpuid.c"
check "each converted driver defines the helpers once (#define CDEV_COMPAT_DEFINE_HELPERS before the include)" \
	test "$(grep -l '^#define CDEV_COMPAT_DEFINE_HELPERS$' "$work"/conv/*.c | wc -l)" -eq 4

# Builds: the originals on their own two-arg headers are the baseline; the converted drivers
# on both kinds of headers may add no diagnostic to it: every diagnostic of the build (the
# drivers', the compat headers', modpost's), line numbers aside, compared sorted.
objs=""
for rel in "${drivers[@]}"; do objs+=" $(basename "$rel" .c).o"; done
twoarg=$(headers_twoarg)
onearg=$(headers_onearg)
build() { # build VERSION KDIR - sets dir
	dir=$work/build-$1-$(basename "$(dirname "$2")")-$(basename "$2")
	mkdir -p "$dir"
	cp "$work/$1"/*.c "$dir/"
	printf 'obj-m :=%s\ninclude %s/compat/cdev-compat.mk\n' "$objs" "$CDEV_TOP" >"$dir/Kbuild"
	kbuild "$2" "$dir" "$dir/build.log" -k || true
}
# all_diags LOG - every diagnostic of a build log, file names kept, line numbers dropped,
# sorted for comm.
all_diags() {
	grep -E '(warning|error):|^(WARNING|ERROR): ' "$1" | sed -E 's#^.*/([^/:]+:[0-9]+:[0-9]+:)#\1#; s/:[0-9]+:[0-9]+:/:/' |
		LC_ALL=C sort -u || true
}
build orig "$twoarg"
base=$dir
for tree in twoarg onearg; do
	if [ "$tree" = twoarg ]; then kdir=$twoarg; else kdir=$onearg; fi
	build conv "$kdir"
	for rel in "${drivers[@]}"; do
		name=$(basename "$rel" .c)
		check "$name converted, on the $tree headers: builds with W=1 (log $dir/build.log)" test -f "$dir/$name.ko"
	done
	extra=$(LC_ALL=C comm -13 <(all_diags "$base/build.log") <(all_diags "$dir/build.log"))
	check "the converted drivers on the $tree headers: no diagnostic beyond the originals' in any file ($(wc -l <<<"${extra:-}" | tr -d ' ') extra${extra:+: $(head -n2 <<<"$extra" | tr '\n' ' ')}; log $dir/build.log)" \
		test -z "$extra"
done

# --- --one-arg and --report ---------------------------------------------------------------
(cd "$work/orig" && "$tool" --one-arg msr.c) >"$work/msr-onearg.diff"
check "--one-arg msr.c: both __unregister_chrdev() calls lose the name, the header is included" \
	eval "[ \"\$(grep -c '^+.*__unregister_chrdev(MSR_MAJOR, 0, NR_CPUS);' '$work/msr-onearg.diff')\" -eq 2 ] &&
		grep -q '^+#include <cdev_compat.h>' '$work/msr-onearg.diff'"
(cd "$work/orig" && "$tool" --one-arg --no-include msr.c) >"$work/msr-onearg-noinc.diff"
check "--one-arg --no-include adds no #include" eval "! grep -q '^+#include' '$work/msr-onearg-noinc.diff'"
lp=$(source_files drivers/char/lp.c drivers/char/misc.c)
report=$("$tool" --report "$lp/drivers/char/lp.c" "$lp/drivers/char/misc.c" 2>&1 || true)
check "--report flags lp.c's minor-indexed lp_table in lp_open (line 498) and says what replaces it" \
	grep -q 'lp\.c:498:.*indexes lp_table\[\].*cdev_compat_from_inode(inode, struct lp_struct, region)' <<<"$report"
check "--report flags misc.c's minor lookup loop in misc_open" grep -q 'misc\.c:102:.*looked up in a loop' <<<"$report"
report=$("$tool" --report "$work/orig/msr.c" 2>&1 || true)
check "--report lists msr.c's four iminor() uses (the CPU number: a value, and the bound check)" \
	test "$(grep -c 'msr\.c:[0-9]*: minor number' <<<"$report")" -eq 4
report=$("$tool" --report "$work/orig/xz_dec_test.c" 2>&1 || true)
check "--report is silent on xz_dec_test.c, which never looks at the minor" test -z "$report"
