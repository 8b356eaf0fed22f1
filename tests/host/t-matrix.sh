#!/bin/bash
# t-matrix.sh - the matrix's decisions on the host, from fixture KTAP (no guest is booted):
# a suite row passes only when every required test ran, was not skipped and passed (a skipped
# or missing one fails it, "some passed" never does); the vendor cells (load, test, unload,
# log) from the vendor runner's KTAP, a hang, a crash; the first error lines; the table, JUnit
# and exit status; the kernel file a guest boots (uncompressed at its PVH entry, or the
# bzImage); the vendor runner's bounded wait; bad MODULE/MODULE_TEST input stops before
# anything is built.
# shellcheck disable=SC2034,SC1091 # (the matrix libraries read these globals)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
M=$CDEV_TOP/tests/matrix
for lib in progress kernels boot ktap suites overlay image initramfs kernel-file result run-kernel report junit json; do
	# shellcheck disable=SC1090
	. "$M/lib/$lib.sh"
done
T_RUN=$(date +%s.%N)
work=$TEST_WORK/matrix
rm -rf "$work"
mkdir -p "$work"

# decide MODE KTAPFILE BOOT_STATUS [REQUIRED...] - run the decision for a fake kernel "bookworm"
# on a fixture; leaves its result.env in $work/m/bookworm.
decide() {
	local mode=$1 ktap=$2 status=$3
	shift 3
	MATRIX_DIR=$work/m MODE=$mode SUITE=functional INIT=fast k=bookworm kdir=$work/m/bookworm
	rm -rf "$MATRIX_DIR"
	mkdir -p "$kdir"
	cp "$ktap" "$kdir/ktap.txt"
	: >"$kdir/console.log"
	R_T0=$(date +%s.%N) R_NAME=$k R_DIR=$kdir R_STATUS=prepared R_VERSION='6.1 (x)' R_ARITY='?' R_BOOT_S=1
	R_REQUIRED="$*" R_FAILED=0 R_MISSING=0 R_NOTPASSED='' CELL_build=ok MSG_build='' WARNINGS=0
	BOOT_STATUS=$status BOOT_S=1 BOOT_RC=33
	ktap_tsv "$kdir/ktap.txt" >"$kdir/results.tsv"
	ktap_top "$kdir/ktap.txt" >"$kdir/top.tsv"
	R_PASSED=$(grep -c '^pass' "$kdir/results.tsv" || true)
	R_FAILED=$(grep -c '^fail' "$kdir/results.tsv" || true)
	R_SKIPPED=$(grep -c '^skip' "$kdir/results.tsv" || true)
	decide_errexit "$mode"
}
# decide_errexit MODE - the decision with errexit on, as in the matrix's boot subshell (not
# under "||", where bash ignores errexit).
decide_errexit() {
	set +e
	if [ "$1" = suite ]; then
		(set -e; matrix_suite_decide "$k" "$kdir") >/dev/null 2>&1
	else
		(set -e; matrix_vendor_decide "$k" "$kdir") >/dev/null 2>&1
	fi
	set -e
}
# row VAR - a value from the fixture's result.env
row() { (. "$work/m/bookworm/result.env" && eval "printf '%s' \"\${$1}\""); }

f=$work/suite-ok.ktap
printf '%s\n' 'KTAP version 1' '1..2' '    1..1' '    ok 1 a' 'ok 1 10-x' '    1..1' '    ok 1 b' 'ok 2 20-y' >"$f"
decide suite "$f" ok 10-x 20-y
check "suite: every required test passed: the row passes" test "$(row R_STATUS)" = pass
decide suite "$f" ok 10-x 20-y 30-z
check "suite: a required test missing fails the row although the others passed" test "$(row R_STATUS)" = fail
check "suite: ... and names it" grep -q '30-z: missing' <<<"$(row R_NOTPASSED)"
printf '%s\n' 'KTAP version 1' '1..2' '    1..1' '    ok 1 a' 'ok 1 10-x' '    1..1' '    ok 1 b # SKIP no device' 'ok 2 20-y' >"$f"
decide suite "$f" ok 10-x 20-y
check "suite: a required test whose subtests were all skipped fails the row" test "$(row R_STATUS)" = fail
check "suite: ... as skipped" grep -q '20-y: skipped' <<<"$(row R_NOTPASSED)"
check "suite: the skip is counted" test "$(row R_SKIPPED)" = 1
printf '%s\n' 'KTAP version 1' '1..1' 'ok 1 10-x # SKIP not here' >"$f"
decide suite "$f" ok 10-x
check "suite: a required test skipped at its own line fails the row" test "$(row R_STATUS)" = fail
printf '%s\n' 'KTAP version 1' '1..1' '    # why it failed' '    not ok 1 a' '# 10-x: exit status 1' 'not ok 1 10-x' >"$f"
decide suite "$f" tests_failed 10-x
check "suite: a failed subtest fails the row" test "$(row R_STATUS)" = fail
check "suite: the first error line is the failed subtest's diagnostic" \
	test "$(awk -F'\t' '{ print $3 }' "$work/m/bookworm/top.tsv")" = "why it failed"
