#!/bin/sh
# Passes where the module built and loaded: /proc/devices lists it.
grep -qw broken_twoarg /proc/devices || { echo "error: /proc/devices has no broken_twoarg"; exit 1; }
