#!/bin/sh
# embed.sh NAME FILE: write FILE to standard output as a C string
# constant NAME (how print/report.html gets into ws_print).  Backslashes,
# quotes and question marks (trigraphs) are escaped; each line keeps its
# newline.
set -eu
printf '/* Generated from %s by print/embed.sh: do not edit. */\n' "${2##*/}"
printf 'const char %s[] =\n' "$1"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$/\\n"/' "$2"
printf ';\n'
