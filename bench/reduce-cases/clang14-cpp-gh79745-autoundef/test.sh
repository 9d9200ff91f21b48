#!/bin/bash
# Interestingness test for case clang14-cpp-gh79745-autoundef (C-Reduce/C-Vise convention).
# Run in a directory that holds the candidate file; exit 0 iff the SAME crash
# still happens. The file name is taken from the case convention: orig.cpp in
# the current directory (override with $1 or $REDUCE_FILE).
F=${1:-${REDUCE_FILE:-orig.cpp}}
[ -f "$F" ] || exit 1
out=$(timeout 60 clang-14 -x c++ -std=c++20 -w -fno-crash-diagnostics -fsyntax-only "$F" 2>&1)
rc=$?
[ $rc -eq 124 ] && exit 1
[ $rc -eq 0 ] && exit 1
echo "$out" | grep -qF -- 'clang::ASTContext::getASTRecordLayout(' || exit 1
echo "$out" | grep -qF -- 'clang::Sema::getNamedReturnInfo(' || exit 1
exit 0
