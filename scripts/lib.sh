# Shared shell helpers for cdev-compat scripts. Source it; do not run it.
# shellcheck shell=bash

# Repository root, build dir (inside the repo, git-ignored) and cache dir (outside the repo).
CDEV_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$CDEV_TOP/build}
CDEV_COMPAT_CACHE=${CDEV_COMPAT_CACHE:-/var/cache/cdev-compat-dev}
export CDEV_TOP BUILD_DIR CDEV_COMPAT_CACHE

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

log() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# need_pkgs CMD:PKG ... - install the Debian package for every missing command (or, for a
# CMD that is an absolute path, missing file).
need_pkgs() {
	local spec cmd pkg missing=()
	for spec in "$@"; do
		cmd=${spec%%:*}
		pkg=${spec#*:}
		if [[ $cmd == /* ]]; then
			[ -e "$cmd" ] || missing+=("$pkg")
		else
			command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	# One installer at a time (make check runs suites in parallel); the lock is released when
	# this shell ends or the install is done.
	local lock
	exec {lock}>/run/lock/cdev-compat-need-pkgs.lock
	flock "$lock"
	log "installing ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		apt-get update >&2 || die "apt-get update failed"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
			die "cannot install ${missing[*]}"
	fi
	exec {lock}>&-
}

# need_coccinelle - spatch with what its Python rules load: Debian 12's coccinelle does not
# depend on the libpython3.X.so it dlopen()s (libpython3-dev has it), so without it spatch
# stops at "Py.find_library: unable to find the Python library".
need_coccinelle() {
	local libdir ver
	need_pkgs spatch:coccinelle /usr/bin/python3:python3
	read -r libdir ver < <(/usr/bin/python3 -c 'import sysconfig as s; print(s.get_config_var("LIBDIR"), s.get_config_var("LDVERSION"))')
	need_pkgs "$libdir/libpython$ver.so:libpython3-dev"
}

# migrate_inputs - every file that decides what scripts/cdev-compat-migrate writes, one a line:
# the tool, its semantic patches and their Python (a cache key of converted drivers).
migrate_inputs() {
	printf '%s\n' "$CDEV_TOP/scripts/cdev-compat-migrate" "$CDEV_TOP"/compat/cocci/*.cocci \
		"$CDEV_TOP"/compat/cocci/register_chrdev-to-cdev/*.cocci "$CDEV_TOP"/compat/cocci/cdev_migrate/*.py
}

# apt_mirror_debian / apt_mirror_security - the Debian archive and security URIs this host's apt
# uses, read from its configuration at run time (no host name is written in the repository).
apt_mirror_for() {
	local want=$1 uri rel
	while read -r uri rel; do
		case "$rel" in
		"$want") printf '%s\n' "${uri%/}"; return 0 ;;
		esac
	done < <(apt-get indextargets --format "\$(REPO_URI) \$(RELEASE)" | sort -u)
	return 1
}

apt_mirror_debian() {
	local codename
	# shellcheck disable=SC1091
	codename=$(. /etc/os-release && printf '%s' "$VERSION_CODENAME")
	apt_mirror_for "$codename" || die "no apt source for Debian '$codename' on this host"
}

apt_mirror_security() {
	local codename
	# shellcheck disable=SC1091
	codename=$(. /etc/os-release && printf '%s' "$VERSION_CODENAME")
	apt_mirror_for "$codename-security" || die "no apt source for '$codename-security' on this host"
}

# apt_private STATE ETC CMD ARGS... - run apt-get or apt-cache (CMD) with the private state
# STATE (lists, cache, an empty dpkg status) and the configuration directory ETC (its
# sources.list.d/ and preferences.d/): the host's own apt state and configuration are not used.
apt_private() {
	local st=$1 etc=$2 cmd=$3
	shift 3
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial"
	touch "$st/status"
	"$cmd" -o "Dir::Etc=$etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" \
		-o "Dir::State::status=$st/status" -o "Dir::Cache=$st/cache" -o Debug::NoLocking=1 \
		-o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin \
		-o APT::Architecture=amd64 -o Acquire::Languages=none -o APT::Get::List-Cleanup=0 "$@"
}

# apt_suite_download SUITE PKG DESTDIR - download the candidate .deb of PKG from Debian's SUITE
# (e.g. trixie-backports) of this host's mirror into DESTDIR, with a private apt state under
# $CDEV_COMPAT_CACHE/apt/SUITE (apt_private; its indices are refreshed when older than 6 h).
# Prints the .deb's path.
apt_suite_download() {
	local suite=$1 pkg=$2 dest=$3 st=$CDEV_COMPAT_CACHE/apt/$1 mirror ver f age
	mirror=$(apt_mirror_debian)
	mkdir -p "$st/etc/sources.list.d" "$st/etc/preferences.d" "$dest"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' "$mirror" \
		"$suite" /usr/share/keyrings/debian-archive-keyring.gpg >"$st/etc/sources.list.d/suite.sources"
	age=$(($(date +%s) - $(stat -c %Y "$st/updated" 2>/dev/null || echo 0)))
	if [ "$age" -gt 21600 ]; then
		apt_private "$st" "$st/etc" apt-get -qq update >"$st/update.log" 2>&1 ||
			die "apt-get update of $suite failed: $(tail -n 3 "$st/update.log")"
		touch "$st/updated"
	fi
	ver=$(apt_private "$st" "$st/etc" apt-cache policy "$pkg" | awk '/Candidate:/ { print $2 }')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		die "no $pkg in $suite (mirror $mirror)"
	fi
	# The file apt names it (the version's epoch colon encoded, the architecture or "all").
	f=$(compgen -G "$dest/${pkg}_${ver//:/%3a}_*.deb" | head -n1 || true)
	if [ -z "$f" ] || [ ! -s "$f" ]; then
		if ! (cd "$dest" && apt_private "$st" "$st/etc" apt-get -q -o APT::Sandbox::User=root \
			download "$pkg=$ver") >"$st/download.log" 2>&1; then
			die "cannot download $pkg=$ver from $suite: $(tail -n 2 "$st/download.log")"
		fi
		f=$(compgen -G "$dest/${pkg}_${ver//:/%3a}_*.deb" | head -n1 || true)
		{ [ -n "$f" ] && [ -s "$f" ]; } || die "apt downloaded no ${pkg}_${ver}_*.deb into $dest"
	fi
	printf '%s\n' "$f"
}

# elapsed START - seconds since START (from date +%s.%N), one decimal.
elapsed() {
	awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'
}

# ticker CMD... - in the background ($! is its pid): run CMD every ${PROGRESS_INTERVAL:-60} s
# until a TERM. The sleep runs in the background, with no inherited pipe, and is waited for: the
# TERM then ends the ticker at once (bash runs a trap only after a foreground command), and no
# orphaned sleep keeps a caller's pipe open.
ticker() {
	(
		local nap=''
		trap 'kill "$nap" 2>/dev/null; exit 0' TERM
		while :; do
			sleep "${PROGRESS_INTERVAL:-60}" >/dev/null 2>&1 &
			nap=$!
			wait "$nap"
			"$@"
		done
	) &
}

# with_progress LABEL LOG COUNTER EXPECTED CMD... - run CMD with its output in LOG. Prints where
# the log is, then every ${PROGRESS_INTERVAL:-60} s one line: elapsed time and, when COUNTER
# (a function printing a number, or "-") and EXPECTED (a number, or "-") are given, "N/EXPECTED"
# done and an estimate of the time left. Returns CMD's status.
with_progress() {
	local label=$1 logf=$2 counter=$3 expected=$4 start pid rc=0
	shift 4
	start=$(date +%s)
	log "$label: log $logf"
	"$@" >"$logf" 2>&1 &
	pid=$!
	ticker progress_line "$label" "$start" "$counter" "$expected"
	local ticker=$!
	wait "$pid" || rc=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	log "$label: $(fmt_secs $(($(date +%s) - start))) (status $rc)"
	return "$rc"
}

# fmt_secs N - N seconds as "XmYYs".
fmt_secs() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# progress_line LABEL START COUNTER EXPECTED - one progress line (see with_progress).
progress_line() {
	local label=$1 start=$2 counter=$3 expected=$4 now el n msg
	now=$(date +%s)
	el=$((now - start))
	msg="$label: $(fmt_secs "$el") elapsed"
	if [ "$counter" != - ]; then
		# A counter may fail after printing (a file vanishing under find): keep what it printed.
		n=$("$counter" 2>/dev/null) || true
		[[ $n =~ ^[0-9]+$ ]] || n=0
		if [ "$expected" != - ] && [ "$expected" -gt 0 ]; then
			msg+=", $n/$expected"
			if [ "$n" -gt 0 ] && [ "$n" -lt "$expected" ]; then
				msg+=", about $(fmt_secs $((el * (expected - n) / n))) left"
			fi
		else
			msg+=", $n done"
		fi
	fi
	log "$msg"
}

# cross_target FILE - "ARCH CROSS_COMPILE PACKAGE CONFIG" that builds the kernel source FILE,
# which x86_64 cannot, with a Debian cross compiler ("-": the host gcc, e.g. i386 for ISA
# drivers) under a config that enables its platform; nothing if none is known.
cross_target() {
	case "$1" in
	arch/mips/sibyte/*) echo "mips mips-linux-gnu- gcc-mips-linux-gnu sb1250_swarm_defconfig" ;;
	arch/mips/*) echo "mips mips-linux-gnu- gcc-mips-linux-gnu malta_defconfig" ;;
	drivers/char/dsp56k.c) echo "m68k m68k-linux-gnu- gcc-m68k-linux-gnu atari_defconfig" ;;
	drivers/char/dtlk.c) echo "i386 - gcc allmodconfig" ;;
	drivers/s390/*) echo "s390 s390x-linux-gnu- gcc-s390x-linux-gnu defconfig" ;;
	esac
}

# cross_make_args TARGET - the make arguments of a cross_target line, one a line.
cross_make_args() {
	local arch cross pkg config
	read -r arch cross pkg config <<<"$1"
	echo "ARCH=$arch"
	[ "$cross" = - ] || echo "CROSS_COMPILE=$cross"
}

# cross_configure TREE OBJ TARGET - configure OBJ for a cross_target line (CONFIG_WERROR off,
# so warnings are counted, not fatal) and run make prepare, once (OBJ/.prepared); installs the
# cross compiler when missing. Output goes to OBJ.log.
cross_configure() {
	local tree=$1 obj=$2 arch cross pkg config args
	read -r arch cross pkg config <<<"$3"
	[ ! -f "$obj/.prepared" ] || return 0
	if [ "$cross" = - ]; then need_pkgs gcc:gcc; else need_pkgs "${cross}gcc:$pkg"; fi
	mapfile -t args < <(cross_make_args "$3")
	mkdir -p "$obj"
	{
		make -s -C "$tree" O="$obj" "${args[@]}" "$config" &&
			"$tree/scripts/config" --file "$obj/.config" -d WERROR &&
			make -s -C "$tree" O="$obj" "${args[@]}" olddefconfig &&
			make -C "$tree" O="$obj" "${args[@]}" -j"$(nproc)" prepare
	} >"$obj.log" 2>&1 || die "configuring $arch $config in $obj failed; see $obj.log"
	touch "$obj/.prepared"
}

# kbuild_target OBJ - the make target that builds the kernel object OBJ. amdkfd has no Kbuild
# directory of its own: drivers/gpu/drm/amd/amdgpu/Makefile pulls its files in as
# $(AMDKFD_PATH)/x.o = ../amdkfd/x.o, with amdgpu's include flags.
kbuild_target() {
	case "$1" in
	drivers/gpu/drm/amd/amdkfd/*) echo "drivers/gpu/drm/amd/amdgpu/../amdkfd/${1##*/}" ;;
	*) echo "$1" ;;
	esac
}
