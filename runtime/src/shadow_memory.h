// The shadow memory: for every byte of the program's memory, the node that last wrote it.
//
// Three levels indexed by the address (16 + 16 + 16 bits of a 48-bit address space); leaves are
// allocated on first write. Entries are accessed with relaxed atomics: threads share memory, and
// the runtime must be free of data races (ThreadSanitizer) without paying for locks.
#pragma once

#include <atomic>
#include <cstdint>
#include <sys/mman.h>
#include <vector>

namespace sleuth::rt {

inline constexpr uint32_t NoNode = ~uint32_t(0);

class ShadowMemory {
public:
  static constexpr unsigned LeafBits = 16;
  static constexpr size_t LeafSize = size_t(1) << LeafBits;
  static constexpr unsigned MidBits = 16;

  void assign(uintptr_t Addr, unsigned long Size, uint32_t Node) {
    while (Size > 0) {
      std::atomic<uint32_t> *Leaf = leaf(Addr, /*Create=*/true);
      size_t Offset = Addr & (LeafSize - 1);
      size_t N = LeafSize - Offset < Size ? LeafSize - Offset : Size;
      for (size_t I = 0; I < N; ++I)
        Leaf[Offset + I].store(Node + 1, std::memory_order_relaxed);
      Addr += N;
      Size -= N;
    }
  }

  /// Appends the distinct origins of [Addr, Addr+Size) to Out.
  void collect(uintptr_t Addr, unsigned long Size, std::vector<uint32_t> &Out) const {
    uint32_t Previous = 0;
    while (Size > 0) {
      size_t Offset = Addr & (LeafSize - 1);
      size_t N = LeafSize - Offset < Size ? LeafSize - Offset : Size;
      std::atomic<uint32_t> *Leaf = leaf(Addr, /*Create=*/false);
      if (Leaf) {
        for (size_t I = 0; I < N; ++I) {
          uint32_t V = Leaf[Offset + I].load(std::memory_order_relaxed);
          if (V != 0 && V != Previous) {
            Out.push_back(V - 1);
            Previous = V;
          }
        }
      }
      Addr += N;
      Size -= N;
    }
  }

private:
  using Leaf = std::atomic<uint32_t>;
  using Mid = std::atomic<Leaf *>;

  Leaf *leaf(uintptr_t Addr, bool Create) const {
    size_t Top = (Addr >> (LeafBits + MidBits)) & 0xffff;
    size_t MidIndex = (Addr >> LeafBits) & ((size_t(1) << MidBits) - 1);
    Mid *M = Tops[Top].load(std::memory_order_acquire);
    if (!M) {
      if (!Create)
        return nullptr;
      M = static_cast<Mid *>(allocateZeroed(sizeof(Mid) << MidBits));
      Mid *Expected = nullptr;
      if (!Tops[Top].compare_exchange_strong(Expected, M, std::memory_order_acq_rel)) {
        munmap(M, sizeof(Mid) << MidBits);
        M = Expected;
      }
    }
    Leaf *L = M[MidIndex].load(std::memory_order_acquire);
    if (!L) {
      if (!Create)
        return nullptr;
      L = static_cast<Leaf *>(allocateZeroed(sizeof(Leaf) * LeafSize));
      Leaf *Expected = nullptr;
      if (!M[MidIndex].compare_exchange_strong(Expected, L, std::memory_order_acq_rel)) {
        munmap(L, sizeof(Leaf) * LeafSize);
        L = Expected;
      }
    }
    return L;
  }

  static void *allocateZeroed(size_t Bytes) {
    // mmap'd memory is zero and only touched pages cost memory.
    void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (P == MAP_FAILED)
      __builtin_trap();
    return P;
  }

  mutable std::atomic<Mid *> Tops[size_t(1) << 16] = {};
};

} // namespace sleuth::rt
