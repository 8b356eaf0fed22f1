#!/bin/sh
# The device must answer 42.
set -u
major=$(awk '$2 == "broken_answer" { print $1 }' /proc/devices)
[ -n "$major" ] || { echo "error: /proc/devices has no broken_answer"; exit 1; }
mknod /tmp/broken_answer c "$major" 0
got=$(cat /tmp/broken_answer)
rm -f /tmp/broken_answer
[ "$got" = 42 ] || { echo "mismatch: the device answered '$got', expected '42'"; exit 1; }
