#!/bin/sh
# output.sh CLUSTERC ROOT — the output directory's protocol (docs/output.md) under faults:
#  - ownership: a copied manifest.json, a copied token (cp -a), a file clusterc did not write,
#    a symbolic link: refused (74) and untouched without --force, replaced with it; the token
#    as a file where the file system has no user attributes (CLUSTERC_TOKEN_FILE=1);
#  - standard output or error that cannot take the summary or the diagnostics (/dev/full,
#    closed): exit 74 before DIR is replaced; --emit "" is a usage error (64);
#  - the lock: 4 builds at once into one DIR, OUTPUT_ROUNDS times (default 10): each exits 0 or
#    75 with its message, DIR is always a whole build, nothing is left beside it;
#  - SIGINT, SIGTERM, SIGHUP during a 100,000-GPU build: the run removes its temporary
#    directory and lock and dies of the signal, DIR is the old output; an ignored SIGHUP
#    (nohup) is left ignored;
#  - what a SIGKILL leaves (a temporary directory, the lock) is removed by the next run, and
#    only what is provably ours: a look-alike directory without our token is left alone;
#  - the artifacts rendered on 1, 3 and 8 threads (CLUSTERC_THREADS): the same files, summary
#    and diagnostics, the switches' files written in shares among them.
set -u
. "$(dirname "$0")/lib.sh"
small=examples/seed-wanka-h100.cluster
mid=examples/wanka.cluster
big=examples/scale-100k.cluster

