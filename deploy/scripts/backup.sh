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
#
# A dump holds password hashes and API tokens: it is written 0600 in a 0700 directory
# (umask 077, and the directory's mode set even when it already existed), whatever the
# caller's umask.
set -euo pipefail
umask 077

url=${1:-${DATABASE_URL:?give a DATABASE_URL (argument or environment)}}
dir=${2:-/var/backups/quotient}
mkdir -p -m 0700 "$dir"
chmod 0700 "$dir"
file="$dir/quotient-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --compress=6 --no-owner --no-privileges --file="$file.partial" "$url"
chmod 0600 "$file.partial"
mv "$file.partial" "$file"   # a file that exists is a complete dump
echo "$file"

# For the alert "backups older than a day" (deploy/prometheus/alerts.yml): when this
# backup was complete, in node_exporter's textfile-collector format. The directory
# is node_exporter's --collector.textfile.directory (Debian's by default; set
# BACKUP_METRICS_DIR to another, or to nothing to write none). Written aside, then
# moved: node_exporter never reads half a file.
metrics_dir=${BACKUP_METRICS_DIR-/var/lib/prometheus/node-exporter}
if [ -n "$metrics_dir" ] && [ -d "$metrics_dir" ]; then
  prom="$metrics_dir/quotient_backup.prom"
  {
    echo "# HELP quotient_backup_last_success_timestamp_seconds When the latest backup was complete (Unix time)."
    echo "# TYPE quotient_backup_last_success_timestamp_seconds gauge"
    echo "quotient_backup_last_success_timestamp_seconds $(date +%s)"
    echo "# HELP quotient_backup_size_bytes Size of the latest backup file."
    echo "# TYPE quotient_backup_size_bytes gauge"
    echo "quotient_backup_size_bytes $(stat -c %s "$file")"
  } > "$prom.partial"
  chmod 0644 "$prom.partial"   # node_exporter's user reads it (it holds no data)
  mv "$prom.partial" "$prom"
fi
