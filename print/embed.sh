#!/bin/sh
# embed.sh NAME FILE: write FILE to standard output as a C string
# constant NAME (how print/report.html gets into ws_print).  A line
# <!--@include OTHER@--> is replaced by the file OTHER (beside FILE) as a
# <script> element of its own.  Backslashes, quotes and question marks
# (trigraphs) are escaped; each line keeps its newline.
set -eu
dir=$(dirname -- "$2")
printf '/* Generated from %s by print/embed.sh: do not edit. */\n' "${2##*/}"
printf 'const char %s[] =\n' "$1"
awk -v dir="$dir" '
/^<!--@include [^ ]+@-->$/ {
   path = $2
   sub(/@-->$/, "", path)
   path = dir "/" path
   print "<script>"
   while ((r = (getline line < path)) > 0)
      print line
   if (r < 0) {
      print "embed.sh: cannot read " path > "/dev/stderr"
      exit 1
   }
   close(path)
   print "</script>"
   next
}
{ print }' "$2" > "${TMPDIR:-/tmp}/embed.$$" || { rm -f "${TMPDIR:-/tmp}/embed.$$"; exit 1; }
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$/\\n"/' \
    "${TMPDIR:-/tmp}/embed.$$"
rm -f "${TMPDIR:-/tmp}/embed.$$"
printf ';\n'
