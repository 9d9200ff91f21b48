// Coverage mode: registration of instrumented units and the coverage file
// (docs/coverage-format.md). The counters themselves live in the instrumented units and are
// incremented there; this file only evaluates the units' count formulas when it writes, without
// allocating, so that it can run from a fatal-signal handler.
#include "sleuth/coverage.h"

#include "fd_writer.h"
#include "state.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sleuth::rt {
namespace {

std::atomic<sleuth_cov_unit *> Units{nullptr};

/// The value of the formula at pool[Index]: a signed sum of counters, never below 0.
unsigned long long evaluate(const sleuth_cov_unit &U, unsigned Index) {
  const unsigned *F = U.pool + Index;
  long long Sum = 0;
  for (unsigned I = 1; I <= F[0]; ++I) {
    unsigned Counter = F[I] >> 1;
    long long Value = Counter < U.num_counters ? (long long)U.counters[Counter] : 0;
    Sum += (F[I] & 1) ? -Value : Value;
  }
  return Sum > 0 ? (unsigned long long)Sum : 0;
}

void emitCoverage(FdWriter &W, void *P) {
  auto *A = static_cast<const RunEnd *>(P);
  W.str("sleuth-cov 3").nl();
  W.str("program ").field(programName()).nl();
  writeRunStatus(W, A->Reason, A->Code);
  // Units are listed newest first; files are numbered in registration order, so walk the list
  // into a fixed array first (bounded: a program with more units gets the first ones only).
  static sleuth_cov_unit *Order[65536];
  unsigned NumUnits = 0;
  for (sleuth_cov_unit *U = Units.load(std::memory_order_acquire); U && NumUnits < 65536;
       U = U->next)
    Order[NumUnits++] = U;
  for (unsigned I = 0; I < NumUnits / 2; ++I) {
    sleuth_cov_unit *T = Order[I];
    Order[I] = Order[NumUnits - 1 - I];
    Order[NumUnits - 1 - I] = T;
  }
  for (unsigned F = 0; F < NumUnits; ++F)
    W.str("file ").num(F).sp().field(Order[F]->hash).sp().field(Order[F]->path).nl();
  unsigned FuncBase = 0, BlockBase = 0;
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_funcs; ++I) {
      const unsigned *Fn = U.funcs + 4 * I;
      W.str("func ").num(FuncBase + I).sp().num(F).sp().num(Fn[0]).sp().num(Fn[1]).sp();
      W.num(BlockBase + Fn[2]).sp().num(BlockBase + Fn[3]).sp().field(U.func_names[I]).nl();
    }
    FuncBase += U.num_funcs;
    BlockBase += U.num_blocks;
  }
  FuncBase = BlockBase = 0;
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_blocks; ++I) {
      const unsigned *B = U.blocks + 3 * I;
      W.str("block ").num(BlockBase + I).sp().num(FuncBase + B[0]).sp().num(evaluate(U, B[1]));
      const unsigned *Lines = U.pool + B[2];
      if (Lines[0] == 0)
        W.str(" -");
      for (unsigned L = 1; L <= Lines[0]; ++L)
        W.str(L == 1 ? " " : ",").num(Lines[L]);
      W.nl();
    }
    FuncBase += U.num_funcs;
    BlockBase += U.num_blocks;
  }
  static const char *const Kinds[] = {"seq", "true", "false", "case"};
  BlockBase = 0;
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_edges; ++I) {
      const unsigned *E = U.edges + 4 * I;
      W.str("edge ").num(BlockBase + E[0]).sp().num(BlockBase + E[1]).sp();
      W.str(E[2] < 4 ? Kinds[E[2]] : "seq").sp().num(evaluate(U, E[3])).nl();
    }
    BlockBase += U.num_blocks;
  }
  unsigned CondBase = 0;
  BlockBase = 0;
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_conds; ++I) {
      const unsigned *C = U.conds + 7 * I;
      W.str("cond ").num(CondBase + I).sp().num(BlockBase + C[0]);
      for (unsigned J = 1; J <= 4; ++J)
        W.sp().num(C[J]);
      W.sp().num(evaluate(U, C[5])).sp().num(evaluate(U, C[6]));
      W.nl();
    }
    CondBase += U.num_conds;
    BlockBase += U.num_blocks;
  }
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_lines; ++I) {
      const unsigned *L = U.lines + 2 * I;
      const unsigned *Blocks = U.pool + L[1];
      unsigned long long Count = 0;
      for (unsigned J = 1; J <= Blocks[0]; ++J) {
        unsigned long long C = evaluate(U, U.blocks[3 * Blocks[J] + 1]);
        if (C > Count)
          Count = C;
      }
      W.str("line ").num(F).sp().num(L[0]).sp().num(Count).nl();
    }
  }
  unsigned ValueBase = 0;
  for (unsigned F = 0; F < NumUnits; ++F) {
    const sleuth_cov_unit &U = *Order[F];
    for (unsigned I = 0; I < U.num_values; ++I) {
      const unsigned *V = U.values + 5 * I;
      W.str("value ").num(ValueBase + I).sp().num(F).sp().num(V[0]).sp().num(V[1]).sp();
      W.field(U.value_names[V[2]]).sp().field(U.value_names[V[3]]);
      for (unsigned K = 0; K < 3; ++K)
        W.sp().num(V[4] + K < U.num_counters ? (unsigned long long)U.counters[V[4] + K] : 0);
      W.nl();
    }
    ValueBase += U.num_values;
  }
  W.str("end").nl();
}

