#!/bin/bash
# Throwaway Debian bookworm roots for the package scenarios. Source it (after scripts/lib.sh).
# shellcheck shell=bash
#
# Two cached layers under $CDEV_COMPAT_CACHE/chroots/<key>/, keyed by their inputs (mirror,
# suite, package lists, recipe revision):
#   base/     debootstrap minbase + dkms + openssl + xz, bookworm-backports enabled, both kernels'
#             header .debs downloaded (not installed) into /var/cache/apt/archives
#   headers-rN/  overlay upper layer on base: both kernels' headers installed, and /boot/config-<kver>
#             planted as a linux-image package would, so dkms behaves as in an image. The 6.12
#             headers depend on their linux-image package, which is installed, but its 4228
#             modules are removed from the layer (modules.order emptied, depmod run again):
#             dkms runs depmod -a after every install and removal, 7 s of CPU each on that
#             tree here, and nothing a scenario checks reads another module (the 6.1 kernel has
#             no image at all). N is CHROOT_HEADERS_REV: a new headers recipe keeps the base.
# Every scenario gets its own overlayfs on top (upper dir thrown away), so scenarios are
# independent and the cached layers are never written.
#
# Nothing run in a root can load a module into this machine's kernel: every command runs under
# setpriv with CAP_SYS_MODULE removed from the bounding set (the kernel refuses init_module), /sys
# is not mounted, and modprobe/insmod/rmmod are shadowed by stubs that log the call and fail.

CHROOT_RECIPE_REV=3
CHROOT_HEADERS_REV=2
CHROOT_SUITE=bookworm
CHROOT_PKGS="dkms openssl xz-utils kmod ca-certificates"
CHROOT_MOUNTS=()

# chroot_key - hash of everything the cached layers are built from.
chroot_key() {
	printf '%s\n' "$CHROOT_RECIPE_REV" "$CHROOT_SUITE" "$CHROOT_PKGS" "$(apt_mirror_debian)" \
		"$(apt_mirror_security)" "$(dpkg --print-architecture)" | sha256sum | cut -c1-16
}

