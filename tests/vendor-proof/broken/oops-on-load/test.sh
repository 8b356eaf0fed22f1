#!/bin/sh
# Never reached: the module oopses in its init.
grep -qw broken_oops /proc/devices