printf '%s\r\n' 'KTAP version 1' '1..1' '    1..1' '    ok 1 a' 'ok 1 10-x' >"$f"
decide suite "$f" ok 10-x
check "suite: KTAP with CR line ends (the serial console) reads the same" test "$(row R_STATUS)" = pass
decide suite "$f" hang 10-x
check "suite: a hang fails the row although every test passed" test "$(row R_STATUS)" = hang

# The runner's "# cdev-compat-time" line after a result is no diagnostic of the next test.
printf '%s\n' 'KTAP version 1' '1..2' '# 10-x: exit status 3' 'not ok 1 10-x' '# cdev-compat-time: 10-x 1.0 s' \
	'# 20-y: exit status 3' 'not ok 2 20-y' '# cdev-compat-time: 20-y 1.0 s' >"$work/time.ktap"
check "ktap: a failed test's diagnostics hold no time line" \
	test "$(ktap_tsv "$work/time.ktap" | awk -F'\t' '$2 == "20-y" { print $4 }')" = "20-y: exit status 3"

# The report of a suite row that failed on a missing test, and of one that passed.
decide suite "$f" ok 10-x 30-z
out=$(MODE=suite SUITE=functional matrix_report bookworm 2>&1) && rc=0 || rc=$?
check "suite report: exits non-zero when a row failed" test "$rc" -ne 0
check "suite report: the row is in the table, failed" grep -qE '^bookworm .*\| fail$' <<<"$out"
check "suite report: the missing test counts as a failure" grep -qx '1 passed, 1 failed' <<<"$out"
decide suite "$f" ok 10-x
out=$(MODE=suite SUITE=functional matrix_report bookworm 2>&1) && rc=0 || rc=$?
check "suite report: every required test passed: status 0" test "$rc" -eq 0
check "suite report: ... and the closing line" grep -qx '1 passed, 0 failed' <<<"$out"

vfix=$work/vendor.ktap
vk() { printf '%s\n' 'KTAP version 1' '1..4' "$@" >"$vfix"; }
vk 'ok 1 load' '    1..1' '    ok 1 reads' 'ok 2 test' 'ok 3 unload' 'ok 4 log'
decide vendor "$vfix" ok
check "vendor: all cells ok: the row passes" test "$(row R_STATUS)-$(row CELL_test)" = pass-ok
vk '# insmod x: BUG: kernel NULL pointer dereference' 'not ok 1 load' 'ok 2 test # SKIP the load failed' \
	'ok 3 unload # SKIP the load failed' '# Oops: 0002 [#1] SMP' 'not ok 4 log'
decide vendor "$vfix" tests_failed
check "vendor: an oops on load: load and log fail, test and unload not run" \
	test "$(row CELL_load) $(row CELL_test) $(row CELL_unload) $(row CELL_log)" = "fail - - fail"
check "vendor: the load cell's first error line" test "$(row MSG_load)" = "insmod x: BUG: kernel NULL pointer dereference"
vk 'ok 1 load' '# hang: test.sh still running after 20s, killed' 'not ok 2 test' 'ok 3 unload' 'ok 4 log'
decide vendor "$vfix" tests_failed
check "vendor: a test killed by the timeout is HANG in the test cell only" \
	test "$(row CELL_load) $(row CELL_test) $(row CELL_unload) $(row CELL_log)" = "ok hang ok ok"
