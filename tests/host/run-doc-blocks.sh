#!/bin/bash
# run-doc-blocks.sh WORK DOC.md... - run every ```sh block of the docs where it can do no harm,
# one "ok - ..."/"not ok - ..." line each (used by t-docs.sh; tests/host/t-runner.sh feeds it
# blocks that must not run).
#
#   - A block whose first line is "# skip: <reason>" is not run ("# <block> skipped: <reason>").
#   - A block that would change this machine (load or unload a module, install or remove a
#     package, dkms install/build, mount, reboot, sudo, ...) and is not marked so is never run:
#     it fails, naming the command. Such blocks belong to a guest or an image: mark them.
#   - Every other block runs from a throwaway copy of the project (in a temporary directory
#     outside the checkout, which may be under /root), as an unprivileged user (nobody, no
#     capabilities, no new privileges) when this runs as root, with a HOME and caches of its
#     own, stubs in front of PATH that refuse and record any module or package tool, and a
#     timeout (DOC_BLOCK_TIMEOUT, 300 s). It passes when it exits 0 and tried nothing the stubs
#     refused. Logs: WORK/<doc>-<n>.log.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 WORK DOC.md..."
work=$1
shift
need_pkgs setpriv:util-linux timeout:coreutils
rm -rf "$work"
mkdir -p "$work/blocks"
box=$(mktemp -d "${TMPDIR:-/tmp}/cdev-compat-docs.XXXXXX")
trap 'rm -rf "$box"' EXIT
chmod 755 "$box"
mkdir -p "$box/home" "$box/stubs" "$box/blocks"

# Split the ```sh blocks into files: <doc>-<n>.sh.
for doc in "$@"; do
	[ -f "$doc" ] || die "no such doc: $doc"
	awk -v dir="$work/blocks" -v base="$(basename "$doc" .md)" '
		/^```sh[[:space:]]*$/ { n++; file = sprintf("%s/%s-%d.sh", dir, base, n); printf "" > file; next }
		/^```/ { file = ""; next }
		file { print > file }' "$doc"
done

# Commands a doc block may not run on this machine (a word of the block's code, comments aside).
harmful='(^|[;&|({[:space:]])(modprobe|insmod|rmmod|depmod|apt|apt-get|aptitude|dpkg|dkms|sudo|su|mount|umount|reboot|shutdown|poweroff|systemctl|mkfs[.a-z0-9]*|chroot|kexec|swapon|sysctl|useradd|userdel|passwd)([[:space:];&|)]|$)'

# The stubs: whatever reaches them is refused and recorded.
for t in modprobe insmod rmmod depmod apt apt-get aptitude dpkg dkms sudo su mount umount reboot \
	shutdown poweroff systemctl chroot kexec; do
	cat >"$box/stubs/$t" <<EOF
#!/bin/sh
echo "$t \$*" >>"$box/refused.log"
echo "$t: refused: doc blocks do not change this machine (tests/host/run-doc-blocks.sh)" >&2
exit 97
EOF
	chmod 755 "$box/stubs/$t"
done

# The throwaway copy of the project the blocks run in (build output and VCS data left out).
mkdir -p "$box/tree"
tar -C "$CDEV_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$box/tree" -xf -
cp "$work"/blocks/*.sh "$box/blocks/" 2>/dev/null || true
touch "$box/refused.log"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	chown -R 65534:65534 "$box/tree" "$box/home"
	chmod 666 "$box/refused.log"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs)
	if "${as_user[@]}" --inh-caps=-all --bounding-set=-all true 2>/dev/null; then
		as_user+=(--inh-caps=-all --bounding-set=-all)
	else
		# nobody cannot even start a program: a root directory without o+x (a root made by
		# mktemp, as fresh-root's). The blocks keep read access everywhere, and no other right.
		printf '# nobody cannot reach the system files here (no o+x on a parent, e.g. /): the blocks run with CAP_DAC_READ_SEARCH only (read, never write)\n'
		caps=-all,+dac_read_search
		as_user+=("--inh-caps=$caps" "--ambient-caps=$caps" "--bounding-set=$caps")
	fi
fi

shopt -s nullglob
for b in "$work"/blocks/*.sh; do
	name=$(basename "$b" .sh)
	first=$(head -n1 "$b")
	case "$first" in
	"# skip: "*)
		printf '# %s skipped: %s\n' "$name" "${first#\# skip: }"
		continue
		;;
	esac
	cmd=$(sed 's/#.*//' "$b" | grep -oE "$harmful" | head -n1 | tr -d ' ;&|(){}' || true)
	if [ -n "$cmd" ]; then
		not_ok "docs block $name would run '$cmd' on this machine: not run; give it a first line '\\# skip: <reason>' (it belongs in a guest or an image)"
		continue
	fi
	: >"$box/refused.log"
	status=0
	(cd "$box/tree" && env -i PATH="$box/stubs:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
		HOME="$box/home" LC_ALL=C.UTF-8 TERM=dumb BUILD_DIR="$box/tree/build" \
		CDEV_COMPAT_CACHE="$box/home/cache" "${as_user[@]}" \
		timeout --kill-after=10 "${DOC_BLOCK_TIMEOUT:-300}" bash -euo pipefail "$box/blocks/$name.sh") \
		>"$work/$name.log" 2>&1 </dev/null || status=$?
	refused=$(tr '\n' ';' <"$box/refused.log")
	check "docs block $name runs unprivileged in a copy of the project (status $status${refused:+; refused: $refused}; $(head -n1 "$b" | cut -c1-60); log $work/$name.log)" \
		test "$status" -eq 0 -a -z "$refused"
done
