#!/usr/bin/env bash
# Restore a dump made by backup.sh into an EMPTY database (create it first), then
# check it:
#
#   createdb quotient_restored
#   deploy/scripts/restore.sh FILE.dump postgres://.../quotient_restored
#   DATABASE_URL=postgres://.../quotient_restored manage.py verify_integrity
#
# The restore runs in one transaction: on any error nothing is left half-restored.
set -euo pipefail

file=${1:?give the dump file}
url=${2:?give the DATABASE_URL of an empty database}
[ -f "$file" ] || { echo "no such dump: $file" >&2; exit 2; }
tables=$(psql "$url" -tAc "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
if [ "$tables" != "0" ]; then
  echo "refusing to restore: the target database is not empty ($tables tables)" >&2
  exit 2
fi
pg_restore --single-transaction --exit-on-error --no-owner --no-privileges --dbname="$url" "$file"
echo "restored $file"
