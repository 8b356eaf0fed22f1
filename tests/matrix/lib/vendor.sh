# shellcheck shell=bash
# A vendor's out-of-tree module (make matrix MODULE=DIR [MODULE_TEST=FILE]): checked once,
# then per kernel built on the host against that kernel's headers with the kernel's own tool
# chain (the image's build side, $IMG/buildroot, mounted read-only by bwrap), W=1, and packed
# with the test as KDIR/vendor.cpio for the guest's vendor runner
# (tests/guest/vendor/run-vendor.sh). Cells: build here; load, test, unload, log in the guest.
# Sets VENDOR_DIR, VENDOR_TEST, VENDOR_TEST_TIMEOUT, VENDOR_EXPECT (dkms.conf's modules).

# vendor_check_inputs - MODULE is a directory with a Kbuild or Makefile; MODULE_TEST, if
# given, a readable file. Bad input stops the run before anything is built.
vendor_check_inputs() {
	local i n
	[ -d "$MODULE" ] || die "MODULE=$MODULE is not a directory (an out-of-tree module: Kbuild or Makefile)"
	VENDOR_DIR=$(cd "$MODULE" && pwd)
	[ -f "$VENDOR_DIR/Kbuild" ] || [ -f "$VENDOR_DIR/Makefile" ] ||
		die "MODULE=$MODULE has neither a Kbuild nor a Makefile"
	VENDOR_TEST=
	if [ -n "${MODULE_TEST:-}" ]; then
		if [ ! -f "$MODULE_TEST" ] || [ ! -r "$MODULE_TEST" ]; then
			die "MODULE_TEST=$MODULE_TEST is not a readable file"
		fi
		VENDOR_TEST=$(cd "$(dirname "$MODULE_TEST")" && pwd)/$(basename "$MODULE_TEST")
	fi
	VENDOR_TEST_TIMEOUT=${MODULE_TEST_TIMEOUT:-60}
	[[ $VENDOR_TEST_TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "MODULE_TEST_TIMEOUT=$VENDOR_TEST_TIMEOUT is not a number of seconds"
	# dkms.conf, if any, names the modules the build must make.
	VENDOR_EXPECT=()
	if [ -f "$VENDOR_DIR/dkms.conf" ]; then
		for ((i = 0; i < 64; i++)); do
			# shellcheck disable=SC1091
			n=$(set +eu; kernel_source_dir=/nonexistent dkms_tree=/nonexistent . "$VENDOR_DIR/dkms.conf" \
				>/dev/null 2>&1; eval "printf '%s' \"\${BUILT_MODULE_NAME[$i]:-}\"")
			[ -n "$n" ] || break
			VENDOR_EXPECT+=("$n")
		done
	fi
	need_pkgs bwrap:bubblewrap modinfo:kmod
	matrix_say "module: $VENDOR_DIR${VENDOR_EXPECT[0]:+ (dkms.conf: ${VENDOR_EXPECT[*]})}," \
		"test: ${VENDOR_TEST:-none} (timeout ${VENDOR_TEST_TIMEOUT}s)"
}

# vendor_build K KDIR - build the module for K in KDIR/src with $IMG/buildroot as /; writes
# KDIR/build.log and KDIR/build.env (CELL_build, MSG_build, WARNINGS), and on success
# KDIR/vendor.cpio. Returns 1 when the build failed.
vendor_build() {
	local kdir=$2 kver src=$2/src n ko m missing=() rc=0 st
	st=$(date +%s.%N)
	# shellcheck disable=SC1091,SC2153 # KVER: from the image's image-info.env
	kver=$(. "$IMG/image-info.env" && printf '%s' "$KVER")
	rm -rf "$src"
	# cdev-compat's probe results for this kernel, kept with its image (keyed by what they
	# depend on, compat/probes/run-probes.sh): a cold probe run costs ~3 s of a 5 s build
	mkdir -p "$src" "$IMG/probe-cache"
	# A clean copy (build products of an earlier build on any kernel left out), so every
	# warning is printed and counted.
	tar -C "$VENDOR_DIR" --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='*.order' --exclude=Module.symvers --exclude='.tmp_versions' \
		--exclude=.git -cf - . | tar -C "$src" -xf -
	bwrap --ro-bind "$IMG/buildroot" / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /var/tmp \
		--bind "$IMG/probe-cache" /var/cache/cdev-compat --bind "$src" /build \
		--unshare-all --die-with-parent --new-session --clearenv \
		--setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv HOME /tmp --setenv LC_ALL C.UTF-8 --chdir /build \
		make -C "/usr/lib/modules/$kver/build" M=/build KDIR="/usr/lib/modules/$kver/build" W=1 \
		-j"$(nproc)" modules >"$kdir/build.log" 2>&1 || rc=$?
	# compiler and modpost warnings (make's own "warning: Clock skew" and the like are not)
	WARNINGS=$(grep -cE '^[^ :]+:[0-9]+(:[0-9]+)?: warning:|^WARNING: modpost:' "$kdir/build.log" || true)
	CELL_build=ok MSG_build=
	mapfile -t kos < <(cd "$src" && find . -name '*.ko' | LC_ALL=C sort)
	for m in "${VENDOR_EXPECT[@]}"; do
		printf '%s\n' "${kos[@]}" | grep -q "/$m\.ko$" || missing+=("$m")
	done
	if [ "$rc" -ne 0 ] || [ ${#kos[@]} -eq 0 ] || [ ${#missing[@]} -gt 0 ]; then
		CELL_build=fail
		MSG_build=$(grep -m1 -E '(^|: )(fatal )?error:|^ERROR:|Error [0-9]+' "$kdir/build.log" || true)
		[ -n "$MSG_build" ] || MSG_build=$(grep -v '^make' "$kdir/build.log" | tail -n1)
		[ ${#missing[@]} -eq 0 ] || [ "$rc" -ne 0 ] || MSG_build="dkms.conf names ${missing[*]}, the build made no such .ko"
		[ ${#kos[@]} -gt 0 ] || [ "$rc" -ne 0 ] || MSG_build="the build made no .ko"
		MSG_build="${MSG_build#/build/} [$(vendor_diagnose "$kdir/build.log")]"
	fi
	printf 'CELL_build=%q\nMSG_build=%q\nWARNINGS=%q\nBUILD_S=%q\n' "$CELL_build" "$MSG_build" "$WARNINGS" \
		"$(elapsed "$st")" >"$kdir/build.env"
	[ "$CELL_build" = ok ] || return 1
	vendor_pack "$kdir" "${kos[@]}"
}

# vendor_diagnose LOG - which of the kernel API changes cdev-compat knows (compat/changes/*/)
# a failed build's errors match: "API change NAME: TITLE (KERNEL): VENDOR" for the first whose
# errors pattern matches an error line of LOG, or that none does.
vendor_diagnose() {
	local conf name errs title kern what
	for conf in "$CDEV_TOP"/compat/changes/*/change.conf; do
		[ -f "$conf" ] || continue
		errs=$(sed -n 's/^errors=//p' "$conf")
		[ -n "$errs" ] || continue
		# (GCC quotes with ‘’ in a UTF-8 locale, with '' in C: the patterns use '')
		grep -E '(error|ERROR):' "$1" | sed "s/‘/'/g; s/’/'/g" | grep -qE "$errs" || continue
		name=${conf%/change.conf}
		name=${name##*/}
		title=$(sed -n 's/^title=//p' "$conf")
		kern=$(sed -n 's/^kernel=//p' "$conf")
		what=$(sed -n 's/^vendor=//p' "$conf")
		printf 'API change %s: %s (%s); %s' "$name" "$title" "$kern" "$what"
		return 0
	done
	printf 'none of the API changes cdev-compat knows (compat/changes/)'
}

# vendor_pack KDIR KO... - KDIR/vendor.cpio: /usr/lib/cdev-compat/vendor/ with the modules,
# "order" (load order: the vendor's modules after those they depend on), "deps" (the kernel's
# own modules they need, loaded first with modprobe), the test and its timeout.
vendor_pack() {
	local kdir=$1 root=$1/vendor-root v ko name deps d
	shift
	v=$root/usr/lib/cdev-compat/vendor
	rm -rf "$root"
	mkdir -p "$v/modules"
	declare -A dep_of=() path_of=()
	for ko in "$@"; do
		name=$(modinfo -F name "$kdir/src/$ko")
		[ -n "$name" ] || name=$(basename "$ko" .ko)
		name=${name//-/_}
		cp "$kdir/src/$ko" "$v/modules/$name.ko"
		path_of[$name]=$name.ko
		dep_of[$name]=$(modinfo -F depends "$kdir/src/$ko" | tr ',' ' ')
	done
	# Topological order within the vendor's set; other dependencies are the kernel's.
	: >"$v/order"
	: >"$v/deps.tmp"
	local done_list=' ' progress=1
	while [ "$progress" -eq 1 ]; do
		progress=0
		for name in "${!path_of[@]}"; do
			case "$done_list" in *" $name "*) continue ;; esac
			deps=1
			for d in ${dep_of[$name]}; do
				d=${d//-/_}
				if [ -n "${path_of[$d]:-}" ]; then
					case "$done_list" in *" $d "*) ;; *) deps=0 ;; esac
				else
					printf '%s\n' "$d" >>"$v/deps.tmp"
				fi
			done
			[ "$deps" -eq 1 ] || continue
			printf '%s\n' "$name" >>"$v/order"
			done_list+="$name "
			progress=1
		done
	done
	for name in "${!path_of[@]}"; do
		case "$done_list" in *" $name "*) ;; *) printf '%s\n' "$name" >>"$v/order" ;; esac # a cycle: insmod reports it
	done
	sort -u "$v/deps.tmp" >"$v/deps"
	rm -f "$v/deps.tmp"
	# The kernel's own modules they need, with their dependencies, from the image (the fast
	# path's initramfs has only its own few).
	if [ -s "$v/deps" ]; then
		local kver mods=()
		# shellcheck disable=SC1091
		kver=$(. "$IMG/image-info.env" && printf '%s' "$KVER")
		mapfile -t mods < <(matrix_mod_closure "$IMG/buildroot/usr/lib/modules/$kver" "$(tr '\n' ' ' <"$v/deps")" |
			sed "s|^|usr/lib/modules/$kver/|")
		[ ${#mods[@]} -eq 0 ] ||
			(cd "$root" && cpio -idm --quiet --no-absolute-filenames "${mods[@]}" <"$IMG/image.cpio")
	fi
	if [ -n "$VENDOR_TEST" ]; then
		cp "$VENDOR_TEST" "$v/test"
		chmod 0755 "$v/test"
		basename "$VENDOR_TEST" >"$v/test.name"
	fi
	echo "$VENDOR_TEST_TIMEOUT" >"$v/test.timeout"
	overlay_make_cpio "$root" "$kdir/vendor.cpio"
}