vk 'ok 1 load' 'ok 2 test # SKIP no MODULE_TEST given' 'ok 3 unload' 'ok 4 log'
decide vendor "$vfix" ok
check "vendor: no test given: the test cell is 'skip' and the row passes" \
	test "$(row CELL_test)-$(row R_STATUS)" = skip-pass
printf '%s\n' 'KTAP version 1' '1..4' 'ok 1 load' '# cdev-vendor: stage test' >"$vfix"
decide vendor "$vfix" hang
check "vendor: a guest that stops answering in the test: test HANG, unload and log not run" \
	test "$(row CELL_load) $(row CELL_test) $(row CELL_unload) $(row CELL_log)" = "ok hang - -"
check "vendor: ... and the row fails" test "$(row R_STATUS)" = hang

# A guest that died before its runner started (no KTAP, no stage line): the load cell fails
# with the kernel's last words; a row whose run broke (no decision) still counts as a failure.
: >"$vfix"
decide vendor "$vfix" no_exit_status
printf '%s\n' '[    5.6] Kernel panic - not syncing: No working init found.' >>"$work/m/bookworm/console.log"
decide_errexit vendor
check "vendor: a guest that died before its runner started: load FAIL, the rest not run" \
	test "$(row CELL_load) $(row CELL_test) $(row CELL_unload) $(row CELL_log) $(row R_STATUS)" = "fail - - - fail"
check "vendor: ... with the kernel's last words" grep -q '^Kernel panic - not syncing' <<<"$(row MSG_load)"
sed -i 's/^R_STATUS=.*/R_STATUS=prepared/; s/^CELL_load=.*/CELL_load=-/' "$work/m/bookworm/result.env"
VENDOR_DIR=/x VENDOR_TEST=''
out=$(matrix_report bookworm 2>&1) && rc=0 || rc=$?
check "report: a row whose boot broke before any decision counts as a failure" \
	eval "[ $rc -ne 0 ] && grep -qx '1 passed, 1 failed' <<<\"\$out\" && grep -q '^bookworm: error: image ready but the boot did not complete' <<<\"\$out\""

# The report of a row that stopped answering in its test: a failed cell's line, JUnit, status.
printf '%s\n' 'KTAP version 1' '1..4' 'ok 1 load' '# cdev-vendor: stage test' >"$vfix"
decide vendor "$vfix" hang
VENDOR_DIR=/x VENDOR_TEST=''
out=$(matrix_report bookworm 2>&1) && rc=0 || rc=$?
check "report: exits non-zero when a cell failed" test "$rc" -ne 0
check "report: the table has the HANG cell" grep -qE '^bookworm .*\| HANG' <<<"$out"
check "report: the failed cell's line is under the table" grep -q '^bookworm test: hang' <<<"$out"
check "report: closing line counts the cells (build, load ok; test failed)" grep -qx '2 passed, 1 failed' <<<"$out"
check "report: JUnit names the failed cell" grep -q 'name="test"><failure' "$work/m/junit.xml"
check "report: the Markdown summary has the table" grep -q '^| bookworm |' "$work/m/summary.md"
# A kernel name longer than the kernel column's 14 characters widens it: the columns stay aligned.
rm -rf "$work/m/onearg-newest-nodebug"
cp -r "$work/m/bookworm" "$work/m/onearg-newest-nodebug"
out=$(matrix_report bookworm onearg-newest-nodebug 2>&1) || true
check "report: with onearg-newest-nodebug, every table line has its first | at column 23" \
	test "$(awk '/^kernel /,/^$/' <<<"$out" | grep '|' | awk '{ print index($0, "|") }' | sort -u | tr '\n' ' ')" = "23 "
matrix_report bookworm >/dev/null 2>&1 || true
# results.json: valid JSON, its schema, one record per cell, the hung cell with its message and
# the logs that show it; a message with quotes, a backslash and a tab stays one JSON string.
json_field() {
	/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/m/results.json" "$1"
}
check "results.json: is JSON with schema cdev-compat-matrix/1 and mode vendor" \
	test "$(json_field 'd["schema"] + " " + d["mode"]' 2>&1)" = "cdev-compat-matrix/1 vendor"
check "results.json: one record per cell: build load test unload log" \
	test "$(json_field '" ".join(r["cell"] for r in d["records"])' 2>&1)" = "build load test unload log"
