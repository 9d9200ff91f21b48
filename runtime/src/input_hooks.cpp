// read, pread, fread, fgets, getline, getdelim, recv and recvfrom of the shared runtime (and
// the _FORTIFY_SOURCE variants GCC calls in their place when it knows the buffer's size): the
// bytes they store are input, whose origin is none, as a constant's. Done by the C library unseen,
// those bytes kept whatever origins their memory had (a dead frame's locals, the previous line a
// loop read into the same buffer), and a slice of a value parsed from input led to writes that had
// nothing to do with it. Each forwards to the next definition and then clears the origins of what
// was stored. See hooks.h.

// The fortified headers define fgets and fread inline, which would clash with the definitions
// below.
#undef _FORTIFY_SOURCE
#include "hooks.h"
#include "state.h"

#include <cstring>
#include <sys/socket.h>
#include <sys/types.h>

using namespace sleuth::rt;
using namespace sleuth::rt::hooks;

namespace {

// Bytes [P, P+N) were read from outside the program.
void cleared(const void *P, size_t N) {
  if (N != 0 && shadowInUse())
    withShadow([&](ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache) {
      Shadow.clear(reinterpret_cast<uintptr_t>(P), N, Cache);
    });
}

using ReadFn = ssize_t (*)(int, void *, size_t);
using PreadFn = ssize_t (*)(int, void *, size_t, off_t);
using FreadFn = size_t (*)(void *, size_t, size_t, FILE *);
using FgetsFn = char *(*)(char *, int, FILE *);
using ReadChkFn = ssize_t (*)(int, void *, size_t, size_t);
using PreadChkFn = ssize_t (*)(int, void *, size_t, off_t, size_t);
using FreadChkFn = size_t (*)(void *, size_t, size_t, size_t, FILE *);
using FgetsChkFn = char *(*)(char *, size_t, int, FILE *);
using GetdelimFn = ssize_t (*)(char **, size_t *, int, FILE *);
using GetlineFn = ssize_t (*)(char **, size_t *, FILE *);
using RecvFn = ssize_t (*)(int, void *, size_t, int);
using RecvfromFn = ssize_t (*)(int, void *, size_t, int, sockaddr *, socklen_t *);
using RecvChkFn = ssize_t (*)(int, void *, size_t, size_t, int);
using RecvfromChkFn = ssize_t (*)(int, void *, size_t, size_t, int, sockaddr *, socklen_t *);
std::atomic<GetdelimFn> NextGetdelim{nullptr};
std::atomic<GetlineFn> NextGetline{nullptr};
std::atomic<RecvFn> NextRecv{nullptr};
std::atomic<RecvfromFn> NextRecvfrom{nullptr};
std::atomic<RecvChkFn> NextRecvChk{nullptr};
std::atomic<RecvfromChkFn> NextRecvfromChk{nullptr};
std::atomic<ReadFn> NextRead{nullptr};
std::atomic<PreadFn> NextPread{nullptr};
std::atomic<FreadFn> NextFread{nullptr};
std::atomic<FgetsFn> NextFgets{nullptr};
std::atomic<ReadChkFn> NextReadChk{nullptr};
std::atomic<PreadChkFn> NextPreadChk{nullptr};
std::atomic<FreadChkFn> NextFreadChk{nullptr};
std::atomic<FgetsChkFn> NextFgetsChk{nullptr};

ssize_t readDone(void *Buf, ssize_t Got) {
  if (Got > 0)
    cleared(Buf, static_cast<size_t>(Got));
  return Got;
}
size_t freadDone(void *Buf, size_t Size, size_t Got) {
  cleared(Buf, Size * Got);
  return Got;
}
char *fgetsDone(char *Line) {
  if (Line)
    cleared(Line, std::strlen(Line) + 1);
  return Line;
}

// getline and getdelim store the line and its '\0', and may store a new buffer and its size.
ssize_t lineDone(char **Line, size_t *Size, ssize_t Got) {
  cleared(Line, sizeof *Line);
  cleared(Size, sizeof *Size);
  if (Got > 0 && *Line)
    cleared(*Line, static_cast<size_t>(Got) + 1);
  return Got;
}
// recvfrom also stores the sender's address and its length.
ssize_t receivedFrom(void *Buf, ssize_t Got, sockaddr *From, socklen_t *FromSize) {
  if (Got >= 0 && From && FromSize) {
    cleared(From, *FromSize);
    cleared(FromSize, sizeof *FromSize);
  }
  return readDone(Buf, Got);
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) ssize_t getdelim(char **Line, size_t *Size, int Delimiter,
                                                        FILE *F) {
  return lineDone(Line, Size, next(NextGetdelim, "getdelim")(Line, Size, Delimiter, F));
}

__attribute__((visibility("default"))) ssize_t getline(char **Line, size_t *Size, FILE *F) {
  return lineDone(Line, Size, next(NextGetline, "getline")(Line, Size, F));
}

__attribute__((visibility("default"))) ssize_t recv(int Fd, void *Buf, size_t N, int Flags) {
  return readDone(Buf, next(NextRecv, "recv")(Fd, Buf, N, Flags));
}

__attribute__((visibility("default"))) ssize_t recvfrom(int Fd, void *Buf, size_t N, int Flags,
                                                        sockaddr *From, socklen_t *FromSize) {
  return receivedFrom(Buf, next(NextRecvfrom, "recvfrom")(Fd, Buf, N, Flags, From, FromSize), From,
                      FromSize);
}

__attribute__((visibility("default"))) ssize_t __recv_chk(int Fd, void *Buf, size_t N,
                                                          size_t BufSize, int Flags) {
  return readDone(Buf, next(NextRecvChk, "__recv_chk")(Fd, Buf, N, BufSize, Flags));
}

__attribute__((visibility("default"))) ssize_t __recvfrom_chk(int Fd, void *Buf, size_t N,
                                                              size_t BufSize, int Flags,
                                                              sockaddr *From, socklen_t *FromSize) {
  return receivedFrom(
      Buf, next(NextRecvfromChk, "__recvfrom_chk")(Fd, Buf, N, BufSize, Flags, From, FromSize),
      From, FromSize);
}

__attribute__((visibility("default"))) ssize_t read(int Fd, void *Buf, size_t N) {
  return readDone(Buf, next(NextRead, "read")(Fd, Buf, N));
}

__attribute__((visibility("default"))) ssize_t pread(int Fd, void *Buf, size_t N, off_t At) {
  return readDone(Buf, next(NextPread, "pread")(Fd, Buf, N, At));
}

__attribute__((visibility("default"))) size_t fread(void *Buf, size_t Size, size_t N, FILE *F) {
  return freadDone(Buf, Size, next(NextFread, "fread")(Buf, Size, N, F));
}

__attribute__((visibility("default"))) char *fgets(char *Line, int N, FILE *F) {
  return fgetsDone(next(NextFgets, "fgets")(Line, N, F));
}

__attribute__((visibility("default"))) ssize_t __read_chk(int Fd, void *Buf, size_t N,
                                                          size_t BufSize) {
  return readDone(Buf, next(NextReadChk, "__read_chk")(Fd, Buf, N, BufSize));
}

__attribute__((visibility("default"))) ssize_t __pread_chk(int Fd, void *Buf, size_t N, off_t At,
                                                           size_t BufSize) {
  return readDone(Buf, next(NextPreadChk, "__pread_chk")(Fd, Buf, N, At, BufSize));
}

__attribute__((visibility("default"))) size_t __fread_chk(void *Buf, size_t BufSize, size_t Size,
                                                          size_t N, FILE *F) {
  return freadDone(Buf, Size, next(NextFreadChk, "__fread_chk")(Buf, BufSize, Size, N, F));
}

__attribute__((visibility("default"))) char *__fgets_chk(char *Line, size_t LineSize, int N,
                                                         FILE *F) {
  return fgetsDone(next(NextFgetsChk, "__fgets_chk")(Line, LineSize, N, F));
}

} // extern "C"
