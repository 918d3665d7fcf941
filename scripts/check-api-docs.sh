#!/usr/bin/env bash
# Runs every example of docs/api.md against a fresh headless Shipdesk server and checks it.
#
#   scripts/check-api-docs.sh [path/to/api.md]        (KEEP=1 keeps the temp folder for a look)
#
# What it does:
#   1. starts the headless server (out/main/serve.js, or src-main/serve.ts unbuilt) on a free port with an empty temp data folder;
#   2. takes every ```sh / ```bash block of the doc, in order, and runs them all in ONE bash
#      (`set -euo pipefail`, so variables such as ORG, TOKEN, ADDR carry over from block to block)
#      in a temp working folder; `http://127.0.0.1:4848` in a block is replaced by the server's
#      real base URL;
#   3. compares what each block printed with the fenced block that directly follows it in the doc
#      (its expected output), if there is one. The comparison ignores whitespace (so pretty-printed
#      JSON in the doc matches curl's compact JSON) and reads `…` as "anything". The HTTP status
#      that the examples print with `-w '\n%{http_code}\n'` is part of that output, so a wrong
#      status fails the check.
#
# Markers, an HTML comment on the line before a block's opening fence (invisible when rendered):
#   <!-- check-api-docs: skip -->   not run (starting a server, commands for another machine)
#   <!-- check-api-docs: setup -->  run from the repository folder, where `npm run cli` works
#                                   (the doc's `cli init` block; it must set BASE, ORG and TOKEN)
#
# No request goes unchecked: every curl must either print its status (%{http_code}) in a block that
# has a shown output, or use --fail-with-body. Exits non-zero when any example fails.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOC=$(cd "$(dirname "${1:-$REPO/docs/api.md}")" && pwd)/$(basename "${1:-$REPO/docs/api.md}")
DOC_BASE=http://127.0.0.1:4848

for tool in curl jq perl; do
  command -v "$tool" >/dev/null || { echo "check-api-docs: $tool is needed" >&2; exit 2; }
