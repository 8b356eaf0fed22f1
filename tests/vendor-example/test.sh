#!/bin/sh
# The example's test in the vendor matrix (make matrix MODULE=tests/vendor-example
# MODULE_TEST=tests/vendor-example/test.sh), run in each guest after the module was loaded:
# /proc/devices lists vendor_chardev, its node (made here: the driver creates none) opens and
# reads back the driver's line. Prints KTAP; exits non-zero when a check failed.
set -u
fail=0
echo "KTAP version 1"
echo "1..3"
major=$(awk '$2 == "vendor_chardev" { print $1 }' /proc/devices)
if [ -n "$major" ]; then
	echo "ok 1 registered (major $major)"
else
	echo "# /proc/devices has no vendor_chardev"
	echo "not ok 1 registered"
	fail=1
fi
rm -f /dev/vendor_chardev
if [ -n "$major" ] && mknod /dev/vendor_chardev c "$major" 0; then
	echo "ok 2 node"
else
	echo "not ok 2 node"
	fail=1
fi
got=$(cat /dev/vendor_chardev 2>&1)
if [ "$got" = "hello from vendor_chardev" ]; then
	echo "ok 3 read"
else
	echo "# read: '$got'"
	echo "not ok 3 read"
	fail=1
fi
rm -f /dev/vendor_chardev
exit "$fail"
