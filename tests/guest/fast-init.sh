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
bin=/usr/lib/cdev-compat/bin
exit_helper=$bin/cdev-debug-exit

# The mounts and /dev links: one static program (tests/guest/fast-mounts.c). Under TCG every
# program started costs 50-150 ms: as mount, chmod and ln commands they took 13 of them.
"$bin/cdev-fast-mounts" || echo "fast-init: cdev-fast-mounts failed (status $?)" >&2
exec </dev/console >/dev/console 2>&1

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
read -r release </proc/sys/kernel/osrelease
echo "fast-init: $release: starting the $run runner after ${up}s"
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
