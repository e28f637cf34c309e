#!/bin/bash
# run.sh OUTDIR ROUNDS BASEJAR FIXJAR: per round, base and fix with clientSpeaksFirst (workers, io-threads), fix
# without it (workers) and the virtual-thread baseline, in this order, reversed every other round; the
# new-connection client of FIXJAR for all (CLIENT). Then: python3 summarize.py OUTDIR/log.txt
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1; R=$2; B=$3; F=$4
mkdir -p $OUT
for r in $(seq 1 $R); do
  sets=("$B|workers first-byte" "$F|workers first-byte" "$B|io-threads first-byte" "$F|io-threads first-byte" "$F|workers" "$B|virtual")
  if [ $((r % 2)) = 0 ]; then rev=(); for ((i=${#sets[@]}-1; i>=0; i--)); do rev+=("${sets[i]}"); done; sets=("${rev[@]}"); fi
  for s in "${sets[@]}"; do
    jar=${s%%|*}; args=${s#*|}
    echo "== round $r $(basename $jar) $args $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
    CLIENT=${CLIENT:-$F} $HERE/probe.sh $jar $args 2>&1 | sed "s|^|$(basename $jar) |" >> $OUT/log.txt
  done
done
echo "== done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
