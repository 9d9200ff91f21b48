# Run by CPack (CPACK_PRE_BUILD_SCRIPTS, cmake/Packaging.cmake) on the staged files before it
# builds the package. The installed binary's run path names the build's LLVM link directory
# (/usr/lib/llvm-19/lib, whose libLLVM link only llvm-19-dev ships); Debian's libllvm19 and
# libclang-cpp19 put the libraries on the default search path. Without the run path,
# dpkg-shlibdeps finds them there and names their packages (with it, libllvm19 goes missing from
# Depends) and the installed sleuth needs no development package to start.
file(RPATH_REMOVE FILE "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/bin/sleuth")
