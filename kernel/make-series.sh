#!/bin/bash
# Regenerate a base's series (kernel/bases/BASE/patches/) from its hand-written core diff
# (kernel/bases/BASE/chrdev-core.diff) and the one semantic patch (kernel/cocci/), against the
# base's linux-source (kernel/bases/BASE/base.conf).
#
#   kernel/make-series.sh [--base BASE]          rewrite kernel/bases/BASE/patches/ in place
#   kernel/make-series.sh [--base BASE] OUTDIR   write the series to OUTDIR instead (e.g. to diff it)
#
# A new base: kernel/bases/BASE/base.conf naming its linux-source package and suite, and a
# chrdev-core.diff (the 6.1 one applied to the new fs.h and char_dev.c, offsets refreshed); then
# run this script, and kernel/check-port.sh --base BASE.
#
# The work tree lives in the cache, never in the repository. Dates and identity are fixed, so
# the same inputs give byte-identical patches.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
set -- "${BASE_ARGS_LEFT[@]}"
need_pkgs git:git spatch:coccinelle perl:perl
outdir=${1:-$BASE_DIR/patches}
ver=$(src_version)
work=$KCACHE/series-work/$SRC_PKG-$ver
tree=$work/linux
core=$BASE_DIR/chrdev-core.diff

export GIT_AUTHOR_NAME="cdev-compat maintainers" GIT_AUTHOR_EMAIL="maintainers@cdev-compat.invalid"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2025-01-06T12:00:00+0000" GIT_COMMITTER_DATE="2025-01-06T12:00:00+0000"
git_() { git -C "$tree" -c core.autocrlf=false -c commit.gpgsign=false -c format.signature= "$@"; }

log "preparing $SRC_PKG $ver in $tree"
rm -rf "$work"
mkdir -p "$work"
extract_source "$tree"
git_ init -q
git_ add -f .
git_ commit -q -m "$SRC_PKG $ver"

# 1. The hand-written part: the definitions and their kernel-doc.
git_ apply --index "$core"

# 2. The semantic patch converts every caller. It is copied next to the tree so that the
#    command recorded in the commit message is exactly the one that ran.
cp "$COCCI" "$work/"
spatch_cmd="spatch --sp-file ../${COCCI##*/} -D patch --dir . --in-place --jobs 2 --no-includes --include-headers --use-gitgrep"
log "running: $spatch_cmd"
# shellcheck disable=SC2086 # the command is kept as one string so it can be quoted verbatim
(cd "$tree" && $spatch_cmd) >"$work/spatch.log" 2>&1 || {
	tail -20 "$work/spatch.log" >&2
	die "spatch failed; log: $work/spatch.log"
}
spatch_ver=$(spatch --version | head -1)

# 3. Nothing may be left for hand-fixing: no two-arg unregister_chrdev, no four-arg
#    __unregister_chrdev anywhere (a grep-level check, so #ifdef-hidden and macro code count).
left=$("$KERNEL_DIR/find-twoarg.sh" "$tree")
[ -z "$left" ] || die "callers left for hand-fixing:"$'\n'"$left"

callers=$(git_ diff HEAD -- . ':!fs/char_dev.c' ':!include/linux/fs.h' | grep -c '^-.*unregister_chrdev')
caller_files=$(git_ diff HEAD --name-only -- . ':!fs/char_dev.c' ':!include/linux/fs.h' | wc -l)
log "semantic patch converted $callers call sites in $caller_files files"

# The callers whose two names already diverge, of those this base still has.
diverged=
if git_ show HEAD:drivers/block/paride/pt.c >/dev/null 2>&1; then
	diverged='They already do: drivers/spi/spidev.c registers "spi" and
unregisters spidev_spi_driver.driver.name ("spidev");
drivers/block/paride/pt.c registers the module parameter name and
unregisters "pt" on its error path.'
else
	diverged='They already do: drivers/spi/spidev.c registers "spi" and
