#!/bin/bash
# Interestingness test for case clang19-c-gh102218-emptyescape (C-Reduce/C-Vise convention).
# Run in a directory that holds the candidate file; exit 0 iff the SAME crash
# still happens. The file name is taken from the case convention: orig.c in
# the current directory (override with $1 or $REDUCE_FILE).
F=${1:-${REDUCE_FILE:-orig.c}}
[ -f "$F" ] || exit 1
out=$(timeout 60 clang-19 -x c -w -fno-crash-diagnostics -fsyntax-only "$F" 2>&1)
rc=$?
[ $rc -eq 124 ] && exit 1
[ $rc -eq 0 ] && exit 1
echo "$out" | grep -qF -- 'clang::StringLiteralParser::init(' || exit 1
echo "$out" | grep -qF -- 'clang::StringLiteral::getLocationOfByte(' || exit 1
echo "$out" | grep -qF -- 'delimited escape sequence cannot be empty' || exit 1
exit 0