check "results.json: the test cell is hang, with its message and the console log" \
	test "$(json_field '[(r["status"], r["message"] != "", r["logs"][0]) for r in d["records"] if r["cell"] == "test"]' 2>&1)" = \
	"[('hang', True, '$work/m/bookworm/console.log')]"
check "results.json: cells after the hang are not-run" \
	test "$(json_field '[r["status"] for r in d["records"]][3:]' 2>&1)" = "['not-run', 'not-run']"
sed -i 's/^MSG_test=.*/MSG_test=$'"'"'say "hi" \\\\ \\tthere'"'"'/' "$work/m/bookworm/result.env"
matrix_json bookworm
check "results.json: quotes, a backslash and a tab in a message" \
	test "$(json_field '[r["message"] for r in d["records"] if r["cell"] == "test"][0]' 2>&1)" = "$(printf 'say "hi" \\ \tthere')"

# A hang before the test runner started gets one more boot, reported; a hang after it started
# is the result. matrix_boot is replaced by a stub that plays the given boots in turn.
# boots_play OUTCOME... - each OUTCOME is "hang-early", "hang-late" or "ok"; runs
# matrix_boot_kernel for a suite row requiring 10-x; prints how many boots it made.
boots_play() {
	MATRIX_DIR=$work/m MODE=suite SUITE=functional INIT=fast ACCEL=tcg k=bookworm kdir=$work/m/bookworm
	rm -rf "$MATRIX_DIR"
	mkdir -p "$kdir"
	printf '%s\n' "$@" >"$work/boots"
	echo /x/image.cpio >"$kdir/base-cpio"
	echo /x/tests.cpio >"$kdir/tests-cpio"
	R_T0=$(date +%s.%N) R_NAME=$k R_DIR=$kdir R_STATUS=prepared R_VERSION='6.1 (x)' R_IMG=/x R_REQUIRED=10-x
	R_RETRY='' matrix_result_write "$kdir"
	(
		# shellcheck disable=SC2317 # (called by matrix_boot_kernel)
		matrix_boot() {
			local outcome
			outcome=$(head -n1 "$work/boots")
			sed -i 1d "$work/boots"
			echo boot >>"$work/boots.made"
			: >"$kdir/ktap.txt"
			# shellcheck disable=SC2030 # the stub's results, read in this subshell
			BOOT_S=600 BOOT_RC=124 BOOT_STATUS=hang
			case "$outcome" in
			hang-early) echo '[    1.0] Run /sbin/init as init process' >"$kdir/console.log" ;;
			hang-late) printf '%s\n' 'KTAP version 1' '1..1' >"$kdir/console.log" ;;
			report-early | report-late | report-unplaced)
				printf '%s\n' 'KTAP version 1' '1..1' '    1..1' '    not ok 1 kernel_log_clean' 'not ok 1 10-x' >"$kdir/ktap.txt"
				BOOT_S=9 BOOT_RC=35 BOOT_STATUS=tests_failed
				if [ "$outcome" = report-early ]; then
					printf '%s\r\n' '[    0.007316] BUG: KASAN: wild-memory-access in do_raw_spin_lock+0x109/0x240' 'KTAP version 1' >"$kdir/console.log"
				elif [ "$outcome" = report-late ]; then
					printf '%s\r\n' 'KTAP version 1' '[   20.000000] BUG: KASAN: slab-use-after-free in x+0x1/0x2' >"$kdir/console.log"
				else
					printf '%s\r\n' '[   20.000000] BUG: KASAN: slab-use-after-free in x+0x1/0x2' >"$kdir/console.log"
				fi
				;;
			ok)
				printf '%s\n' 'KTAP version 1' '1..1' '    1..1' '    ok 1 a' 'ok 1 10-x' >"$kdir/ktap.txt"
				BOOT_S=9 BOOT_RC=33 BOOT_STATUS=ok
				;;
			esac
		}
		rm -f "$work/boots.made"
		matrix_boot_kernel bookworm >"$work/boots.log" 2>&1 || true
		wc -l <"$work/boots.made"
	)
}
check "boot: a hang before the runner started gets a second boot" test "$(boots_play hang-early ok)" = 2
check "boot: ... whose result is the row's (pass)" test "$(row R_STATUS)" = pass
check "boot: ... the row says it was booted twice and why" grep -q 'hung before the test runner started' <<<"$(row R_RETRY)"
check "boot: ... the first console is kept" grep -q 'Run /sbin/init' "$work/m/bookworm/console.hung-before-tests.log"
check "boot: a hang after the runner started gets no second boot" test "$(boots_play hang-late ok)" = 1
check "boot: ... and the row is a hang" test "$(row R_STATUS)" = hang
check "boot: two hangs before the runner: two boots, no third, the row is a hang" \
	test "$(boots_play hang-early hang-early ok)-$(row R_STATUS)" = 2-hang
