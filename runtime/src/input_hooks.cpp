// read, pread, readv, preadv (and their 64-bit offset names), fread, fgets, getline, getdelim,
// recv, recvfrom, recvmsg, recvmmsg and the scanf and wscanf families of the runtime (and
// the _FORTIFY_SOURCE variants GCC calls in their place when it knows the buffer's size, and
// glibc's __isoc99_ scanf that C99 and C++ programs call): the bytes they store are input, whose
// origin is none, as a constant's.
// Done by the C library unseen, those bytes kept whatever origins their memory had (a dead
// frame's locals, the previous line a loop read into the same buffer), and a slice of a value
// parsed from input led to writes that had nothing to do with it. Each forwards to the next
// definition and then clears the origins of what was stored. See hooks.h.

// The fortified headers define fgets and fread inline, which would clash with the definitions
// below.
#undef _FORTIFY_SOURCE
#include "hooks.h"
#include "state.h"

#include <cstdarg>
#include <cstring>
#include <cwchar>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <vector>

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
using ReadvFn = ssize_t (*)(int, const iovec *, int);
using PreadvFn = ssize_t (*)(int, const iovec *, int, off_t);
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
using RecvmsgFn = ssize_t (*)(int, msghdr *, int);
using RecvmmsgFn = int (*)(int, mmsghdr *, unsigned, int, timespec *);
using RecvChkFn = ssize_t (*)(int, void *, size_t, size_t, int);
using RecvfromChkFn = ssize_t (*)(int, void *, size_t, size_t, int, sockaddr *, socklen_t *);
std::atomic<GetdelimFn> NextGetdelim{nullptr};
std::atomic<GetlineFn> NextGetline{nullptr};
std::atomic<RecvFn> NextRecv{nullptr};
std::atomic<RecvfromFn> NextRecvfrom{nullptr};
std::atomic<RecvmsgFn> NextRecvmsg{nullptr};
std::atomic<RecvmmsgFn> NextRecvmmsg{nullptr};
std::atomic<RecvChkFn> NextRecvChk{nullptr};
std::atomic<RecvfromChkFn> NextRecvfromChk{nullptr};
std::atomic<ReadFn> NextRead{nullptr};
std::atomic<ReadvFn> NextReadv{nullptr};
std::atomic<PreadvFn> NextPreadv{nullptr};
// The names a program built with -D_FILE_OFFSET_BITS=64 (autoconf's AC_SYS_LARGEFILE) calls;
// off_t is 64 bits wide already on LP64 targets.
std::atomic<PreadFn> NextPread64{nullptr};
std::atomic<PreadvFn> NextPreadv64{nullptr};
std::atomic<PreadChkFn> NextPread64Chk{nullptr};
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
// readv and preadv fill the buffers in order, each up to its length, Got bytes in all.
ssize_t readvDone(const iovec *Buffers, int Count, ssize_t Got) {
  size_t Left = Got > 0 ? static_cast<size_t>(Got) : 0;
  for (int I = 0; I < Count && Left != 0; ++I) {
    size_t N = Buffers[I].iov_len < Left ? Buffers[I].iov_len : Left;
    cleared(Buffers[I].iov_base, N);
    Left -= N;
  }
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

// What recvmsg and recvmmsg may store of a message header besides the data: the sender's
// address and the control data, each at most as long as its buffer was (the kernel stores the
// full lengths, which may be larger when it truncated), their lengths and the flags.
struct MessageBuffers {
  socklen_t NameSize;
  size_t ControlSize;
};
MessageBuffers messageBuffers(const msghdr &M) { return {M.msg_namelen, M.msg_controllen}; }
void messageDone(msghdr &M, MessageBuffers Before, size_t Got) {
  if (M.msg_name)
    cleared(M.msg_name, M.msg_namelen < Before.NameSize ? M.msg_namelen : Before.NameSize);
  if (M.msg_control)
    cleared(M.msg_control,
            M.msg_controllen < Before.ControlSize ? M.msg_controllen : Before.ControlSize);
  cleared(&M.msg_namelen, sizeof M.msg_namelen);
  cleared(&M.msg_controllen, sizeof M.msg_controllen);
  cleared(&M.msg_flags, sizeof M.msg_flags);
  readvDone(M.msg_iov, static_cast<int>(M.msg_iovlen), static_cast<ssize_t>(Got));
}

// The objects a scanf-family call assigned: after it returned Assigned (conversions that
// stored a value), walks Format and a copy of its arguments and clears each object stored to.
// `%n` stores too without being counted; those up to the last counted store are cleared.
// The wide family's conversions store what the narrow one's do (%s and %c a multibyte string,
// %ls and %lc a wide one): only the format's characters are wider.
template <typename CharT> void scanned(const CharT *Format, va_list Args, int Assigned) {
  if (Assigned <= 0 || !shadowInUse())
    return;
  va_list Walk;
  va_copy(Walk, Args);
  for (const CharT *F = Format; *F && Assigned > 0; ++F) {
    if (*F != '%')
      continue;
    if (*++F == '%')
      continue;
    bool Suppressed = *F == '*';
    F += Suppressed;
    unsigned long Width = 0;
    while (*F >= '0' && *F <= '9')
      Width = Width * 10 + static_cast<unsigned long>(*F++ - '0');
    bool Allocated = *F == 'm'; // glibc: the argument is a char ** to a new buffer
    F += Allocated;
    // Length modifiers: the size of an integer or floating object.
    size_t IntSize = sizeof(int), FloatSize = sizeof(float);
    bool Long = false;
    if (F[0] == 'h' && F[1] == 'h') {
      IntSize = sizeof(char);
      F += 2;
    } else if (*F == 'h') {
      IntSize = sizeof(short);
      ++F;
    } else if ((F[0] == 'l' && F[1] == 'l') || *F == 'q') {
      IntSize = sizeof(long long);
      F += *F == 'q' ? 1 : 2;
    } else if (*F == 'l') {
      IntSize = sizeof(long);
      FloatSize = sizeof(double);
      Long = true;
      ++F;
    } else if (*F == 'L') {
      IntSize = sizeof(long long);
      FloatSize = sizeof(long double);
      ++F;
    } else if (*F == 'j' || *F == 'z' || *F == 't') {
      IntSize = sizeof(long);
      ++F;
    }
    CharT Conversion = *F;
    if (!Conversion)
      break;
    if (Conversion == '[') { // a scan set: `]` first, or after `^`, belongs to it
      ++F;
      F += *F == '^';
      F += *F == ']';
      while (*F && *F != ']')
        ++F;
      if (!*F)
        break;
    }
    if (Suppressed)
      continue;
    void *Object = va_arg(Walk, void *);
    if (!Object)
      continue;
    size_t Size = 0;
    switch (Conversion) {
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
    case 'n':
      Size = IntSize;
      break;
    case 'a':
    case 'A':
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      Size = FloatSize;
      break;
    case 'p':
      Size = sizeof(void *);
      break;
    case 'c': // exactly Width characters, no '\0'
      Size = (Width ? Width : 1) * (Long ? sizeof(wchar_t) : 1);
      break;
    case 's':
    case '[':
    case 'S':
      if (Allocated) {
        cleared(Object, sizeof(char *));
        Object = *static_cast<char **>(Object);
      }
      if (Object && (Long || Conversion == 'S')) // %ls, %S: a wide string
        Size = (std::wcslen(static_cast<wchar_t *>(Object)) + 1) * sizeof(wchar_t);
      else if (Object)
        Size = std::strlen(static_cast<char *>(Object)) + 1;
      break;
    default:
      break;
    }
    if (Object && Size)
      cleared(Object, Size);
    Assigned -= Conversion != 'n';
  }
  va_end(Walk);
}

template <typename CharT> using VscanfFn = int (*)(const CharT *, va_list);
template <typename CharT> using VfscanfFn = int (*)(FILE *, const CharT *, va_list);
template <typename CharT> using VsscanfFn = int (*)(const CharT *, const CharT *, va_list);
std::atomic<VfscanfFn<char>> NextVfscanf{nullptr}, NextIsoVfscanf{nullptr};
std::atomic<VsscanfFn<char>> NextVsscanf{nullptr}, NextIsoVsscanf{nullptr};
std::atomic<VscanfFn<char>> NextVscanf{nullptr}, NextIsoVscanf{nullptr};
std::atomic<VfscanfFn<wchar_t>> NextVfwscanf{nullptr}, NextIsoVfwscanf{nullptr};
std::atomic<VsscanfFn<wchar_t>> NextVswscanf{nullptr}, NextIsoVswscanf{nullptr};
std::atomic<VscanfFn<wchar_t>> NextVwscanf{nullptr}, NextIsoVwscanf{nullptr};

template <typename CharT>
int vfscanfDone(VfscanfFn<CharT> Next, FILE *In, const CharT *Format, va_list Args) {
  va_list Copy;
  va_copy(Copy, Args);
  int Assigned = Next(In, Format, Args);
  scanned(Format, Copy, Assigned);
  va_end(Copy);
  return Assigned;
}
template <typename CharT>
int vsscanfDone(VsscanfFn<CharT> Next, const CharT *Text, const CharT *Format, va_list Args) {
  va_list Copy;
  va_copy(Copy, Args);
  int Assigned = Next(Text, Format, Args);
  scanned(Format, Copy, Assigned);
  va_end(Copy);
  return Assigned;
}
template <typename CharT> int vscanfDone(VscanfFn<CharT> Next, const CharT *Format, va_list Args) {
  va_list Copy;
  va_copy(Copy, Args);
  int Assigned = Next(Format, Args);
  scanned(Format, Copy, Assigned);
  va_end(Copy);
  return Assigned;
}

} // namespace

