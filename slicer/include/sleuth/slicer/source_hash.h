// The content hash that dependence and coverage files record for each source file
// (docs/dependence-format.md, docs/coverage-format.md): the 64-bit FNV-1a hash of the file's
// bytes as the instrumenter read them, 16 lowercase hex digits. The instrumenter computes it;
// `sleuth slice` and `sleuth localize` compare it with the file's text now, to warn when a
// source changed after the run (its lines may then not be the ones that ran).
// Header-only: the instrumenter includes it without linking the slicer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace sleuth {

inline std::uint64_t fnv1a64(std::string_view Bytes) {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Bytes) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

/// The hash of Text as the files record it.
inline std::string sourceHash(std::string_view Text) {
  char Digits[17];
  std::snprintf(Digits, sizeof Digits, "%016llx", (unsigned long long)fnv1a64(Text));
  return Digits;
}

/// True if Hash looks like what sourceHash gives.
inline bool isSourceHash(std::string_view Hash) {
  if (Hash.size() != 16)
    return false;
  for (char C : Hash)
    if (!((C >= '0' && C <= '9') || (C >= 'a' && C <= 'f')))
      return false;
  return true;
}

/// The hash of the file at Path now; nullopt if it cannot be read.
inline std::optional<std::string> currentSourceHash(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return std::nullopt;
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  if (In.bad())
    return std::nullopt;
  return sourceHash(Text);
}

/// The warning (without a prefix) for a source whose text is no longer the one that ran,
/// naming it relative to the working directory when it lies below it: `src/foo.c changed since
/// the run; lines may not match`. Empty if the file is unchanged, unreadable (the views say so
/// themselves) or RecordedHash is empty (a file format without hashes).
inline std::string sourceChangedWarning(const std::string &Path, const std::string &RecordedHash) {
  if (RecordedHash.empty())
    return "";
  std::optional<std::string> Now = currentSourceHash(Path);
  if (!Now || *Now == RecordedHash)
    return "";
  std::string Shown = Path;
  std::error_code Ec;
  std::string Here = std::filesystem::current_path(Ec).string();
  if (!Ec && !Here.empty() && Here != "/" && Path.size() > Here.size() + 1 &&
      Path.compare(0, Here.size(), Here) == 0 && Path[Here.size()] == '/')
    Shown = Path.substr(Here.size() + 1);
  return Shown + " changed since the run; lines may not match";
}

} // namespace sleuth