check "boot: a failed boot whose kernel reported a bug before the runner started gets a second boot" \
	test "$(boots_play report-early ok)-$(row R_STATUS)" = 2-pass
check "boot: ... the row says why" grep -qF \
	"reported '[    0.007316] BUG: KASAN: wild-memory-access in do_raw_spin_lock+0x109/0x240' before the test runner" <<<"$(row R_RETRY)"
check "boot: ... and the first console is kept" grep -q wild-memory "$work/m/bookworm/console.report-before-tests.log"
check "boot: a report after the runner started gets no second boot, and the row fails" \
	test "$(boots_play report-late ok)-$(row R_STATUS)" = 1-fail
check "boot: a report on a console without the runner's KTAP line (before or after?): no second boot" \
	test "$(boots_play report-unplaced ok)-$(row R_STATUS)" = 1-fail
check "boot: the same report before the runner on both boots: two boots, the row fails" \
	test "$(boots_play report-early report-early ok)-$(row R_STATUS)" = 2-fail
boots_play hang-early ok >/dev/null
MATRIX_DIR=$work/m MODE=suite
out=$(matrix_report bookworm 2>&1) || true
check "report: a row booted twice says so under the table" grep -q '^bookworm: booted twice: the first boot hung' <<<"$out"

# matrix_boot itself, with a stand-in QEMU first on PATH that writes to the console file it is
# given: a guest that has not started its test runner ("KTAP version") by
# CDEV_MATRIX_START_TIMEOUT is killed there as a hang before the runner (not at the boot
# timeout, 20 s here); one that started it in time runs on to its exit status. And the guests
# run on a CPU without 5-level paging.
sq=$work/standin-qemu
mkdir -p "$sq" "$work/qimg"
: >"$work/qimg/image.vmlinuz"
cat >"$sq/qemu-system-x86_64" <<'Q'
#!/bin/bash
con=
for a in "$@"; do case "$a" in file,id=con,path=*) con=${a#file,id=con,path=} ;; esac; done
echo '[    1.0] Run /sbin/init as init process' >>"$con"
case "$STANDIN_QEMU" in
silent) exec sleep 600 ;;
runner) echo 'KTAP version 1' >>"$con"; sleep 4; exit 33 ;;
esac
Q
chmod +x "$sq/qemu-system-x86_64"
# qboot BEHAVIOUR - matrix_boot on the stand-in; prints BOOT_STATUS and BOOT_START_LATE.
qboot() {
	(
		MODE=suite INIT=fast ACCEL=tcg kdir=$work/qboot-$1
		mkdir -p "$kdir"
		: >"$kdir/x.cpio"
		PATH=$sq:$PATH STANDIN_QEMU=$1 CDEV_MATRIX_START_TIMEOUT=2 CDEV_MATRIX_BOOT_TIMEOUT=20 \
			matrix_boot bookworm "$kdir" "$work/qimg" console=ttyS0 "$kdir/x.cpio"
		# shellcheck disable=SC2031 # matrix_boot sets it in this subshell
		printf '%s %s\n' "$BOOT_STATUS" "${BOOT_START_LATE:-none}"
	)
}
got=$(qboot silent)
check "boot: a guest with no KTAP version line by CDEV_MATRIX_START_TIMEOUT is killed there as hung (got: $got)" \
	test "$got" = "hang 2"
got=$(qboot runner)
check "boot: a guest that started its runner in time runs on past it to its exit status (got: $got)" \
	test "$got" = "ok none"
check "boot: under TCG the guest CPU has no 5-level paging (-cpu max,la57=off)" \
	grep -qE -- '-cpu max\\?,la57=off ' "$work/qboot-runner/qemu.cmd"
