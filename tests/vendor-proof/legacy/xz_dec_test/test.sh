#!/bin/bash
# xz_dec_test's test in the vendor matrix: write a .xz stream (CRC32 check; made with
# "xz -0 --check=crc32" from 20 copies of one line, below in base64) to the driver's device
# (node made here from /proc/devices: the driver creates none); the kernel's XZ decoder must
# reach the end of the stream and the driver must log the CRC32 of the decoded data, which
# is known. Prints KTAP.
set -euo pipefail
want=A92A3016
stream='
/Td6WFoAAAFpIt42AgAhAQwAAACPmEGc4AXvAFVdADGZCN/jXNYA9G/ebH6cpzZU4gfjXnHf29S5cHhllY+9nufRHmDK8iIq
NuCqSzL1aDByzpgVgeLQFufG/llDLzmyCHCmvJ/Wyo3Gw8nX9S+GsNkRkAAAAAAAFjAqqQABbfALAAAABR8K6D4wDYsCAAAA
AAFZWg==
'
echo "KTAP version 1"
echo "1..3"
major=$(awk '$2 == "xz_dec_test" { print $1 }' /proc/devices)
if [ -z "$major" ]; then
	echo "# /proc/devices has no xz_dec_test"
	echo "not ok 1 registered"
	exit 1
fi
echo "ok 1 registered (major $major)"
rm -f /tmp/xz_dec_test
mknod /tmp/xz_dec_test c "$major" 0
printf '%s' "$stream" | base64 -d >/tmp/stream.xz
if dd if=/tmp/stream.xz of=/tmp/xz_dec_test bs=4096 status=none; then
	echo "ok 2 write"
else
	echo "not ok 2 write"
fi
rm -f /tmp/xz_dec_test
got=$(dmesg | sed -n 's/.*xz_dec_test: XZ_STREAM_END, CRC32 = 0x\([0-9A-F]*\).*/\1/p' | tail -n1)
if [ "$got" = "$want" ]; then
	echo "ok 3 decoded (CRC32 $got)"
else
	dmesg | grep 'xz_dec_test:' | tail -n 5 | sed 's/^/# /'
	echo "# CRC32 of the decoded data: '${got:-none logged}', expected $want"
	echo "not ok 3 decoded"
	exit 1
fi
