// An allocation-free buffered writer over a file descriptor, usable from signal handlers, and
// the atomic write of a whole file (temporary name, then rename) that the dependence and
// coverage files share.
#pragma once

#include <cerrno>
#include <cstddef>
#include <sys/types.h>
#include <unistd.h>

namespace sleuth::rt {

class FdWriter {
public:
  explicit FdWriter(int Fd) : Fd(Fd) {}
  ~FdWriter() { flush(); }

  FdWriter &str(const char *S) {
    while (*S)
      put(*S++);
    return *this;
  }
  // Text fields: space, %, tab, CR and LF are percent-encoded.
  FdWriter &field(const char *S) {
    if (!S || !*S)
      return str("?");
    for (; *S; ++S) {
      char C = *S;
      if (C == ' ' || C == '%' || C == '\t' || C == '\r' || C == '\n') {
        static const char Hex[] = "0123456789ABCDEF";
        put('%');
        put(Hex[(unsigned char)C >> 4]);
        put(Hex[C & 15]);
      } else {
        put(C);
      }
    }
    return *this;
  }
  FdWriter &num(unsigned long long V) {
    char Digits[24];
    int N = 0;
    do {
      Digits[N++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    while (N)
      put(Digits[--N]);
    return *this;
  }
  FdWriter &sp() { return put(' '); }
  FdWriter &nl() { return put('\n'); }
  bool ok() const { return !Failed; }
  void flush() {
    size_t Done = 0;
    while (Done < Used && !Failed) {
      ssize_t N = ::write(Fd, Buffer + Done, Used - Done);
      if (N < 0) {
        if (errno == EINTR)
          continue;
        Failed = true;
      } else {
        Done += size_t(N);
      }
    }
    Used = 0;
  }

private:
  FdWriter &put(char C) {
    if (Used == sizeof(Buffer))
      flush();
    Buffer[Used++] = C;
    return *this;
  }
  int Fd;
  char Buffer[1 << 16];
  size_t Used = 0;
  bool Failed = false;
};

/// Writes the file at Path by calling Emit on a writer for "<Path>.tmp.<pid>" and renaming it
/// into place; on failure reports "sleuth: cannot write the WHAT file PATH" on stderr.
/// Async-signal-safe (one static writer: callers must not run it concurrently).
void writeFileAtomically(const char *Path, const char *What, void (*Emit)(FdWriter &, void *),
                         void *Arg);

/// The name a process gives its file when the environment names none.
struct DefaultOutputName {
  pid_t Pid = 0; // the process that chose Path: a forked child chooses its own
  char Path[256];
};

/// PROGRAM.PID.EXTENSION in the working directory (PROGRAM: the base name of argv[0]), or
/// PROGRAM.PID-N.EXTENSION with the first N not taken when an earlier process of the same id
/// left that file: processes that share a directory, as the tests of a suite run in parallel
/// do, never replace each other's record. Chosen once per process (in Name), so that
/// sleuth_flush() and the final write go to the same file. Async-signal-safe.
const char *defaultOutputPath(DefaultOutputName &Name, const char *Extension);

} // namespace sleuth::rt
