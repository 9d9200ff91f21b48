// Perturbed runs for the soundness oracle: see perturb.h. Also the kept locals' writes of an
// oracle build (`sleuth instrument --perturbable`), which pass the local's address.
#include "perturb.h"

#include "fd_writer.h"
#include "state.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace sleuth::rt::perturb {

bool Active = false;

namespace {

enum class Mode { None, Flip, Add };

// What SLEUTH_PERTURB asked for, and what the run did about it.
struct Request {
  Mode How = Mode::None;
  unsigned FileNode = 0;        // the target's id in the dependence file
  unsigned long Occurrence = 0; // 1-based
  unsigned Node = NoNode;       // its runtime id, once its unit registered
  unsigned long Hits = 0;       // executions of the node (its probes with an address or not)
  unsigned long Executions = 0; // executions that passed the stored bytes' address
  const volatile void *WaitingAddr = nullptr; // a perturbation waiting for its store
  unsigned long WaitingSize = 0;
  bool Applied = false;
  unsigned long Size = 0;                      // of the write perturbed
  unsigned char Before[8] = {}, After[8] = {}; // its first bytes
  // The path: FNV-1a over the nodes made and the tests' outcomes, in order.
  unsigned long long PathHash = 0xcbf29ce484222325ull;
  unsigned long long PathLength = 0;
  char ReportPath[4096] = {};
};

Request State;

void mix(unsigned long long Value) {
  for (int I = 0; I < 8; ++I) {
    State.PathHash ^= (Value >> (8 * I)) & 0xffu;
    State.PathHash *= 0x100000001b3ull;
  }
}

// "NODE:OCCURRENCE:MODE" or "none"; false if malformed.
bool parse(const char *Text) {
  if (std::strcmp(Text, "none") == 0)
    return true;
  char *End = nullptr;
  errno = 0;
  unsigned long Node = std::strtoul(Text, &End, 10);
  if (End == Text || *End != ':' || errno != 0 || Node >= NoNode || Text[0] == '-')
    return false;
  const char *Next = End + 1;
  unsigned long Occurrence = std::strtoul(Next, &End, 10);
  if (End == Next || *End != ':' || errno != 0 || Occurrence == 0 || Next[0] == '-')
    return false;
  const char *ModeName = End + 1;
  if (std::strcmp(ModeName, "flip") == 0)
    State.How = Mode::Flip;
  else if (std::strcmp(ModeName, "add") == 0)
    State.How = Mode::Add;
  else
    return false;
  State.FileNode = static_cast<unsigned>(Node);
  State.Occurrence = Occurrence;
  return true;
}

void fail(const char *Message, const char *Value) {
  const char *Prefix = "sleuth: ";
  (void)!::write(2, Prefix, std::strlen(Prefix));
  (void)!::write(2, Message, std::strlen(Message));
  (void)!::write(2, Value, std::strlen(Value));
  (void)!::write(2, "\n", 1);
  _exit(2);
}

// Before any constructor of the program's (default priority), which may run instrumented code.
__attribute__((constructor(101))) void readRequest() {
  const char *Text = std::getenv("SLEUTH_PERTURB");
  if (!Text || !*Text)
    return;
  const char *Report = std::getenv("SLEUTH_PERTURB_REPORT");
  if (Report && std::strlen(Report) >= sizeof State.ReportPath)
    fail("SLEUTH_PERTURB_REPORT: path too long: ", Report);
  if (!configure(Text, Report))
    fail("SLEUTH_PERTURB: expected NODE:OCCURRENCE:flip|add or none, got ", Text);
}

// Flip: the lowest bit of the first byte; add: one to the little-endian integer of Size bytes.
void apply(const volatile void *Addr, unsigned long Size) {
  auto *Bytes = static_cast<volatile unsigned char *>(const_cast<volatile void *>(Addr));
  unsigned long Shown = Size < 8 ? Size : 8;
  for (unsigned long I = 0; I < Shown; ++I)
    State.Before[I] = Bytes[I];
  if (State.How == Mode::Flip) {
    Bytes[0] = static_cast<unsigned char>(Bytes[0] ^ 1u);
  } else {
    for (unsigned long I = 0; I < Size; ++I) {
      Bytes[I] = static_cast<unsigned char>(Bytes[I] + 1u);
      if (Bytes[I] != 0)
        break;
    }
  }
  for (unsigned long I = 0; I < Shown; ++I)
    State.After[I] = Bytes[I];
  State.Size = Size;
  State.Applied = true;
}

// Bytes as hex digits into Text (2 * N + 1 chars), "-" for none.
const char *hex(char *Text, const unsigned char *Bytes, unsigned long N) {
  static const char Digits[] = "0123456789abcdef";
  for (unsigned long I = 0; I < N; ++I) {
    Text[2 * I] = Digits[Bytes[I] >> 4];
    Text[2 * I + 1] = Digits[Bytes[I] & 15u];
  }
  Text[2 * N] = '\0';
  return N == 0 ? "-" : Text;
}

} // namespace

