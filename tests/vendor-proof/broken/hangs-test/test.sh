#!/bin/sh
# Reads one line from the device (which never answers).
set -u
major=$(awk '$2 == "broken_hang" { print $1 }' /proc/devices)
[ -n "$major" ] || { echo "error: /proc/devices has no broken_hang"; exit 1; }
mknod /tmp/broken_hang c "$major" 0
head -n1 /tmp/broken_hang
