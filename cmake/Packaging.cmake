# A Debian package of sleuth and its runtime: `cmake --build build --target package` writes
# build/sleuth_<version>_<arch>.deb, which `apt install ./build/sleuth_*.deb` installs under /usr
# (bin/sleuth with its sleuth-cc and sleuth-c++ links, lib/libsleuth_rt.{so,a},
# include/sleuth/). The installed binary finds the runtime and its headers next to itself
# (tools/sleuth/compiler_wrapper.cpp), so /usr/bin/sleuth uses /usr/lib and /usr/include.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sleuth)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "automated debugging for C and C++: dynamic slicing, fault localization, test-case reduction")
set(CPACK_PACKAGE_DESCRIPTION
    "sleuth instruments C and C++ programs through compiler wrappers (sleuth cc, sleuth c++),\
 records their dynamic dependences or coverage, and slices, localizes faults, mutates and\
 reduces failing inputs with Clang ${LLVM_VERSION_MAJOR}.")
set(CPACK_PACKAGE_CONTACT "sleuth maintainers <maintainers@users.noreply.a-seed-0a748bad.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The package in the build directory itself, where the README's `apt install` finds it.
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Debug information stays in the build tree; the runtime archive keeps its symbols (CMake strips
# only executables and shared libraries).
set(CPACK_STRIP_FILES ON)

# The shared libraries sleuth and the runtime link (Clang, LLVM, fmt, the C++ library), from
# dpkg-shlibdeps (dpkg-dev) where it is installed; else named after the versions linked here,
# with Debian's package names.
find_program(SLEUTH_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(sleuth_library_depends "")
if(SLEUTH_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found (package dpkg-dev): the package's library "
                 "dependencies are named after the libraries linked")
  set(sleuth_library_depends
      "libclang-cpp${LLVM_VERSION_MAJOR}, libllvm${LLVM_VERSION_MAJOR}, libfmt${fmt_VERSION_MAJOR}, libstdc++6, libc6, ")
endif()
# What no library link shows: the Clang parse of a source needs Clang's builtin headers
# (stddef.h, ...; the instrumenter's -resource-dir), and the wrappers need the real compilers and
# the C library's headers and startup files to build the programs they instrument.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "${sleuth_library_depends}libclang-common-${LLVM_VERSION_MAJOR}-dev, gcc | c-compiler, g++ | c++-compiler, libc6-dev | libc-dev")
# The staged binary's run path goes before dpkg-shlibdeps reads it (see the script).
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/PackageStaging.cmake)
# `sleuth slice --format svg` runs Graphviz's dot; every other view works without it.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS graphviz)

include(CPack)