bool configure(const char *Spec, const char *ReportPath) {
  if (!parse(Spec))
    return false;
  if (ReportPath && std::strlen(ReportPath) < sizeof State.ReportPath)
    std::strcpy(State.ReportPath, ReportPath);
  Active = true;
  return true;
}

void unitRegistered(const Registry &R, unsigned FirstNode, unsigned Count) {
  if (State.How == Mode::None || State.Node != NoNode)
    return;
  for (unsigned I = FirstNode; I < FirstNode + Count && I < R.FileIds.size(); ++I)
    if (R.FileIds[I] == State.FileNode)
      State.Node = I;
}

void nodeMade(unsigned Node) {
  if (State.WaitingAddr) {
    apply(State.WaitingAddr, State.WaitingSize);
    State.WaitingAddr = nullptr;
  }
  if (Node == State.Node)
    ++State.Hits;
  mix(Node);
  ++State.PathLength;
}

void testOutcome(int Outcome) { mix(0x100000000ull | static_cast<unsigned>(Outcome != 0)); }

void wrote(unsigned Node, const volatile void *Addr, unsigned long Size, bool StoreDone) {
  // Where the writes went is part of the path: a perturbed pointer or index moves a write that
  // the baseline overwrote unread onto memory the criterion reads, a potential dependence as a
  // changed branch is.
  mix(reinterpret_cast<unsigned long>(Addr));
  mix(Size);
  if (Node != State.Node || Size == 0)
    return;
  if (++State.Executions != State.Occurrence)
    return;
  if (StoreDone) {
    apply(Addr, Size);
  } else {
    State.WaitingAddr = Addr;
    State.WaitingSize = Size;
  }
}

void writeReport() {
  if (!State.ReportPath[0])
    return;
  writeFileAtomically(
      State.ReportPath, "perturbation report",
      [](FdWriter &W, void *) {
        W.str("sleuth-perturb 1").nl();
        if (State.How == Mode::None) {
          W.str("target none").nl();
        } else {
          W.str("target ").num(State.FileNode).sp().num(State.Occurrence).sp();
          W.str(State.How == Mode::Flip ? "flip" : "add").nl();
          W.str("hits ").num(State.Hits).nl();
          W.str("executions ").num(State.Executions).nl();
          if (State.Applied) {
            unsigned long Shown = State.Size < 8 ? State.Size : 8;
            char Text[17];
            W.str("applied ").num(State.Size).sp().str(hex(Text, State.Before, Shown)).sp();
            W.str(hex(Text, State.After, Shown)).nl();
          }
        }
        unsigned char Hash[8];
        for (int I = 0; I < 8; ++I)
          Hash[I] = static_cast<unsigned char>(State.PathHash >> (56 - 8 * I));
        char Text[17];
        W.str("path ").num(State.PathLength).sp().str(hex(Text, Hash, 8)).nl();
        W.str("end").nl();
      },
      nullptr);
}

} // namespace sleuth::rt::perturb

using namespace sleuth::rt;

namespace {
// A kept local's write in an oracle build: as sleuth_def (always the runtime's path: such
// builds are not timed), and the write's bytes are there to perturb. StoreDone is false for
// ++/-- whose value is used, recorded before the store (sleuth_defnow).
unsigned defAt(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
               unsigned long Size, bool StoreDone) {
  unsigned Origin = sleuth_def_slow(Tu, Site, Ctl, StoreDone ? 1 : 0);
  if (perturb::active())
    perturb::wrote(Origin - 1, Addr, Size, StoreDone);
  return Origin;
}
} // namespace

extern "C" {
unsigned sleuth_def_at(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                       unsigned long Size) {
  return defAt(Tu, Site, Ctl, Addr, Size, true);
}

unsigned sleuth_defnow_at(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                          unsigned long Size) {
  return defAt(Tu, Site, Ctl, Addr, Size, false);
}
} // extern "C"
