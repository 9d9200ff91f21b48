// The shadow memory: for every byte of the program's memory, the node that last wrote it.
//
// Three levels indexed by the address (16 + 16 + 16 bits of a 48-bit address space); leaves are
// allocated on first write. A leaf keeps one entry per aligned 4-byte word, which is all most
// words need (ints, floats, pointers and strings are written whole or by one site): shadow the
// size of the memory it describes, and one load for an aligned read of 4 bytes. A word whose
// bytes came from different writes (a char written into an int, a struct of chars) is marked
// split and its origins kept per byte in the leaf's byte table, allocated on the first split
// (mmap'd: only the pages of split words cost memory).
//
// Entries are accessed with atomics: threads share memory, and the runtime must be free of data
// races (ThreadSanitizer) without paying for locks. Two threads writing different bytes of one
// word at the same moment (which C allows) may leave one byte with the other's origin: an
// imprecision, never a crash.
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
  static constexpr size_t LeafSize = size_t(1) << LeafBits; // bytes of memory per leaf
  static constexpr unsigned MidBits = 16;
  static constexpr unsigned WordBits = 2;
  static constexpr size_t WordSize = size_t(1) << WordBits;
  static constexpr size_t WordsPerLeaf = LeafSize >> WordBits;

  struct Leaf;

  /// A thread's last leaves looked up, by the address bits above a leaf (leaves are never
  /// freed, so a cached pointer stays valid). Stack and heap accesses alternate: four ways.
  struct LeafCache {
    static constexpr unsigned Ways = 4;
    uintptr_t Keys[Ways] = {~uintptr_t(0), ~uintptr_t(0), ~uintptr_t(0), ~uintptr_t(0)};
    Leaf *Leaves[Ways] = {};
  };

  void assign(uintptr_t Addr, unsigned long Size, uint32_t Node, LeafCache &Cache) {
    const uint32_t Value = Node + 1;
    while (Size > 0) {
      Leaf *L = cachedLeaf(Addr, /*Create=*/true, Cache);
      size_t Offset = Addr & (LeafSize - 1);
      size_t N = LeafSize - Offset < Size ? LeafSize - Offset : Size;
      for (size_t I = Offset, End = Offset + N; I < End;) {
        size_t Word = I >> WordBits, WordBegin = Word << WordBits;
        size_t Stop = End < WordBegin + WordSize ? End : WordBegin + WordSize;
        if (I == WordBegin && Stop == WordBegin + WordSize)
          L->Words[Word].store(Value, std::memory_order_release);
        else
          assignBytes(*L, Word, I, Stop, Value);
        I = Stop;
      }
      Addr += N;
      Size -= N;
    }
  }

  /// Appends the distinct origins of [Addr, Addr+Size) to Out.
  void collect(uintptr_t Addr, unsigned long Size, std::vector<uint32_t> &Out,
               LeafCache &Cache) const {
    uint32_t Previous = 0;
    auto Add = [&](uint32_t V) {
      if (V != 0 && V != Previous) {
        Out.push_back(V - 1);
        Previous = V;
      }
    };
    while (Size > 0) {
      size_t Offset = Addr & (LeafSize - 1);
      size_t N = LeafSize - Offset < Size ? LeafSize - Offset : Size;
      if (const Leaf *L = cachedLeaf(Addr, /*Create=*/false, Cache)) {
        for (size_t I = Offset, End = Offset + N; I < End;) {
          size_t Word = I >> WordBits, WordBegin = Word << WordBits;
          size_t Stop = End < WordBegin + WordSize ? End : WordBegin + WordSize;
          uint32_t V = L->Words[Word].load(std::memory_order_acquire);
          if (V == Split) {
            const std::atomic<uint32_t> *Bytes = L->Bytes.load(std::memory_order_acquire);
            for (size_t J = I; J < Stop; ++J)
              Add(Bytes[J].load(std::memory_order_relaxed));
          } else {
            Add(V);
          }
          I = Stop;
        }
      }
      Addr += N;
      Size -= N;
    }
  }

  /// One leaf: an entry per word (0: never written; Split; else 1 + the node), and the byte
  /// table of split words.
  struct Leaf {
    std::atomic<uint32_t> Words[WordsPerLeaf];
    std::atomic<std::atomic<uint32_t> *> Bytes;
  };

private:
  using Mid = std::atomic<Leaf *>;
  static constexpr uint32_t Split = ~uint32_t(0); // never 1 + a node: NoNode is not a node

  // Bytes [I, Stop) of word Word (a part of it) now originate at Value: the word becomes split,
  // its other bytes keeping the origin the whole word had.
  void assignBytes(Leaf &L, size_t Word, size_t I, size_t Stop, uint32_t Value) {
    uint32_t Whole = L.Words[Word].load(std::memory_order_acquire);
    if (Whole == Value)
      return;
    std::atomic<uint32_t> *Bytes = bytesOf(L);
    size_t WordBegin = Word << WordBits;
    if (Whole != Split)
      for (size_t J = WordBegin; J < WordBegin + WordSize; ++J)
        Bytes[J].store(Whole, std::memory_order_relaxed);
    for (size_t J = I; J < Stop; ++J)
      Bytes[J].store(Value, std::memory_order_relaxed);
    L.Words[Word].store(Split, std::memory_order_release);
  }

  static std::atomic<uint32_t> *bytesOf(Leaf &L) {
    std::atomic<uint32_t> *Bytes = L.Bytes.load(std::memory_order_acquire);
    if (Bytes)
      return Bytes;
    size_t Size = sizeof(std::atomic<uint32_t>) * LeafSize;
    Bytes = static_cast<std::atomic<uint32_t> *>(allocateZeroed(Size));
    std::atomic<uint32_t> *Expected = nullptr;
    if (!L.Bytes.compare_exchange_strong(Expected, Bytes, std::memory_order_acq_rel)) {
      munmap(Bytes, Size);
      Bytes = Expected;
    }
    return Bytes;
  }

  Leaf *cachedLeaf(uintptr_t Addr, bool Create, LeafCache &Cache) const {
    uintptr_t Key = Addr >> LeafBits;
    unsigned Way = unsigned(Key) & (LeafCache::Ways - 1);
    if (Cache.Keys[Way] == Key)
      return Cache.Leaves[Way];
    Leaf *L = leaf(Addr, Create);
    if (L) { // a missing leaf may appear later (another thread's write): not cached
      Cache.Keys[Way] = Key;
      Cache.Leaves[Way] = L;
    }
    return L;
  }

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
      L = static_cast<Leaf *>(allocateZeroed(sizeof(Leaf)));
      Leaf *Expected = nullptr;
      if (!M[MidIndex].compare_exchange_strong(Expected, L, std::memory_order_acq_rel)) {
        munmap(L, sizeof(Leaf));
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
