#!/bin/bash
# The fast path's PID 1 (kernel command line rdinit=/usr/lib/cdev-compat/guest/fast-init.sh):
# instead of a systemd boot, mount what the tests use (proc, sys, devtmpfs, debugfs, run),
# then start the runner named by cdev.run= on the command line:
#   cdev.run=suite   run-guest-tests.sh --exit (the tests.d scripts the host appended)
#   cdev.run=vendor  vendor/run-vendor.sh --exit (a vendor's module and test)
# The runner makes QEMU exit with its status (isa-debug-exit). Should it return instead, this
# reports a runner error the same way, then powers off (the host then sees "no exit status").
# No udev: device nodes come from devtmpfs, which applies the driver's devnode() name and mode.
set -euo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8

here=/usr/lib/cdev-compat/guest
exit_helper=/usr/lib/cdev-compat/bin/cdev-debug-exit

# Bash builtins where they do (under TCG every program started costs 50-150 ms; this script
# started some 30 before the runner, 2 s of a 7 s boot).

# mounted DIR - DIR is a mount point (/proc/mounts; nothing is before /proc is mounted).
mounted() {
	local dir
	[ -r /proc/mounts ] || return 1
	while read -r _ dir _; do
		[ "$dir" != "$1" ] || return 0
	done </proc/mounts
	return 1
}

mnt() {
	local type=$1 dir=$2
	shift 2
	[ -d "$dir" ] || mkdir -p "$dir"
	mounted "$dir" || mount -t "$type" "$@" "$type" "$dir"
}

mnt proc /proc -o nosuid,nodev,noexec
mnt sysfs /sys -o nosuid,nodev,noexec
mnt devtmpfs /dev -o nosuid,mode=0755
exec </dev/console >/dev/console 2>&1
mnt devpts /dev/pts -o nosuid,noexec,gid=5,mode=0620
mnt tmpfs /dev/shm -o nosuid,nodev
mnt tmpfs /run -o nosuid,nodev,mode=0755
# /tmp stays on the root file system (the initramfs, itself a tmpfs), as on the systemd path:
# tests make device nodes there (a tmpfs mounted nodev would refuse to open them).
[ -d /tmp ] || mkdir -p /tmp
chmod 1777 /tmp
mnt debugfs /sys/kernel/debug
[ -e /proc/sys/kernel/hostname ] && echo cdev-matrix >/proc/sys/kernel/hostname
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr

# No udev to load drivers for the devices: the virtio bus (virtio_pci is a module in Debian's
# cloud kernels) and the console driver of the KTAP port.
modprobe -a -q virtio_pci virtio_console 2>/dev/null || true

run=suite
read -r -a args </proc/cmdline
for arg in "${args[@]}"; do
	case "$arg" in cdev.run=*) run=${arg#cdev.run=} ;; esac
done
# The suite loads every module it needs itself. The kernel's own module requests are off for it
# (an empty kernel.modprobe: request_module() returns -ENOENT at once): each open of a device
# number no driver serves asks for "char-major-M-N", and under TCG that modprobe took 120 ms of
# every failed open the tests make. A vendor run keeps them: a vendor's module may need one.
[ "$run" != suite ] || printf '\n' >/proc/sys/kernel/modprobe
read -r up _ </proc/uptime
echo "fast-init: $(uname -r): starting the $run runner after ${up}s"
rc=0
case "$run" in
suite) "$here/run-guest-tests.sh" --exit || rc=$? ;;
vendor) "$here/vendor/run-vendor.sh" --exit || rc=$? ;;
*) echo "fast-init: unknown cdev.run=$run"; rc=2 ;;
esac
echo "fast-init: the $run runner returned $rc without ending the guest"
"$exit_helper" 18 || true
echo o >/proc/sysrq-trigger
sleep 10