done
[[ -f $DOC ]] || { echo "check-api-docs: $DOC not found" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/shipdesk-api-docs.XXXXXX")
mkdir -p "$WORK/data" "$WORK/run" "$WORK/blocks" "$WORK/out"
SERVER_PID=

cleanup() {
  if [[ -n $SERVER_PID ]]; then
    # The server was started in its own process group (set -m below): npx, tsx and node end together.
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  fi
  if [[ ${KEEP:-} == 1 ]]; then echo "check-api-docs: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# ---- 1. Split the doc into blocks ----------------------------------------------------------------
# For every runnable block N: blocks/N.sh (the commands), blocks/N.meta ("<line> <mode>") and, when
# the doc shows one, blocks/N.expected.
perl - "$DOC" "$WORK/blocks" <<'PERL'
use strict; use warnings;
use open qw(:std :encoding(UTF-8));
my ($doc, $dir) = @ARGV;
open my $in, '<', $doc or die "$doc: $!";
my @lines = <$in>;
my (@blocks, $cur, $fence);
my $prevText = '';          # last non-blank line outside blocks
my $gapOnlyBlank = 0;       # only blank lines since the last block closed
for my $i (0 .. $#lines) {
  my $line = $lines[$i];
  if (!$cur) {
    if ($line =~ /^(\s*)(```+|~~~+)\s*([\w-]*)/) {
      $fence = $2;
      $cur = { lang => lc $3, start => $i + 1, text => '', marker => '', follows => $gapOnlyBlank };
      $cur->{marker} = $1 if $prevText =~ /<!--\s*check-api-docs:\s*(\w+)\s*-->/;
      next;
    }
    if ($line =~ /\S/) { $prevText = $line; $gapOnlyBlank = 0; }
  } else {
    if ($line =~ /^\s*\Q$fence\E\s*$/) {
      push @blocks, $cur; $cur = undef; $gapOnlyBlank = 1; $prevText = '';
      next;
    }
    $cur->{text} .= $line;
  }
}
die "check-api-docs: unclosed code block starting at line $cur->{start}\n" if $cur;

my $n = 0;
for my $b (0 .. $#blocks) {
  my $blk = $blocks[$b];
  next unless $blk->{lang} eq 'sh' || $blk->{lang} eq 'bash';
  my $mode = $blk->{marker} || 'run';
  die "check-api-docs: docs line $blk->{start}: unknown marker '$mode' (skip or setup)\n" unless $mode =~ /^(run|skip|setup)$/;
  next if $mode eq 'skip';
  $n++;
  my $id = sprintf '%03d', $n;
  my $next = $blocks[$b + 1];
  my $expected = ($next && $next->{follows} && $next->{lang} !~ /^(sh|bash)$/) ? $next : undef;
  open my $sh, '>', "$dir/$id.sh" or die; print $sh $blk->{text}; close $sh;
  open my $meta, '>', "$dir/$id.meta" or die; print $meta "$blk->{start} $mode\n"; close $meta;
  if ($expected) {
    open my $ex, '>', "$dir/$id.expected" or die; print $ex $expected->{text}; close $ex;
  }
  # Every curl's status must be checked: printed with %{http_code} and compared with the shown
  # output, or checked by curl itself with --fail-with-body.
  (my $joined = $blk->{text}) =~ s/\\\n/ /g;
  for my $call ($joined =~ /\bcurl\b[^\n]*/g) {
    next if $call =~ /--fail-with-body\b/;
    next if $call =~ /%\{http_code\}/ && $expected;
    die "check-api-docs: docs line $blk->{start}: this curl's status is not checked (print %{http_code} and show the output, or use --fail-with-body): $call\n";
  }
}
die "check-api-docs: no runnable sh/bash blocks in $doc\n" unless $n;
PERL

# ---- 2. Start a fresh server ---------------------------------------------------------------------
cd "$REPO"
: >"$WORK/server.log"
set -m
# The built bundle, as `npm run serve` runs it (`npm test` builds first); from source where nothing is built.
if [[ -f out/main/serve.js ]]; then SERVE=(npx node out/main/serve.js); else SERVE=(npx tsx src-main/serve.ts); fi
SHIPDESK_DATA_DIR="$WORK/data" SHIPDESK_PORT=0 "${SERVE[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
set +m
BASE=
for _ in $(seq 600); do
  BASE=$(grep -o 'Shipdesk listening on http://[^ ]*' "$WORK/server.log" | sed 's/^Shipdesk listening on //' || true)
  [[ -n $BASE ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $BASE ]]; then
  echo "check-api-docs: the server did not start:" >&2
  cat "$WORK/server.log" >&2
  exit 1
fi
echo "Server: $BASE (data folder $WORK/data)"

# ---- 3. Run all blocks in one shell --------------------------------------------------------------
{
  echo 'set -euo pipefail'
  echo 'shopt -s inherit_errexit'
  printf 'export SHIPDESK_DATA_DIR=%q\n' "$WORK/data"
  printf 'cd %q\n' "$WORK/run"
  for sh in "$WORK"/blocks/*.sh; do
    id=$(basename "$sh" .sh)
    read -r _line mode <"$WORK/blocks/$id.meta"
    printf 'echo %s > %q\n' "$id" "$WORK/current"
    [[ $mode == setup ]] && printf 'cd %q\n' "$REPO"
    echo '{'
    # The doc's examples use the default port; this server listens on another one.
    sed "s#$DOC_BASE#$BASE#g" "$sh"
    printf '\n} > %q 2> %q\n' "$WORK/out/$id.out" "$WORK/out/$id.err"
    if [[ $mode == setup ]]; then
      printf 'cd %q\n' "$WORK/run"
      echo ': "${BASE:?the setup block must set BASE}" "${ORG:?the setup block must set ORG}" "${TOKEN:?the setup block must set TOKEN}"'
    fi
  done
  printf 'echo done > %q\n' "$WORK/current"
} >"$WORK/driver.sh"

status=0
bash "$WORK/driver.sh" || status=$?

# ---- 4. Compare with the doc and report ----------------------------------------------------------
perl - "$WORK" "$status" "$BASE" "$DOC_BASE" <<'PERL'
use strict; use warnings;
use open qw(:std :encoding(UTF-8));
my ($work, $status, $base, $docBase) = @ARGV;
my $current = slurp("$work/current") // ''; chomp $current;
my ($ok, $bad) = (0, 0);

sub slurp { my ($f) = @_; open my $h, '<', $f or return undef; local $/; my $t = <$h>; return $t; }
sub squash { my ($t) = @_; $t =~ s/\s+//g; return $t; }
sub firstLine {
  my ($t) = @_;
  my ($l) = grep { /\S/ && !/^\s*#/ } split /\n/, $t;
  $l //= ''; $l =~ s/^\s+//; $l = substr($l, 0, 90) . '…' if length $l > 91;
  return $l;
}

for my $sh (sort glob "$work/blocks/*.sh") {
  my ($id) = $sh =~ m{/(\d+)\.sh$};
  my ($line) = split ' ', slurp("$work/blocks/$id.meta");
  my $cmdText = slurp($sh);
  my $cmd = firstLine($cmdText);
  my $out = slurp("$work/out/$id.out");
  my $err = slurp("$work/out/$id.err") // '';
  if (!defined $out || ($status != 0 && $id eq $current)) {
    last unless defined $out || $id eq $current;
    $bad++;
    print "FAIL doc line $line: $cmd\n";
    print "     the block exited with status $status; nothing after it ran\n";
    print "     --- stdout ---\n", indent($out // ''), "     --- stderr ---\n", indent($err);
    last;
  }
  my @statuses = $out =~ /^(\d{3})\s*$/mg;
  my $shown = @statuses ? ' → ' . join(' ', @statuses) : '';
  $shown .= ' (+ --fail-with-body)' if @statuses && $cmdText =~ /--fail-with-body/;
  $shown = ' → 2xx (--fail-with-body)' if !@statuses && $cmdText =~ /--fail-with-body/;
  my $expected = slurp("$work/blocks/$id.expected");
  if (defined $expected) {
    $expected =~ s/\Q$docBase\E/$base/g;
    my $pattern = join '.*?', map { quotemeta } split /…/, squash($expected), -1;
    if (squash($out) !~ /\A$pattern\z/s) {
      $bad++;
      print "FAIL doc line $line: $cmd\n";
      print "     output differs from the doc (whitespace ignored, … matches anything)\n";
      print "     --- expected ---\n", indent($expected), "     --- actual ---\n", indent($out);
      print "     --- stderr ---\n", indent($err) if $err =~ /\S/;
      next;
    }
  }
  $ok++;
  print "ok   doc line $line: $cmd$shown\n";
}
my $total = () = glob "$work/blocks/*.sh";
my $notRun = $total - $ok - $bad;
printf "\n%d of %d examples passed%s%s\n", $ok, $total, $bad ? ", $bad failed" : '', $notRun ? ", $notRun not run" : '';
exit($bad || $notRun || $status ? 1 : 0);

sub indent { my ($t) = @_; return '' unless length $t; $t .= "\n" if $t !~ /\n\z/; $t =~ s/^/     /mg; return $t; }
PERL
