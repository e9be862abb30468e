#!/usr/bin/env bash
# Back up Quotient's PostgreSQL database in pg_dump's custom format (compressed,
# restorable table by table with pg_restore).
#
#   deploy/scripts/backup.sh [DATABASE_URL] [DIR]
#
# DATABASE_URL defaults to the environment's; DIR to /var/backups/quotient. Writes
# DIR/quotient-YYYYmmddTHHMMSSZ.dump and prints its path. Keep the files off the
# machine (and check them: deploy/scripts/restore.sh into a scratch database, then
# `manage.py verify_integrity`).
set -euo pipefail

url=${1:-${DATABASE_URL:?give a DATABASE_URL (argument or environment)}}
dir=${2:-/var/backups/quotient}
mkdir -p "$dir"
file="$dir/quotient-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --compress=6 --no-owner --no-privileges --file="$file.partial" "$url"
mv "$file.partial" "$file"   # a file that exists is a complete dump
echo "$file"
