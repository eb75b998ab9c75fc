#!/usr/bin/env bash
# Usage: scripts/generate-locales.sh   (`make test-deps`)
# Generates the German locale the tests run restd and restctl in (de_DE.UTF-8), unless it is
# there (`locale -a`): glibc's gettext, which reads restd's catalogs, speaks a language only in a
# locale that exists, as a desktop's own does. The definitions come from Debian's `locales`
# (TEST_DEB_PACKAGES); localedef adds the locale to the machine's archive (root, or sudo).
set -euo pipefail
if locale -a 2>/dev/null | grep -qxi 'de_DE\.utf-\?8'; then exit 0; fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
echo "test-deps: generating the locale de_DE.UTF-8"
"${sudo[@]}" localedef --inputfile=de_DE --charmap=UTF-8 de_DE.UTF-8