# The manifest's (path, bytes, sha256) against the directory's; nothing else in it.
whole() {
	dir=$1
	[ -f "$dir/manifest.json" ] || return 1
	awk '/"path":/ { gsub(/[",]/, "", $2); p = $2 }
	     /"bytes":/ { gsub(/[",]/, "", $2); b = $2 }
	     /"sha256":/ { gsub(/[",]/, "", $2); print p, b, $2 }' "$dir/manifest.json" | sort >"$tmp/listed"
	(cd "$dir" && find . -type f ! -name manifest.json ! -name .clusterc-output -printf '%P %s\n' |
		sort >"$tmp/sizes" &&
		find . -type f ! -name manifest.json ! -name .clusterc-output -print0 | xargs -0 -r sha256sum |
		sed 's|^\([0-9a-f]*\)  \./\(.*\)$|\2 \1|' | sort >"$tmp/sums")
	join "$tmp/sizes" "$tmp/sums" >"$tmp/actual"
	cmp -s "$tmp/listed" "$tmp/actual"
}
# Anything the protocol leaves beside DIR: .DIR.tmp-*, .DIR.old-*, .DIR.lock.
litter() { (cd "$(dirname "$1")" && ls -A | grep -E "^\\.$(basename "$1")\\.(tmp-|old-|lock)" || true); }
snap() { (cd "$1" && find . -type f | sort | xargs -r sha256sum); }

# ---- ownership ----------------------------------------------------------------------------
out=$tmp/out
"$clusterc" build -q "$small" -o "$out" || err "build into $out"
mkdir "$tmp/home" && echo precious >"$tmp/home/notes.txt"
cp "$out/manifest.json" "$tmp/home/"
"$clusterc" build -q "$small" -o "$tmp/home" 2>"$tmp/e"
[ $? -eq 74 ] || err "a copied manifest.json made a foreign directory ours"
grep -q "no ownership token" "$tmp/e" || err "the refusal should say the token is missing: $(cat "$tmp/e")"
[ "$(cat "$tmp/home/notes.txt")" = precious ] || err "a refused directory was changed"
cp -a "$out" "$tmp/copy"
"$clusterc" build -q "$small" -o "$tmp/copy" 2>"$tmp/e"
[ $? -eq 74 ] || err "a copy with its token (cp -a) was taken for ours"
grep -q "belongs to another directory" "$tmp/e" || err "the refusal should say the token is a copy"
echo mine >"$out/notes.txt"
"$clusterc" build -q "$small" -o "$out" 2>"$tmp/e"
[ $? -eq 74 ] || err "a file clusterc did not write should make DIR foreign"
grep -q "notes.txt" "$tmp/e" || err "the refusal should name the stranger"
rm "$out/notes.txt"
"$clusterc" build -q "$mid" -o "$out" || err "a rebuild of our own output"
whole "$out" || err "$out is not whole after a rebuild"
ln -s "$out" "$tmp/link"
"$clusterc" build -q "$small" -o "$tmp/link" 2>/dev/null
[ $? -eq 74 ] || err "a symbolic link as DIR should be refused"
[ -L "$tmp/link" ] || err "the refused link was replaced"
"$clusterc" build -q --force "$small" -o "$tmp/home" || err "--force"
[ ! -e "$tmp/home/notes.txt" ] && whole "$tmp/home" || err "--force did not replace home"
# Where user attributes are missing the token is a file (outside the manifest).
CLUSTERC_TOKEN_FILE=1 "$clusterc" build -q "$small" -o "$tmp/ft" || err "build with a token file"
[ -f "$tmp/ft/.clusterc-output" ] && whole "$tmp/ft" || err "no token file, or the manifest lists it"
CLUSTERC_TOKEN_FILE=1 "$clusterc" build -q "$small" -o "$tmp/ft" || err "rebuild with a token file"
"$clusterc" build -q "$small" -o "$tmp/ft" || err "a token file read where attributes work"
CLUSTERC_TOKEN_FILE=1 "$clusterc" build -q "$small" -o "$tmp/ft2" && cp -a "$tmp/ft2" "$tmp/ft3"
CLUSTERC_TOKEN_FILE=1 "$clusterc" build -q "$small" -o "$tmp/ft3" 2>/dev/null
[ $? -eq 74 ] || err "a copied token file was taken for ours"

# ---- standard streams ---------------------------------------------------------------------
before=$(snap "$out")
"$clusterc" build "$small" -o "$out" >/dev/full 2>"$tmp/e"
[ $? -eq 74 ] || err "build >/dev/full should exit 74"
grep -q "cannot write to standard output" "$tmp/e" || err "the failure of stdout should be said"
[ "$(snap "$out")" = "$before" ] || err "build >/dev/full replaced DIR"
"$clusterc" build "$small" -o "$out" >&- 2>/dev/null
[ $? -eq 74 ] || err "build with stdout closed should exit 74"
[ "$(snap "$out")" = "$before" ] || err "build with stdout closed replaced DIR"
"$clusterc" build -q --diagnostics=json "$small" -o "$out" 2>/dev/full
[ $? -eq 74 ] || err "the JSON diagnostics on a full stderr should exit 74"
[ "$(snap "$out")" = "$before" ] || err "a full stderr let DIR be replaced"
"$clusterc" build -q "$small" -o "$out" --emit "" 2>/dev/null
[ $? -eq 64 ] || err "--emit \"\" should be a usage error (64)"
[ "$(snap "$out")" = "$before" ] || err "--emit \"\" replaced DIR"
[ -z "$(litter "$out")" ] || err "stream failures left $(litter "$out")"

# ---- the lock: builds at once ---------------------------------------------------------------
conc=$tmp/conc
rounds=${OUTPUT_ROUNDS:-10}
r=0
busy=0 ok=0
while [ $r -lt "$rounds" ]; do
	for i in 1 2 3 4; do
		("$clusterc" build -q "$mid" -o "$conc" 2>"$tmp/c$i.err"; echo $? >"$tmp/c$i.rc") &
	done
	wait
	for i in 1 2 3 4; do
		rc=$(cat "$tmp/c$i.rc")
		case $rc in
		0) ok=$((ok + 1)) ;;
		75) busy=$((busy + 1))
		    grep -q "is being written by another clusterc" "$tmp/c$i.err" ||
			    err "exit 75 without its message: $(cat "$tmp/c$i.err")" ;;
		*) err "a concurrent build exited $rc: $(cat "$tmp/c$i.err")" ;;
		esac
	done
	whole "$conc" || err "round $r: $conc is not a whole build"
	[ -z "$(litter "$conc")" ] || err "round $r left $(litter "$conc")"
	r=$((r + 1))
done
[ $ok -ge "$rounds" ] || err "only $ok of $((4 * rounds)) concurrent builds succeeded"
echo "concurrent builds: $((4 * rounds)), $ok built, $busy refused as busy (75)"

# ---- signals ------------------------------------------------------------------------------
# env --default-signal: background jobs of a shell without job control ignore SIGINT.
sigdir=$tmp/sig
"$clusterc" build -q "$small" -o "$sigdir" || err "build into $sigdir"
before=$(snap "$sigdir")
for sig in INT TERM HUP; do
	for delay in 0.3 0.6 1.0 1.8; do
		env --default-signal="$sig" "$clusterc" build -q "$big" -o "$sigdir" &
		pid=$!
		sleep $delay
		kill -s $sig $pid 2>/dev/null
		wait $pid
		rc=$?
		case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
		if [ $rc -eq 0 ]; then
			echo "note: SIG$sig after ${delay}s came after the build ended"
			"$clusterc" build -q "$small" -o "$sigdir" || err "build into $sigdir"
			before=$(snap "$sigdir")
		else
			[ $rc -eq $want ] || err "SIG$sig after ${delay}s: exit $rc, not $want"
			# Unchanged, or (the signal landed between the swap and the process's end,
			# lang/outdir.c step 5: DIR is then the new output) the new build whole.
			if [ "$(snap "$sigdir")" != "$before" ]; then
				whole "$sigdir" || err "SIG$sig after ${delay}s changed $sigdir"
				echo "note: SIG$sig after ${delay}s came after the swap: the new build, whole"
				"$clusterc" build -q "$small" -o "$sigdir" || err "build into $sigdir"
				before=$(snap "$sigdir")
			fi
		fi
		[ -z "$(litter "$sigdir")" ] || err "SIG$sig after ${delay}s left $(litter "$sigdir")"
	done
done
# An ignored SIGHUP (nohup) stays ignored.
(trap '' HUP; exec "$clusterc" build -q "$mid" -o "$tmp/nohup") &
pid=$!
sleep 0.05
kill -s HUP $pid 2>/dev/null
wait $pid || err "an ignored SIGHUP stopped the build"

# ---- what SIGKILL leaves ------------------------------------------------------------------
kdir=$tmp/k
"$clusterc" build -q "$small" -o "$kdir" || err "build into $kdir"
"$clusterc" build -q "$big" -o "$kdir" &
pid=$!
sleep 1.5
kill -s KILL $pid 2>/dev/null
wait $pid
left=$(litter "$kdir")
[ -n "$left" ] || echo "note: the SIGKILL landed outside the write; nothing to clean"
whole "$kdir" || err "SIGKILL left $kdir incomplete"
mkdir "$tmp/.k.tmp-abcdef" && echo data >"$tmp/.k.tmp-abcdef/f" # not ours: no token
"$clusterc" build -q "$small" -o "$kdir" 2>"$tmp/e" || err "the build after a SIGKILL"
[ "$(litter "$kdir")" = ".k.tmp-abcdef" ] || err "after the next build: '$(litter "$kdir")'"
grep -q "holds no token of ours: left alone" "$tmp/e" || err "the look-alike should be reported"
[ -f "$tmp/.k.tmp-abcdef/f" ] || err "a directory without our token was removed"

# ---- without RENAME_EXCHANGE ----------------------------------------------------------------
# The fallback swap (DIR aside, the new one in place) and the repair of a crash between its
# two renames: DIR missing, its previous output complete under .DIR.old-XXXXXX.
fb=$tmp/fb
"$clusterc" build -q "$small" -o "$fb" || err "build into $fb"
CLUSTERC_NO_RENAME_EXCHANGE=1 "$clusterc" build -q "$mid" -o "$fb" || err "the fallback swap"
whole "$fb" && [ -z "$(litter "$fb")" ] || err "the fallback swap left $fb incomplete or litter"
mv "$fb" "$tmp/.fb.old-Xy12Z9"
printf 'node n { power = 1 kW + 1 Gbps }\n' >"$tmp/bad.cluster"
"$clusterc" build -q "$tmp/bad.cluster" -o "$fb" 2>/dev/null # fails before it writes anything
[ ! -e "$fb" ] || err "a build with errors touched $fb"
CLUSTERC_NO_RENAME_EXCHANGE=1 "$clusterc" build -q "$small" -o "$fb" 2>"$tmp/e" || err "the build after the crash"
grep -q "put back from" "$tmp/e" || err "the previous output was not put back: $(cat "$tmp/e")"
whole "$fb" && [ -z "$(litter "$fb")" ] || err "after the repair: $fb incomplete or $(litter "$fb")"

# ---- a file that cannot be written, on any thread ------------------------------------------
# A file size limit (ulimit -f, SIGXFSZ ignored: write fails with EFBIG) stands in for a full
# disk: whichever thread writes the first file over it, the build says so once, exits 74 and
# leaves DIR as it was, nothing beside it.
fz=$tmp/fz
"$clusterc" build -q "$small" -o "$fz" || err "build into $fz"
before=$(snap "$fz")
for t in 1 2 8; do
	(trap '' XFSZ; ulimit -f 2048 && CLUSTERC_THREADS=$t exec "$clusterc" build -q --emit all \
		examples/meta-24k-roce.cluster -o "$fz") 2>"$tmp/e"
	rc=$?
	[ $rc -eq 74 ] || err "a file over the size limit on $t threads: exit $rc, not 74"
	[ "$(grep -c "error: cannot write '$fz/.*': File too large" "$tmp/e")" = 1 ] &&
		[ "$(grep -c 'error' "$tmp/e")" = 2 ] ||
		err "a file over the size limit on $t threads should be one diagnostic: $(cat "$tmp/e")"
	[ "$(snap "$fz")" = "$before" ] || err "a failed write on $t threads changed $fz"
	[ -z "$(litter "$fz")" ] || err "a failed write on $t threads left $(litter "$fz")"
done

# ---- threads ------------------------------------------------------------------------------
# Every artifact (the switches' files of 400 switches, InfiniBand, model.lp, the drawing) on
# one thread and on several: the same bytes, the same summary and diagnostics.
here=$PWD
for spec in examples/meta-24k-roce.cluster examples/dgx-h100-superpod.cluster "$mid"; do
	name=$(basename "$spec" .cluster)
	for t in 1 3 8; do
		mkdir -p "$tmp/t$t"
		(cd "$tmp/t$t" && CLUSTERC_THREADS=$t "$clusterc" build --emit all "$here/$spec" -o "$name" \
			>"$name.out" 2>"$name.err"; echo $? >"$name.rc")
	done
	for t in 3 8; do
		diff -r "$tmp/t1" "$tmp/t$t" >/dev/null || err "$name on $t threads differs from one thread"
	done
	[ "$(cat "$tmp/t1/$name.rc")" = 0 ] || err "$name did not build: $(cat "$tmp/t1/$name.err")"
	rm -rf "$tmp/t1" "$tmp/t3" "$tmp/t8"
done

[ $fail -eq 0 ] && echo "output protocol: all checks passed"
exit $((fail > 0))
