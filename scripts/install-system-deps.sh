#!/usr/bin/env bash
# What the tests need from the operating system (Debian/Ubuntu): Chromium for the browser tests,
# CUPS with a virtual PDF printer and poppler's pdfinfo for the printing tests, curl and jq for the
# API guide's examples (scripts/check-api-docs.sh).
# Idempotent; uses sudo when not run as root.
set -euo pipefail
packages=(chromium cups printer-driver-cups-pdf poppler-utils curl jq perl openssl)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "System packages present: ${packages[*]}"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Installed: ${missing[*]}"