// glibc's headers declare scanf as __isoc99_scanf (ISO %a) unless a program asks for GNU's
// older one, and the runtime's own view of those declarations depends on its flags: the hooks
// have names of their own (TAG: which family) and give their symbols by asm labels. Each
// variadic form forwards to the library's v-form of the same kind, whose hook comes first (in
// the archive, that declares the library's definition). CHAR is the format's character type,
// W the letter the wide family's names add ("" or "w": scanf, fscanf, vsscanf become wscanf,
// fwscanf, vswscanf).
#define SLEUTH_SCANF_FAMILY(TAG, CHAR, PREFIX, W, VF, VS, V)                                       \
  SLEUTH_HOOK_AS(int, TAG##_vscanf, PREFIX "v" W "scanf", const CHAR *Format, va_list Args) {      \
    return vscanfDone(SLEUTH_NEXT(V, TAG##_vscanf, PREFIX "v" W "scanf"), Format, Args);           \
  }                                                                                                \
  SLEUTH_HOOK_AS(int, TAG##_vfscanf, PREFIX "vf" W "scanf", FILE *In, const CHAR *Format,          \
                 va_list Args) {                                                                   \
    return vfscanfDone(SLEUTH_NEXT(VF, TAG##_vfscanf, PREFIX "vf" W "scanf"), In, Format, Args);   \
  }                                                                                                \
  SLEUTH_HOOK_AS(int, TAG##_vsscanf, PREFIX "vs" W "scanf", const CHAR *Text, const CHAR *Format,  \
                 va_list Args) {                                                                   \
    return vsscanfDone(SLEUTH_NEXT(VS, TAG##_vsscanf, PREFIX "vs" W "scanf"), Text, Format, Args); \
  }                                                                                                \
  SLEUTH_HOOK_AS(int, TAG##_scanf, PREFIX W "scanf", const CHAR *Format, ...) {                    \
    va_list Args;                                                                                  \
    va_start(Args, Format);                                                                        \
    int R =                                                                                        \
        vfscanfDone(SLEUTH_NEXT(VF, TAG##_vfscanf, PREFIX "vf" W "scanf"), stdin, Format, Args);   \
    va_end(Args);                                                                                  \
    return R;                                                                                      \
  }                                                                                                \
  SLEUTH_HOOK_AS(int, TAG##_fscanf, PREFIX "f" W "scanf", FILE *In, const CHAR *Format, ...) {     \
    va_list Args;                                                                                  \
    va_start(Args, Format);                                                                        \
    int R = vfscanfDone(SLEUTH_NEXT(VF, TAG##_vfscanf, PREFIX "vf" W "scanf"), In, Format, Args);  \
    va_end(Args);                                                                                  \
    return R;                                                                                      \
  }                                                                                                \
  SLEUTH_HOOK_AS(int, TAG##_sscanf, PREFIX "s" W "scanf", const CHAR *Text, const CHAR *Format,    \
                 ...) {                                                                            \
    va_list Args;                                                                                  \
    va_start(Args, Format);                                                                        \
    int R =                                                                                        \
        vsscanfDone(SLEUTH_NEXT(VS, TAG##_vsscanf, PREFIX "vs" W "scanf"), Text, Format, Args);    \
    va_end(Args);                                                                                  \
    return R;                                                                                      \
  }

SLEUTH_SCANF_FAMILY(gnu, char, "", "", NextVfscanf, NextVsscanf, NextVscanf)
SLEUTH_SCANF_FAMILY(iso, char, "__isoc99_", "", NextIsoVfscanf, NextIsoVsscanf, NextIsoVscanf)
SLEUTH_SCANF_FAMILY(wgnu, wchar_t, "", "w", NextVfwscanf, NextVswscanf, NextVwscanf)
SLEUTH_SCANF_FAMILY(wiso, wchar_t, "__isoc99_", "w", NextIsoVfwscanf, NextIsoVswscanf,
                    NextIsoVwscanf)

SLEUTH_HOOK(ssize_t, getdelim, char **Line, size_t *Size, int Delimiter, FILE *F) {
  return lineDone(Line, Size,
                  SLEUTH_NEXT(NextGetdelim, getdelim, "getdelim")(Line, Size, Delimiter, F));
}

SLEUTH_HOOK(ssize_t, getline, char **Line, size_t *Size, FILE *F) {
  return lineDone(Line, Size, SLEUTH_NEXT(NextGetline, getline, "getline")(Line, Size, F));
}

SLEUTH_HOOK(ssize_t, recv, int Fd, void *Buf, size_t N, int Flags) {
  return readDone(Buf, SLEUTH_NEXT(NextRecv, recv, "recv")(Fd, Buf, N, Flags));
}

SLEUTH_HOOK(ssize_t, recvfrom, int Fd, void *Buf, size_t N, int Flags, sockaddr *From,
            socklen_t *FromSize) {
  return receivedFrom(
      Buf, SLEUTH_NEXT(NextRecvfrom, recvfrom, "recvfrom")(Fd, Buf, N, Flags, From, FromSize), From,
      FromSize);
}

SLEUTH_HOOK(ssize_t, recvmsg, int Fd, msghdr *Message, int Flags) {
  MessageBuffers Before = messageBuffers(*Message);
  ssize_t Got = SLEUTH_NEXT(NextRecvmsg, recvmsg, "recvmsg")(Fd, Message, Flags);
  if (Got >= 0)
    messageDone(*Message, Before, static_cast<size_t>(Got));
  return Got;
}

// Each message received stores its header's fields as recvmsg does, and its length.
SLEUTH_HOOK(int, recvmmsg, int Fd, mmsghdr *Messages, unsigned Count, int Flags,
            timespec *Timeout) {
  std::vector<MessageBuffers> Before;
  if (shadowInUse())
    for (unsigned I = 0; I < Count; ++I)
      Before.push_back(messageBuffers(Messages[I].msg_hdr));
  int Got = SLEUTH_NEXT(NextRecvmmsg, recvmmsg, "recvmmsg")(Fd, Messages, Count, Flags, Timeout);
  for (int I = 0; I < Got && !Before.empty(); ++I) {
    messageDone(Messages[I].msg_hdr, Before[static_cast<size_t>(I)], Messages[I].msg_len);
    cleared(&Messages[I].msg_len, sizeof Messages[I].msg_len);
  }
  return Got;
}

SLEUTH_HOOK(ssize_t, __recv_chk, int Fd, void *Buf, size_t N, size_t BufSize, int Flags) {
  return readDone(Buf,
                  SLEUTH_NEXT(NextRecvChk, __recv_chk, "__recv_chk")(Fd, Buf, N, BufSize, Flags));
}

SLEUTH_HOOK(ssize_t, __recvfrom_chk, int Fd, void *Buf, size_t N, size_t BufSize, int Flags,
            sockaddr *From, socklen_t *FromSize) {
  return receivedFrom(Buf,
                      SLEUTH_NEXT(NextRecvfromChk, __recvfrom_chk,
                                  "__recvfrom_chk")(Fd, Buf, N, BufSize, Flags, From, FromSize),
                      From, FromSize);
}

SLEUTH_HOOK(ssize_t, read, int Fd, void *Buf, size_t N) {
  return readDone(Buf, SLEUTH_NEXT(NextRead, read, "read")(Fd, Buf, N));
}

SLEUTH_HOOK(ssize_t, pread, int Fd, void *Buf, size_t N, off_t At) {
  return readDone(Buf, SLEUTH_NEXT(NextPread, pread, "pread")(Fd, Buf, N, At));
}

SLEUTH_HOOK(ssize_t, readv, int Fd, const iovec *Buffers, int Count) {
  return readvDone(Buffers, Count, SLEUTH_NEXT(NextReadv, readv, "readv")(Fd, Buffers, Count));
}

SLEUTH_HOOK(ssize_t, preadv, int Fd, const iovec *Buffers, int Count, off_t At) {
  return readvDone(Buffers, Count,
                   SLEUTH_NEXT(NextPreadv, preadv, "preadv")(Fd, Buffers, Count, At));
}

static_assert(sizeof(off_t) == sizeof(off64_t), "pread64 and pread take the same offset");

SLEUTH_HOOK(ssize_t, pread64, int Fd, void *Buf, size_t N, off64_t At) {
  return readDone(Buf, SLEUTH_NEXT(NextPread64, pread64, "pread64")(Fd, Buf, N, At));
}

SLEUTH_HOOK(ssize_t, preadv64, int Fd, const iovec *Buffers, int Count, off64_t At) {
  return readvDone(Buffers, Count,
                   SLEUTH_NEXT(NextPreadv64, preadv64, "preadv64")(Fd, Buffers, Count, At));
}

SLEUTH_HOOK(size_t, fread, void *Buf, size_t Size, size_t N, FILE *F) {
  return freadDone(Buf, Size, SLEUTH_NEXT(NextFread, fread, "fread")(Buf, Size, N, F));
}

SLEUTH_HOOK(char *, fgets, char *Line, int N, FILE *F) {
  return fgetsDone(SLEUTH_NEXT(NextFgets, fgets, "fgets")(Line, N, F));
}

SLEUTH_HOOK(ssize_t, __read_chk, int Fd, void *Buf, size_t N, size_t BufSize) {
  return readDone(Buf, SLEUTH_NEXT(NextReadChk, __read_chk, "__read_chk")(Fd, Buf, N, BufSize));
}

SLEUTH_HOOK(ssize_t, __pread_chk, int Fd, void *Buf, size_t N, off_t At, size_t BufSize) {
  return readDone(Buf,
                  SLEUTH_NEXT(NextPreadChk, __pread_chk, "__pread_chk")(Fd, Buf, N, At, BufSize));
}

SLEUTH_HOOK(ssize_t, __pread64_chk, int Fd, void *Buf, size_t N, off64_t At, size_t BufSize) {
  return readDone(
      Buf, SLEUTH_NEXT(NextPread64Chk, __pread64_chk, "__pread64_chk")(Fd, Buf, N, At, BufSize));
}

SLEUTH_HOOK(size_t, __fread_chk, void *Buf, size_t BufSize, size_t Size, size_t N, FILE *F) {
  return freadDone(Buf, Size,
                   SLEUTH_NEXT(NextFreadChk, __fread_chk, "__fread_chk")(Buf, BufSize, Size, N, F));
}

SLEUTH_HOOK(char *, __fgets_chk, char *Line, size_t LineSize, int N, FILE *F) {
  return fgetsDone(SLEUTH_NEXT(NextFgetsChk, __fgets_chk, "__fgets_chk")(Line, LineSize, N, F));
}