got=$(INIT=fast matrix_start_timeout bookworm)/$(INIT=systemd matrix_start_timeout bookworm)/$(INIT=systemd matrix_start_timeout onearg)
check "boot: the start timeout by default: 120 s fast, 300 s systemd, times the kernel's timeout_factor (got: $got)" \
	test "$got" = 120/300/900
BOOT_START_LATE=2 BOOT_S=2.1
check "boot: the reason names the start timeout ($(matrix_start_late_why))" \
	test "$(matrix_start_late_why)" = ", no KTAP version line within 2s (CDEV_MATRIX_START_TIMEOUT)"
BOOT_START_LATE=

# The vendor run's small root, from a fake image made of this machine's programs: the files of
# the listed packages (through /bin -> usr/bin) and the libraries they need, no documentation,
# an alternative that lands in it, FAST_MODULES with the module index; nothing else.
img=$work/img
fake=$img/root
mkdir -p "$fake/usr/bin" "$fake/usr/lib/x86_64-linux-gnu" "$fake/etc/alternatives" \
	"$fake/usr/share/doc/bash" "$fake/usr/lib/modules/9.9.9/kernel/drivers/virtio" "$fake/usr/lib/modules/9.9.9/kernel/fs"
ln -s usr/bin "$fake/bin"
ln -s usr/lib "$fake/lib"
cp /usr/bin/bash /usr/bin/mawk "$fake/usr/bin/"
printf '#!/bin/sh\n' >"$fake/usr/bin/python3"
ln -s /usr/bin/mawk "$fake/etc/alternatives/awk"
ln -s /etc/alternatives/awk "$fake/usr/bin/awk"
ln -s /usr/bin/python3 "$fake/etc/alternatives/py"
ln -s /etc/alternatives/py "$fake/usr/bin/py"
for l in $(ldd /usr/bin/bash /usr/bin/mawk | awk '/=>/ { print $3 }' | sort -u) /usr/lib/x86_64-linux-gnu/libz.so.1; do
	cp -L "$l" "$fake/usr/lib/x86_64-linux-gnu/"
done
echo "copyright" >"$fake/usr/share/doc/bash/copyright"
mkdir -p "$img/dpkg-lists"
printf '/.\n/bin\n/bin/bash\n/usr/share/doc/bash/copyright\n' >"$img/dpkg-lists/bash.list"
printf '/usr/bin/mawk\n/lib/x86_64-linux-gnu/libz.so.1\n' >"$img/dpkg-lists/mawk:amd64.list"
echo root:x:0:0::/root:/bin/bash >"$fake/etc/passwd"
: >"$fake/usr/lib/modules/9.9.9/kernel/drivers/virtio/virtio_pci.ko"
: >"$fake/usr/lib/modules/9.9.9/kernel/fs/other.ko"
printf 'kernel/drivers/virtio/virtio_pci.ko:\nkernel/fs/other.ko:\n' >"$fake/usr/lib/modules/9.9.9/modules.dep"
overlay_make_cpio "$fake" "$img/image.cpio"
echo KVER=9.9.9 >"$img/image-info.env"
got=$(VENDOR_ROOT_PKGS="bash mawk" matrix_vendor_cpio "$img" 2>&1) || got="failed: $got"
listing=$(cpio -it --quiet <"$got" 2>/dev/null || true)
has() { grep -qx "$1" <<<"$listing"; }
check "vendor root: made once per image, beside image.cpio ($got)" test "${got%-*.cpio}" = "$img/vendor-root"
check "vendor root: a listed package's program, listed as /bin/bash" has usr/bin/bash
check "vendor root: /bin -> usr/bin" has bin
check "vendor root: the library the program needs (libtinfo for bash)" \
	has "usr/lib/x86_64-linux-gnu/$(ldd /usr/bin/bash | awk '/libtinfo/ { print $1 }')"
check "vendor root: a library no kept program needs is left out, though its package is listed (libz)" \
	eval "! grep -q 'libz\.so' <<<\"\$listing\""
