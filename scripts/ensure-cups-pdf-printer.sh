#!/usr/bin/env bash
# Makes sure the CUPS scheduler runs and offers a virtual PDF printer (cups-pdf) for the printing
# tests: the queue prints into $HOME/PDF of the submitting user (the `Out` line of
# /etc/cups/cups-pdf.conf). Idempotent: starts cupsd only when it is not running, adds the queue only
# when it is missing. Usage: scripts/ensure-cups-pdf-printer.sh [queue]   (default ShipdeskPDF)
# Exit codes: 0 ready; 3 CUPS or cups-pdf not installed (scripts/install-system-deps.sh installs
# them); 4 installed but the scheduler or queue could not be set up.
set -euo pipefail
queue="${1:-ShipdeskPDF}"

if ! command -v lpstat >/dev/null 2>&1 || ! command -v lpadmin >/dev/null 2>&1 || [ ! -x /usr/sbin/cupsd ]; then
  echo "CUPS is not installed (apt-get install cups; see scripts/install-system-deps.sh)" >&2
  exit 3
fi
if [ ! -e /usr/lib/cups/backend/cups-pdf ]; then
  echo "The cups-pdf backend is not installed (apt-get install printer-driver-cups-pdf)" >&2
  exit 3
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"

scheduler_running() { LC_ALL=C lpstat -r 2>/dev/null | grep -q 'scheduler is running'; }

if ! scheduler_running; then
  # cupsd daemonises itself; a second start while one runs would fail on the busy socket.
  $sudo /usr/sbin/cupsd || { echo "Could not start /usr/sbin/cupsd" >&2; exit 4; }
  for _ in $(seq 1 100); do
    scheduler_running && break
    sleep 0.1
  done
fi
scheduler_running || { echo "The CUPS scheduler did not come up within 10 s" >&2; exit 4; }

if ! LC_ALL=C lpstat -p "$queue" >/dev/null 2>&1; then
  # lpadmin warns that PPD drivers are deprecated; cups-pdf still ships only a PPD.
  $sudo lpadmin -p "$queue" -v cups-pdf:/ -m lsb/usr/cups-pdf/CUPS-PDF_opt.ppd -E 2>/dev/null \
    || { echo "lpadmin could not add the $queue queue" >&2; exit 4; }
fi
# A queue left paused or rejecting by an earlier run would hold the test's job forever.
$sudo cupsenable "$queue" && $sudo cupsaccept "$queue" || { echo "Could not enable the $queue queue" >&2; exit 4; }
echo "CUPS queue $queue ready"