/// `$SLEUTH_COV_DIR/PID-N.cov` with the first N not taken, or $SLEUTH_COV_OUT, or by default
/// PROGRAM.PID.cov (defaultOutputPath).
const char *coveragePath(char *Buffer, size_t Size) {
  static DefaultOutputName Default;
  const char *Dir = std::getenv("SLEUTH_COV_DIR");
  if (!Dir || !*Dir) {
    const char *Out = std::getenv("SLEUTH_COV_OUT");
    return Out && *Out ? Out : defaultOutputPath(Default, "cov");
  }
  size_t L = std::strlen(Dir);
  if (L + 64 > Size)
    return defaultOutputPath(Default, "cov");
  for (unsigned N = 0;; ++N) {
    size_t At = L;
    std::memcpy(Buffer, Dir, L);
    Buffer[At++] = '/';
    auto Num = [&](unsigned long V) {
      char Digits[24];
      int K = 0;
      do {
        Digits[K++] = char('0' + V % 10);
        V /= 10;
      } while (V);
      while (K)
        Buffer[At++] = Digits[--K];
    };
    Num(unsigned(getpid()));
    Buffer[At++] = '-';
    Num(N);
    std::memcpy(Buffer + At, ".cov", 5);
    if (access(Buffer, F_OK) != 0)
      return Buffer;
  }
}

} // namespace

void writeRunStatus(FdWriter &W, WriteReason Reason, int Code) {
  if (Reason == WriteReason::Signal)
    W.str("status signal ").num(unsigned(Code)).nl();
  else if (Reason == WriteReason::Exit)
    W.str("status exit ").num(unsigned(Code) & 0xff).nl();
  else
    W.str("status running").nl();
}

void writeCoverageFile(WriteReason Reason, int Code) {
  if (!Units.load(std::memory_order_acquire))
    return;
  static char Path[4200];
  RunEnd A{Reason, Code};
  const char *Written = coveragePath(Path, sizeof Path);
  writeFileAtomically(Written, "coverage", emitCoverage, &A);
  writePathFile(Written, Reason, Code);
}

} // namespace sleuth::rt

using namespace sleuth::rt;

extern "C" {

void sleuth_cov_register(sleuth_cov_unit *Unit) {
  sleuth_cov_unit *Head = Units.load(std::memory_order_relaxed);
  do
    Unit->next = Head;
  while (!Units.compare_exchange_weak(Head, Unit, std::memory_order_release,
                                      std::memory_order_relaxed));
  installExitHandlers();
}

void sleuth_cov_flush(void) { writeCoverageFile(WriteReason::Explicit, 0); }

} // extern "C"