unregisters spidev_spi_driver.driver.name ("spidev").'
fi
msg=$work/commit-msg
{
	cat <<EOF
chrdev: drop the unused name argument of unregister_chrdev()

__unregister_chrdev() takes a name but never looks at it: it releases
the region with __unregister_chrdev_region(major, baseminor, count),
which finds it by number alone, and then deletes the cdev. The name
check that once justified the argument went away long ago; all that
is left is a second cookie the caller must keep in sync with the one
passed to register_chrdev(), and nothing tells it when they diverge.
$diverged

Drop the argument from __unregister_chrdev() and unregister_chrdev(),
and from every caller, in one commit so that the tree builds at every
point of a bisection.

The definitions in include/linux/fs.h and fs/char_dev.c and their
kernel-doc were changed by hand. All $callers call sites in $caller_files files were
converted with the following semantic patch:

EOF
	sed 's/^/    /; s/[[:space:]]*$//' "$COCCI"
	cat <<EOF

applied with $spatch_ver as

    $spatch_cmd

A grep of the result finds no unregister_chrdev() call with two
arguments and no __unregister_chrdev() call with four, so no macro or
#ifdef-hidden caller was left for hand-fixing.
EOF
} >"$msg"
git_ add -A
git_ commit -q -F "$msg"

# 4. The series, with a cover letter.
tmpout=$work/out
git_ format-patch -q --cover-letter --no-signature -o "$tmpout" HEAD~1

def_line=$(git_ show HEAD~1:fs/char_dev.c | grep -n '^void __unregister_chrdev(' | cut -d: -f1)
exp_line=$(git_ show HEAD~1:fs/char_dev.c | grep -n '^EXPORT_SYMBOL(__unregister_chrdev);' | cut -d: -f1)
reg_line=$(git_ show HEAD~1:fs/char_dev.c | grep -n '^__unregister_chrdev_region(' | cut -d: -f1)
blurb=$work/blurb
{
	cat <<EOF
This ports Alexey Dobriyan's 2006 "Drop second arg of unregister_chrdev()"
to Debian's $SRC_PKG ($ver, kernel $(make -s -C "$tree" kernelversion)).

Why the name goes
-----------------
The name is as unused in $BASE as it was in 2006. unregister_chrdev() is a
static inline in include/linux/fs.h that calls
__unregister_chrdev(major, 0, 256, name); here is __unregister_chrdev()
in $BASE's fs/char_dev.c, lines $((def_line - 11))-$((def_line + 9)) (exported at line $exp_line):

EOF
	git_ show HEAD~1:fs/char_dev.c | sed -n "$((def_line - 11)),$((def_line + 9))p" | sed 's/^/    /; s/[[:space:]]*$//'
	cat <<EOF

@name appears only in the kernel-doc. The region is released by
__unregister_chrdev_region() (line $reg_line), whose parameters are
(major, baseminor, minorct): it matches the region by number, never by
name. So the argument only asks callers for a second cookie that can
silently diverge from what they registered.

Shape of the series
-------------------
One commit: changing the prototype breaks every caller at once, so the
definitions (hand-written, with their kernel-doc) and the $callers call sites
in $caller_files files (converted by the semantic patch quoted in the commit
message, with the exact spatch command) go together, and every commit
of the series builds. No caller hides in a macro or behind an #ifdef
that Coccinelle could not see: a grep over the patched tree finds no
two-argument unregister_chrdev() and no four-argument
__unregister_chrdev().

Out-of-tree modules that use the two-argument spelling stop building
against this kernel; cdev-compat's compat header covers both spellings.

Regenerate with kernel/make-series.sh --base $BASE (cdev-compat); check
with kernel/check-port.sh --base $BASE.
EOF
} >"$blurb"
BLURB=$blurb perl -0777 -i -pe '
	BEGIN { local $/; open my $b, "<", $ENV{BLURB} or die; $blurb = <$b>; chomp $blurb; }
	s/\*\*\* SUBJECT HERE \*\*\*/chrdev: drop the unused name argument of unregister_chrdev()/;
	s/\*\*\* BLURB HERE \*\*\*/$blurb/;
' "$tmpout/0000-cover-letter.patch"
! grep -q '\*\*\* .* HERE \*\*\*' "$tmpout/0000-cover-letter.patch" || die "cover letter placeholders left"

mkdir -p "$outdir"
rm -f "$outdir"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmpout"/*.patch "$outdir/"
log "series written to $outdir:"
ls -1 "$outdir"/*.patch
