#!/bin/sh
# Imports the sanctions and PEP list files carried into the drop directory (docs/SCREENING.md,
# "Carrying a list to an offline machine"). Each file must have its checksum file beside it, as
# `sha256sum` wrote it on the connected machine; a file whose checksum does not match is left
# where it is, named in the log, and the run fails. An imported file moves to done/ with the date.
# Run by cardapply-screening-import.service; by hand: sudo -u cardapply deploy/screening/import-lists.sh
set -eu

DROP=${SCREENING_DROP:-/var/lib/cardapply/lists}
CARDAPPLY=${CARDAPPLY:-/opt/cardapply/node_modules/.bin/node /opt/cardapply/bin/cardapply.js}
cd "$DROP"
mkdir -p done
failed=0
imported=0

# The file each list is published as, and its --list name.
for pair in consolidated.xml:un SDN.XML:ofac-sdn xmlFullSanctionsList_1_1.xml:eu \
  UK_Sanctions_List.xml:uk entities.ftm.json:opensanctions; do
  file=${pair%%:*}
  list=${pair##*:}
  [ -f "$file" ] || continue
  if [ ! -f "$file.sha256" ] || ! sha256sum --quiet -c "$file.sha256"; then
    echo "screening import: $file does not match $file.sha256 (or has none): not imported" >&2
    failed=1
    continue
  fi
  # shellcheck disable=SC2086 # CARDAPPLY is a command with its arguments
  if $CARDAPPLY screening import --list "$list" --file "$file"; then
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    mv "$file" "done/$stamp-$file"
    mv "$file.sha256" "done/$stamp-$file.sha256"
    imported=$((imported + 1))
  else
    failed=1
  fi
done

echo "screening import: $imported list file(s) imported"
# What each import changed and what the re-screens found so far, for the journal.
# shellcheck disable=SC2086
$CARDAPPLY screening status || true
exit "$failed"