check "vendor root: no documentation" eval "! grep -q '^usr/share/doc' <<<\"\$listing\""
check "vendor root: a program of no listed package is left out" eval "! has usr/bin/python3"
check "vendor root: an alternative that lands in it stays (awk -> mawk)" has usr/bin/awk
check "vendor root: an alternative that lands nowhere is gone" eval "! has usr/bin/py"
check "vendor root: /etc" has etc/passwd
check "vendor root: the module index and FAST_MODULES' modules" \
	eval "has usr/lib/modules/9.9.9/modules.dep && has usr/lib/modules/9.9.9/kernel/drivers/virtio/virtio_pci.ko"
check "vendor root: no other kernel module" eval "! has usr/lib/modules/9.9.9/kernel/fs/other.ko"

# The kernel file a guest boots (matrix_kernel_to_boot): a fixture bzImage (setup_sects 1,
# payload_offset 16) whose payload is a zstd-compressed ELF and its size, as the kernel's build
# appends it.
pvh=$work/pvh
mkdir -p "$pvh"
# le32 N - N as 4 little-endian bytes
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
# fake_bzimage DIR ELF [SIZE] - DIR/image.vmlinuz holding ELF (SIZE: the size bytes, if wrong)
fake_bzimage() {
	local dir=$1 elf=$2 size=${3:-$(stat -c %s "$2")} z=$1/image.vmlinuz
	mkdir -p "$dir"
	rm -f "$dir"/image.vmlinux*
	zstd -q -c "$elf" >"$dir/payload"
	printf '%b' "$(le32 "$size")" >>"$dir/payload"
	head -c 1040 /dev/zero >"$z"
	printf '\x01' | dd of="$z" bs=1 seek=$((0x1f1)) conv=notrunc status=none
	printf '%b' "$(le32 16)$(le32 "$(stat -c %s "$dir/payload")")" | dd of="$z" bs=1 seek=$((0x248)) conv=notrunc status=none
	cat "$dir/payload" >>"$z"
}
need_pkgs zstd:zstd
printf '%s\n' '.section .note.Xen,"a",@note' '.balign 4' '.long 4, 4, 0x12' '.asciz "Xen"' '.long 0x1000000' \
	'.text' '.globl _start' '_start: hlt' >"$pvh/pvh.s"
gcc -nostdlib -static -o "$pvh/pvh.elf" "$pvh/pvh.s"
printf '%s\n' '.text' '.globl _start' '_start: hlt' >"$pvh/plain.s"
gcc -nostdlib -static -o "$pvh/plain.elf" "$pvh/plain.s"
fake_bzimage "$pvh/a" "$pvh/pvh.elf"
got=$(matrix_kernel_to_boot "$pvh/a")
check "kernel file: a kernel with a PVH entry boots uncompressed (image.vmlinux)" test "$got" = "$pvh/a/image.vmlinux"
check "kernel file: ... which is the ELF the bzImage holds" cmp -s "$pvh/a/image.vmlinux" "$pvh/pvh.elf"
check "kernel file: CDEV_MATRIX_PVH=0 boots the bzImage" test "$(CDEV_MATRIX_PVH=0 matrix_kernel_to_boot "$pvh/a")" = "$pvh/a/image.vmlinuz"
fake_bzimage "$pvh/b" "$pvh/plain.elf"
check "kernel file: no PVH entry: the bzImage" test "$(matrix_kernel_to_boot "$pvh/b")" = "$pvh/b/image.vmlinuz"
check "kernel file: ... and no image.vmlinux is left" test ! -e "$pvh/b/image.vmlinux"
fake_bzimage "$pvh/c" "$pvh/pvh.elf" 12345
check "kernel file: a payload that does not decompress to its recorded size: the bzImage" \
	test "$(matrix_kernel_to_boot "$pvh/c")" = "$pvh/c/image.vmlinuz"

# The vendor runner's bounded() (tests/guest/vendor/run-vendor.sh), here on the host: a
# command's status, the kill at the deadline, and a command that outlives its SIGKILL (stuck in
# the kernel: here a kill that does not kill) reported after 5 s instead of blocking the runner.
eval "$(sed -n '/^bounded() {/,/^}/p' "$CDEV_TOP/tests/guest/vendor/run-vendor.sh")"
export BOUNDED_MARK=$work/bounded.killed
b=$work/bounded.out
bounded 5 "$b" sh -c 'echo hi; exit 3'
check "bounded: a command's status and output, not hung" test "$B_RC:$B_HUNG:$(cat "$b")" = "3:0:hi"
t0=$SECONDS
bounded 1 "$b" sleep 30
check "bounded: killed at its deadline: hung 1, status 137, within seconds" \
	test "$B_RC:$B_HUNG" = "137:1" -a $((SECONDS - t0)) -le 4
