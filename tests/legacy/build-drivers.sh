#!/bin/bash
# Build the staged legacy drivers (see stage-drivers.sh) against one kernel's headers:
#
#   build-drivers.sh STAGED KDIR DEST
#
# Runs inside the image (mkosi.postinst.chroot), where cdev-compat-dkms is installed, so the
# drivers use the packaged /usr/share/cdev-compat/cdev-compat.mk as a vendor's would. Each
# variant is one out-of-tree build; if it fails, each module is built alone to tell which.
# DEST/<variant>/ gets the .ko files, `status` ("module ok|failed" a line), build.log and the
# variant's *.spec files; DEST/manifest (and DEST/corpus-manifest, the migration corpus of
# stage-corpus.sh) are STAGED's, for the guest tests. A failed driver does not fail this
# script: the guest test reports it as not ok, with the log. Exit status 1 only on bad usage.
set -euo pipefail

die() { echo "build-drivers.sh: error: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: $0 STAGED KDIR DEST"
staged=$1 kdir=$2 dest=$3
[ -s "$staged/manifest" ] || die "no manifest in $staged"
[ -e "$kdir/Makefile" ] || die "no kernel headers at $kdir"
jobs=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build DIR LOG - one out-of-tree build; the modules are whatever DIR/Kbuild lists.
build() {
	make -C "$kdir" M="$1" -j"$jobs" modules >>"$2" 2>&1
}

rm -rf "$dest"
mkdir -p "$dest"
cp "$staged/manifest" "$dest/"
[ ! -f "$staged/sources" ] || cp "$staged/sources" "$dest/"
manifests=("$staged/manifest")
if [ -f "$staged/corpus-manifest" ]; then
	cp "$staged/corpus-manifest" "$dest/"
	manifests+=("$staged/corpus-manifest")
fi
for v in $(cut -d' ' -f1 "${manifests[@]}" | uniq); do
	t0=$(date +%s.%N)
	mods=$(cat "${manifests[@]}" | awk -v v="$v" '$1 == v { print $2 }')
	mkdir -p "$dest/$v"
	log=$dest/$v/build.log
	: >"$log"
	cp -r "$staged/$v" "$work/$v"
	cp "$staged/$v"/*.spec "$dest/$v/" 2>/dev/null || true
	if build "$work/$v" "$log"; then
		for m in $mods; do
			cp "$work/$v/$m.ko" "$dest/$v/"
			echo "$m ok" >>"$dest/$v/status"
		done
	else
		# Which module broke it: each alone (ppp_generic with slhc, which it links against).
		for m in $mods; do
			d=$work/$v-$m
			mkdir -p "$d"
			cp "$work/$v"/*.c "$d/"
			cp "$work/$v"/*.h "$d/" 2>/dev/null || true
			objs="$m.o"
			[ "$m" != ppp_generic ] || objs="$objs slhc.o"
			# (a module of several files keeps its MODULE-y line; other modules' go)
			sed -e "s/^obj-m :=.*/obj-m := $objs/" -e "/^[A-Za-z0-9_]*-y[[:space:]]*:\?=/{/^$m-y/!d}" \
				"$work/$v/Kbuild" >"$d/Kbuild"
			echo "==== $m alone" >>"$log"
			if build "$d" "$log"; then
				cp "$d/$m.ko" "$dest/$v/"
				echo "$m ok" >>"$dest/$v/status"
			else
				echo "$m failed" >>"$dest/$v/status"
			fi
		done
	fi
	t1=$(date +%s.%N)
	awk -v v="$v" -v s="$t0" -v e="$t1" -v st="$(grep -c ' ok$' "$dest/$v/status")" \
		-v n="$(wc -l <"$dest/$v/status")" \
		'BEGIN { printf "build-drivers.sh: %s: %d/%d modules built in %.1fs\n", v, st, n, e - s }'
done