# in_root ROOT CMD... - run CMD inside ROOT without CAP_SYS_MODULE and with a clean environment.
in_root() {
	local root=$1
	shift
	setpriv --bounding-set -sys_module --inh-caps -sys_module \
		chroot "$root" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# root_mount ROOT - mount /proc, a private /dev, /dev/pts and /run inside ROOT (recorded for
# root_umount_all; call that from an EXIT trap).
root_mount() {
	local root=$1 d
	mount -t proc proc "$root/proc"
	CHROOT_MOUNTS+=("$root/proc")
	mount -t tmpfs -o mode=755,nosuid dev "$root/dev"
	CHROOT_MOUNTS+=("$root/dev")
	for d in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
		IFS=: read -r name maj min <<<"$d"
		mknod -m 666 "$root/dev/$name" c "$maj" "$min"
	done
	ln -s /proc/self/fd "$root/dev/fd"
	ln -s /proc/self/fd/0 "$root/dev/stdin"
	ln -s /proc/self/fd/1 "$root/dev/stdout"
	ln -s /proc/self/fd/2 "$root/dev/stderr"
	mkdir -p "$root/dev/pts" "$root/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
	CHROOT_MOUNTS+=("$root/dev/pts")
	ln -s pts/ptmx "$root/dev/ptmx"
	mount -t tmpfs -o mode=755,nosuid,nodev run "$root/run"
	CHROOT_MOUNTS+=("$root/run")
}

# root_umount ROOT - unmount everything recorded at or below ROOT, innermost first.
root_umount() {
	local root=$1 i m keep=()
	for ((i = ${#CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
		m=${CHROOT_MOUNTS[i]}
		case "$m" in
		"$root" | "$root"/*) umount "$m" 2>/dev/null || umount -l "$m" || true ;;
		*) keep=("$m" "${keep[@]}") ;;
		esac
	done
	CHROOT_MOUNTS=("${keep[@]}")
}

root_umount_all() {
	local i
	for ((i = ${#CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${CHROOT_MOUNTS[i]}" 2>/dev/null || umount -l "${CHROOT_MOUNTS[i]}" 2>/dev/null || true
	done
	CHROOT_MOUNTS=()
}

# umount_below DIR - unmount whatever is mounted at or below DIR (also leftovers of a killed
# run), so that a following rm -rf never walks into a mount.
umount_below() {
	local m
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
}

# overlay_mount TARGET UPPER WORK LOWER... - overlayfs, LOWER layers listed topmost first.
overlay_mount() {
	local target=$1 upper=$2 work=$3 lower
	shift 3
	lower=$(
		IFS=:
		printf '%s' "$*"
	)
	mkdir -p "$target" "$upper" "$work"
	mount -t overlay overlay -o "lowerdir=$lower,upperdir=$upper,workdir=$work" "$target"
	CHROOT_MOUNTS+=("$target")
}

# root_guard ROOT - stubs that shadow module loading tools, a policy-rc.d that starts nothing.
root_guard() {
	local root=$1 t
	mkdir -p "$root/usr/local/sbin"
	for t in modprobe insmod rmmod; do
		cat >"$root/usr/local/sbin/$t" <<-'EOF'
			#!/bin/sh
			# cdev-compat test root: module loading is never allowed here.
			echo "$(basename "$0") $*" >>/var/log/cdev-compat-modload.log
			echo "$(basename "$0"): refused in the cdev-compat test root" >&2
			exit 1
		EOF
		chmod 755 "$root/usr/local/sbin/$t"
	done
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
}

# root_prepare ROOT - per-scenario settings: dpkg skips its fsyncs (the root is thrown away), and
# apt runs dpkg (so the maintainer scripts) with /usr/local first in PATH, as in_root does, so
# the stubs there are found (apt's default DPkg::Path leaves /usr/local out).
root_prepare() {
	echo force-unsafe-io >"$1/etc/dpkg/dpkg.cfg.d/cdev-compat-test-unsafe-io"
	echo 'DPkg::Path "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";' \
		>"$1/etc/apt/apt.conf.d/90cdev-compat-test-path"
}

_chroot_build_base() {
	local dir=$1 mirror security tmp kold knew
	mirror=$(apt_mirror_debian)
	security=$(apt_mirror_security)
	tmp=$dir/base.tmp
	umount_below "$tmp"
	rm -rf "$tmp"
	log "debootstrap $CHROOT_SUITE into $tmp"
	debootstrap --variant=minbase --components=main "$CHROOT_SUITE" "$tmp" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
		die "debootstrap failed; see $dir/debootstrap.log"
	cat >"$tmp/etc/apt/sources.list" <<-EOF
		deb $mirror $CHROOT_SUITE main
		deb $mirror $CHROOT_SUITE-updates main
		deb $security $CHROOT_SUITE-security main
		deb $mirror $CHROOT_SUITE-backports main
	EOF
	cat >"$tmp/etc/apt/apt.conf.d/90cdev-compat-test" <<-'EOF'
		APT::Install-Recommends "false";
		Acquire::Languages "none";
		Acquire::Check-Valid-Until "false";
		Binary::apt::APT::Keep-Downloaded-Packages "true";
	EOF
	rm -f "$tmp/etc/apt/apt.conf.d/docker-clean"
	root_guard "$tmp"
	cp /etc/resolv.conf "$tmp/etc/resolv.conf"
	root_mount "$tmp"
	{
		in_root "$tmp" apt-get update
		# shellcheck disable=SC2086
		in_root "$tmp" apt-get install -y $CHROOT_PKGS
		kold=$(in_root "$tmp" apt-cache depends linux-headers-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-headers-[0-9]/ { print $2; exit }')
		knew=$(in_root "$tmp" apt-cache -o APT::Default-Release="$CHROOT_SUITE-backports" depends linux-headers-amd64 |
			awk '$1 == "Depends:" && $2 ~ /^linux-headers-[0-9]/ { print $2; exit }')
		case "$kold:$knew" in
		linux-headers-6.1.*:linux-headers-6.12.*) ;;
		*) root_umount "$tmp"; die "unexpected kernel headers: '$kold' '$knew'" ;;
		esac
		in_root "$tmp" apt-get install -y --download-only "$kold" "$knew/$CHROOT_SUITE-backports"
	} >"$dir/base.log" 2>&1 || { root_umount "$tmp"; die "base root setup failed; see $dir/base.log"; }
	root_umount "$tmp"
	printf 'KOLD_PKG=%s\nKNEW_PKG=%s\n' "$kold" "$knew" >"$tmp/etc/cdev-compat-test-kernels"
	mv "$tmp" "$dir/base"
}

_chroot_build_headers() {
	local dir=$1 tmp kold knew k mods
	tmp=$dir/headers.tmp
	umount_below "$dir/headers.mnt"
	rm -rf "$tmp" "$dir/headers.work" "$dir/headers.mnt"
	# shellcheck disable=SC1091
	. "$dir/base/etc/cdev-compat-test-kernels"
	kold=$KOLD_PKG knew=$KNEW_PKG
	overlay_mount "$dir/headers.mnt" "$tmp" "$dir/headers.work" "$dir/base"
	root_mount "$dir/headers.mnt"
	{
		in_root "$dir/headers.mnt" apt-get install -y --no-download "$kold" "$knew/$CHROOT_SUITE-backports"
		for k in "${kold#linux-headers-}" "${knew#linux-headers-}"; do
			# what a linux-image package leaves; dkms' common.postinst looks for it
			cp "$dir/headers.mnt/usr/src/linux-headers-$k/.config" "$dir/headers.mnt/boot/config-$k"
			# an image's modules: not read by any scenario, but by every depmod -a (see above)
			mods=$dir/headers.mnt/usr/lib/modules/$k
			if [ -d "$mods/kernel" ]; then
				rm -rf "$mods/kernel"
				: >"$mods/modules.order"
				in_root "$dir/headers.mnt" depmod -a "$k"
			fi
		done
	} >"$dir/headers.log" 2>&1 || { root_umount "$dir/headers.mnt"; die "headers layer failed; see $dir/headers.log"; }
	root_umount "$dir/headers.mnt"
	rm -rf "$dir/headers.work" "$dir/headers.mnt"
	mv "$tmp" "$CHROOT_HEADERS"
}

# chroot_ensure - build the cached layers if missing; sets CHROOT_DIR, CHROOT_HEADERS (the
# headers layer), KOLD, KNEW (kernel releases) and KOLD_PKG/KNEW_PKG (header package names).
chroot_ensure() {
	local key lock old
	key=$(chroot_key)
	CHROOT_DIR=$CDEV_COMPAT_CACHE/chroots/$CHROOT_SUITE-$key
	CHROOT_HEADERS=$CHROOT_DIR/headers-r$CHROOT_HEADERS_REV
	mkdir -p "$CHROOT_DIR"
	lock=$CHROOT_DIR/.lock
	exec {CHROOT_LOCK_FD}>"$lock"
	flock "$CHROOT_LOCK_FD"
	[ -d "$CHROOT_DIR/base" ] || _chroot_build_base "$CHROOT_DIR"
	if [ ! -d "$CHROOT_HEADERS" ]; then
		_chroot_build_headers "$CHROOT_DIR"
		# the layers of older recipes (no run uses them: this one holds the lock)
		for old in "$CHROOT_DIR"/headers "$CHROOT_DIR"/headers-r*; do
			[ "$old" = "$CHROOT_HEADERS" ] || rm -rf "$old"
		done
	fi
	flock -u "$CHROOT_LOCK_FD"
	# shellcheck disable=SC1091
	. "$CHROOT_DIR/base/etc/cdev-compat-test-kernels"
	KOLD=${KOLD_PKG#linux-headers-}
	KNEW=${KNEW_PKG#linux-headers-}
	export CHROOT_DIR CHROOT_HEADERS KOLD KNEW KOLD_PKG KNEW_PKG
}

# root_new NAME [headers|base] - a fresh overlay root for one scenario under $RUN_DIR, in ROOT.
# (Not in a $(...) subshell: the mounts are recorded in CHROOT_MOUNTS.)
root_new() {
	local layer=${2:-headers} s=$RUN_DIR/$1
	umount_below "$s"
	rm -rf "$s"
	if [ "$layer" = headers ]; then
		overlay_mount "$s/root" "$s/upper" "$s/work" "$CHROOT_HEADERS" "$CHROOT_DIR/base"
	else
		overlay_mount "$s/root" "$s/upper" "$s/work" "$CHROOT_DIR/base"
	fi
	root_mount "$s/root"
	root_prepare "$s/root"
	# shellcheck disable=SC2034 # used by the scenarios
	ROOT=$s/root
}