t0=$SECONDS
stuck=$(
	# shellcheck disable=SC2317 # (called by bounded)
	kill() { if [ "$1" = -KILL ]; then return 0; fi; builtin kill "$@"; }
	bounded 1 "$b" sleep 12
	echo "$B_RC:$B_HUNG"
)
check "bounded: still there 5 s after SIGKILL: hung 2, reported before the command ends ($stuck)" \
	test "$stuck" = "137:2" -a $((SECONDS - t0)) -lt 10

# The vendor runner's late_releases_settled(), here on the host with a stand-in dmesg: no late
# release logged, or the newest 10 s old: no wait; the newest 3 s old: it waits until that line
# is 6 s old; one logged anew every second: a diagnostic once its tries are spent.
eval "$(sed -n '/^late_releases_settled() {/,/^}/p' "$CDEV_TOP/tests/guest/vendor/run-vendor.sh")"
# shellcheck disable=SC2317 # (called by late_releases_settled)
emit() { printf '%s\n' "$@"; }
# uptime_s - the uptime in whole seconds; release_at: when the newest late release was logged
# ("now": always the present).
uptime_s() {
	local up _
	read -r up _ </proc/uptime
	echo "${up%.*}"
}
release_at=none
# shellcheck disable=SC2317 # (called by late_releases_settled)
dmesg() {
	local at=$release_at
	[ "$at" != now ] || at=$(uptime_s)
	echo "[    1.000000] kobject: 'msr' (00000000a1b2c3d4): kobject_release, parent 0000000011223344 (delayed 750)"
	[ "$at" = none ] || printf "[%5d.123456] kobject: 'ppp0' (000000005e6f7a8b): kobject_release, parent 0000000000000000 (delayed 1000)\n" "$at"
	echo "[    2.000000] kobject: 'other': something else"
}
settle() {
	local t0=$SECONDS out
	out=$(late_releases_settled "$1")
	echo "$((SECONDS - t0)):$out"
}
# settled LO HI OUT - the last settle took LO to HI seconds and printed OUT.
# shellcheck disable=SC2317 # (called by check)
settled() { [ "${got%%:*}" -ge "$1" ] && [ "${got%%:*}" -le "$2" ] && [ "${got#*:}" = "$3" ]; }
got=$(
	# shellcheck disable=SC2317 # (called by late_releases_settled)
	dmesg() { echo "[    1.000000] msr: loaded"; }
	settle 10
)
check "late releases: none logged: no wait ($got)" settled 0 1 ''
release_at=$(($(uptime_s) - 10))
got=$(settle 10)
check "late releases: the newest 10 s old: no wait ($got)" settled 0 1 ''
release_at=$(($(uptime_s) - 3))
got=$(settle 10)
check "late releases: the newest 3 s old: waits until it is 6 s old ($got)" \
	settled 2 7 ''
release_at=now
got=$(settle 3)
check "late releases: still scheduled after 3 tries: a diagnostic, then on ($got)" \
	settled 3 6 "# late kobject releases were still being scheduled 3 s after the unload"
unset -f dmesg emit uptime_s settle settled

# Bad input: clear errors, nothing built.
bad() { MODULE=$1 MODULE_TEST=${2:-} "$M/run-matrix.sh" 2>&1 | tail -n1; }
check "MODULE=/nonexistent: a clear error" grep -q 'is not a directory' <<<"$(bad /nonexistent)"
mkdir -p "$work/empty"
check "MODULE without Kbuild/Makefile: a clear error" grep -q 'neither a Kbuild nor a Makefile' <<<"$(bad "$work/empty")"
check "MODULE_TEST missing: a clear error" grep -q 'not a readable file' \
	<<<"$(bad "$CDEV_TOP/tests/vendor-example" /nonexistent/test.sh)"
check "an unknown kernel: a clear error" grep -q "unknown kernel 'sid'" <<<"$(KERNELS=sid "$M/run-matrix.sh" 2>&1 | tail -n1)"
