#!/bin/bash
# find-twoarg.sh TREE - print every unregister_chrdev() call with other than one argument and
# every __unregister_chrdev() call with other than three, as FILE:LINE: lines; print nothing
# when the tree is clean. A text-level check, blind to #ifdef and macros on purpose: it sees
# code Coccinelle may not parse. Comments and string literals are not calls and are skipped.
set -euo pipefail
tree=${1:?usage: find-twoarg.sh TREE}
cd "$tree"
{ grep -rlw --include='*.[ch]' --include='*.rs' -e unregister_chrdev -e __unregister_chrdev . || true; } |
	sort | while read -r f; do
	perl -0777 -ne '
		my $src = $_;
		# blank out comments and strings, keeping newlines so line numbers stay right
		$src =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"|'"'"'(?:\\.|[^'"'"'\\])*'"'"')}{ (my $x = $1) =~ s/[^\n]/ /g; $x }gse;
		while ($src =~ /\b(__)?unregister_chrdev\s*(\((?:[^()]++|(?2))*\))/g) {
			my ($u, $args) = ($1 // "", $2);
			my $line = 1 + (substr($src, 0, $-[0]) =~ tr/\n//);
			my $a = substr($args, 1, -1);
			1 while $a =~ s/\([^()]*\)/_/g;
			1 while $a =~ s/\[[^\[\]]*\]/_/g;
			1 while $a =~ s/\{[^{}]*\}/_/g;
			my $n = ($a =~ tr/,//) + 1;
			my $want = $u ? 3 : 1;
			printf "%s:%d: %sunregister_chrdev() with %d arguments\n", $ARGV, $line, $u, $n
				if $n != $want;
		}
	' "$f"
done
