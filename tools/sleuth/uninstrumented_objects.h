// Sources that the wrappers (`sleuth cc`, `sleuth c++`) compiled uninstrumented, followed from
// the compile step to the link step: the compile step marks the object it compiled, and the link
// step reports every marked object that it linked, also from inside archives, so that a build
// ends with the list of the sources that are in no slice (docs/wrappers.md).
#pragma once

#include <string>
#include <vector>

namespace sleuth::wrapper {

/// A source compiled uninstrumented, and why (the first error of its instrumented text, or
/// what else kept it from being instrumented).
struct UninstrumentedSource {
  std::string Source; // absolute path
  std::string Reason; // one line
};

/// The section of an object that names the sources it was compiled from uninstrumented, one
/// `SOURCE<TAB>REASON<NEWLINE>` record each. It is not loaded (no SHF_ALLOC), so it changes
/// nothing of the program; every ELF linker (ld, gold, lld) keeps such sections, concatenated,
/// in what it links (executables, shared libraries, `-r` objects), also when it takes the
/// object from an archive or collects garbage sections.
inline constexpr const char *UninstrumentedSection = ".sleuth.uninstrumented";
/// The file next to an object that cannot carry the section (an LTO object, whose sections the
/// linker plugin drops; a format objcopy does not write), with the same records.
inline constexpr const char *UninstrumentedSuffix = ".sleuth-uninstrumented";

/// Marks Object, just compiled from S.Source without instrumentation: the section through
/// `objcopy`, else the side file. Returns an empty string, or why neither could be written.
std::string markUninstrumented(const std::string &Object, const UninstrumentedSource &S);

/// Removes the side file an earlier uninstrumented compile left next to Object, if any: the
/// object has been compiled again, instrumented.
void clearUninstrumentedMark(const std::string &Object);

/// The sources compiled uninstrumented into the linked file Output (its section), and into
/// the objects of ObjectInputs that have a side file. Unreadable files count as none.
std::vector<UninstrumentedSource>
uninstrumentedSources(const std::string &Output, const std::vector<std::string> &ObjectInputs);

} // namespace sleuth::wrapper
