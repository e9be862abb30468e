#!/usr/bin/env bash
# Debian packages the test suite needs beyond Python: gettext (translation checks),
# the PostgreSQL and Redis servers' tools (fault tests start private ones), and
# Chromium (browser tests drive /usr/bin/chromium; Playwright's own download cannot
# work here).
# Installs only what is missing, so it costs nothing on a prepared machine.
set -euo pipefail

missing=()
command -v msgfmt >/dev/null || missing+=(gettext)
command -v pg_dump >/dev/null || missing+=(postgresql-client)
command -v redis-server >/dev/null || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
