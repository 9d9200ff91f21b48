// The shadow memory: for every byte of the program's memory, the node that last wrote it.
//
// Three levels indexed by the address (16 + 16 + 16 bits of a 48-bit address space); leaves are
// allocated on first write. A leaf keeps one 32-bit entry per aligned 4-byte word, which is all
// most words need (ints, floats, pointers and strings are written whole or by one site): shadow
// the size of the memory it describes, and one load for an aligned read of 4 bytes. The entry
// also holds a word some of whose bytes came from one write and the others from none (the '\0'
// a parser stores after a token into a buffer that read() or memcpy filled). Only a word whose
// bytes came from two writes or more (a char written into an int, a struct of chars) is split:
// its entry refers to a split record, the origins of its 4 bytes in 16 bytes, from a pool that
// all leaves share (chunks mmap'd on demand). Memory is so paid per split word. A byte table
// per leaf would cost a 4 KiB page for each KiB of memory holding any split word (with one,
// tinyxml2's benchmark peaked at 3.6x native memory).
//
// A record whose word is written whole again, or whose origins its entry can hold again (a
// string copied char by char), goes to the free list of the thread that wrote it, and that
// thread's next split takes it: a word split again reuses its record, and memory written over
// and over costs no more records. The free list is per thread (LeafCache) so that it needs no
// synchronization; a record freed by a thread that ends is lost. It is a list of indices, not
// threaded through the free records, which keep holding origins only: a read racing with a
// record's release and reuse may see a wrong origin, never an invalid one.
//
// Entries are accessed with atomics: threads share memory, and the runtime must be free of data
// races (ThreadSanitizer) without paying for locks. The common write, of a whole word that has
// no record, is a load and a store. A record's reference is put into an entry and taken out of
// it by compare-exchange only, so that no record is released twice (or lost, but to a plain
// store racing with it). Two threads writing different bytes of one word at the same moment
// (which C allows) may leave one byte with the other's origin: an imprecision, never a crash.
#pragma once

#include "sleuth/runtime.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace sleuth::rt {

inline constexpr uint32_t NoNode = ~uint32_t(0);

class ShadowMemory {
public:
  // The inline reads of runtime.h read entries as unsigned ints.
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(unsigned) &&
                std::atomic<uint32_t>::is_always_lock_free);
  static constexpr unsigned LeafBits = 16;
  static constexpr size_t LeafSize = size_t(1) << LeafBits; // bytes of memory per leaf
  static constexpr unsigned MidBits = 16;
  static constexpr unsigned WordBits = 2;
  static constexpr size_t WordSize = size_t(1) << WordBits;
  static constexpr size_t WordsPerLeaf = LeafSize >> WordBits;

  /// A word's entry, an origin being 0 (never written) or 1 + a node:
  /// - below SplitBit: the origin of all four bytes;
  /// - PartTag + a mask of bytes << PartMaskShift + an origin below PartOriginLimit: those bytes
  ///   come from that origin, the others were never written (a char stored into memory that
  ///   instrumented code did not write: a buffer filled by read or memcpy); a larger origin
  ///   takes a record;
  /// - RecordTag + an index below MaxRecords: the word is split, its bytes' origins are in
  ///   that split record.
  /// Node ids must stay below MaxNodes, so that 1 + a node never sets SplitBit: the runtime
  /// refuses more sites than that (registerUnit). NoNode is never stored (it is not a node).
  static constexpr uint32_t SplitBit = uint32_t(1) << 31;
  static constexpr uint32_t MaxNodes = SplitBit - 1;
  static_assert((MaxNodes & SplitBit) == 0 && NoNode >= MaxNodes); // MaxNodes: 1 + the last node
  static constexpr uint32_t RecordTag = SplitBit, PartTag = SplitBit | (SplitBit >> 1);
  static constexpr unsigned PartMaskShift = 26;
  static constexpr uint32_t PartOriginLimit = uint32_t(1) << PartMaskShift;

  struct Leaf;

  /// A thread's last leaves looked up, by the address bits above a leaf (leaves are never
  /// freed, so a cached pointer stays valid). Stack and heap accesses alternate: four ways.
  /// And the thread's free list: the indices of the split records it released, which its next
  /// splits take first.
  /// The runtime's threads publish their cache for the inline reads of runtime.h.
  struct LeafCache {
    static constexpr unsigned Ways = SLEUTH_LEAF_WAYS;
    LeafCache() {
      for (uintptr_t &Key : Keys)
        Key = ~uintptr_t(0);
    }
    uintptr_t Keys[Ways];
    Leaf *Leaves[Ways] = {};
    std::vector<uint32_t> FreeRecords;
    sleuth_reads *Published = nullptr; // the thread's, or none
  };
  static_assert(sizeof(sleuth_reads::leaf_keys) / sizeof(unsigned long) == LeafCache::Ways &&
                    LeafBits == 16 && WordBits == 2 && SplitBit == SLEUTH_SPLIT &&
                    PartTag == SLEUTH_PART && PartMaskShift == SLEUTH_PART_SHIFT,
                "the inline reads and writes of runtime.h assume this layout");

  ShadowMemory()
      : Chunks(static_cast<std::atomic<SplitRecord *> *>(allocateZeroed(ChunkTableBytes))) {}
  ShadowMemory(const ShadowMemory &) = delete;
  ShadowMemory &operator=(const ShadowMemory &) = delete;
  /// The runtime's shadow lives until the process ends; tests destroy theirs (no thread may
  /// be using it then).
  ~ShadowMemory() {
    for (auto &Top : Tops)
      if (Mid *M = Top.load(std::memory_order_acquire)) {
        for (size_t I = 0; I < (size_t(1) << MidBits); ++I)
          if (Leaf *L = M[I].load(std::memory_order_acquire))
            munmap(L, sizeof(Leaf));
        munmap(M, sizeof(Mid) << MidBits);
      }
    for (size_t C = 0; C < MaxChunks; ++C)
      if (SplitRecord *Chunk = Chunks[C].load(std::memory_order_acquire))
        munmap(Chunk, ChunkBytes);
    munmap(Chunks, ChunkTableBytes);
  }

  /// The chunks of split records, as the inline probes of runtime.h read them
  /// (sleuth_record_byte): a chunk pointer per 65,536 records, each record four origins.
  unsigned **recordChunks() const { return reinterpret_cast<unsigned **>(Chunks); }

  void assign(uintptr_t Addr, unsigned long Size, uint32_t Node, LeafCache &Cache) {
    store(Addr, Size, Node + 1, Cache);
  }

  /// Makes [Addr, Addr+Size) have no origin (memset): memory without a leaf has none already,
  /// and gets none.
  void clear(uintptr_t Addr, unsigned long Size, LeafCache &Cache) { store(Addr, Size, 0, Cache); }

  /// The origin (0, or 1 + the node) of the byte at Addr.
  uint32_t originAt(uintptr_t Addr, LeafCache &Cache) const {
    const Leaf *L = cachedLeaf(Addr, /*Create=*/false, Cache);
    if (!L)
      return 0;
    size_t I = Addr & (LeafSize - 1), Byte = I & (WordSize - 1);
    uint32_t V = L->Words[I >> WordBits].load(std::memory_order_acquire);
    return isRecord(V) ? record(V).Bytes[Byte].load(std::memory_order_relaxed) : originOf(V, Byte);
  }

  /// Gives [Dst, Dst+Size) the origins of [Src, Src+Size) byte for byte (memcpy, memmove,
  /// realloc: the ranges may overlap). Bytes without an origin make no leaf.
  void copy(uintptr_t Dst, uintptr_t Src, unsigned long Size, LeafCache &Cache) {
    constexpr size_t Chunk = 1024;
    uint32_t Origins[Chunk];
    bool Backward = Dst > Src && Dst - Src < Size; // a later chunk's source is written first
    // Ranges aligned alike (a block realloc moved; most memcpy of structs and arrays) copy
    // their whole words' entries as they are, a byte mask included: a byte's position in its
    // word is the same at both ends. Only the words of split records go byte by byte.
    bool Aligned = ((Dst ^ Src) & (WordSize - 1)) == 0;
    for (unsigned long Done = 0; Done < Size;) {
      size_t N = Size - Done < Chunk ? Size - Done : Chunk;
      unsigned long At = Backward ? Size - Done - N : Done;
      if (Aligned && N >= 2 * WordSize) {
        copyWords(Dst + At, Src + At, N, Cache);
      } else {
        for (size_t I = 0; I < N; ++I)
          Origins[I] = originAt(Src + At + I, Cache);
        storeOrigins(Dst + At, Origins, N, Cache);
      }
      Done += N;
    }
  }

  /// Memory given back to the allocator ([Addr, Addr+Size), a freed heap block) has no origin
  /// any more, as after clear(); its split records return to Cache's free list. Where the range
  /// spans ReleaseAtLeast bytes or more, the shadow pages it covers whole go back to the kernel
  /// (madvise): a large block is mmap'd by malloc and unmapped by free, and the next one lands
  /// elsewhere, so its shadow would stay resident for memory that no longer exists (tinyxml2's
  /// benchmark parses three documents and would keep the shadow of all three). Smaller
  /// blocks' addresses are reused by the allocator, and their shadow with them.
  static constexpr size_t ReleaseAtLeast = size_t(64) << 10;
  void forget(uintptr_t Addr, unsigned long Size, LeafCache &Cache) {
    bool Release = Size >= ReleaseAtLeast;
    // The bytes of partial words at either end.
    uintptr_t First = (Addr + WordSize - 1) & ~uintptr_t(WordSize - 1);
    uintptr_t Last = (Addr + Size) & ~uintptr_t(WordSize - 1);
    if (First >= Last) {
      store(Addr, Size, 0, Cache);
      return;
    }
    store(Addr, First - Addr, 0, Cache);
    store(Last, Addr + Size - Last, 0, Cache);
    for (uintptr_t At = First; At < Last;) {
      size_t Offset = At & (LeafSize - 1);
      size_t N = LeafSize - Offset < Last - At ? LeafSize - Offset : Last - At;
      if (Leaf *L = cachedLeaf(At, /*Create=*/false, Cache))
        forgetWords(*L, Offset >> WordBits, (Offset + N) >> WordBits, Release, Cache);
      At += N;
    }
  }

  /// The split records on the free list of a cache that is not a thread's (the heap hooks', see
  /// heap_hooks.cpp) go to a list of the shadow's own, which the next split of any thread
  /// whose own list is empty takes.
  void giveBack(LeafCache &Cache) {
    if (Cache.FreeRecords.empty())
      return;
    std::lock_guard<std::mutex> Lock(GivenBackMutex);
    GivenBackRecords.insert(GivenBackRecords.end(), Cache.FreeRecords.begin(),
                            Cache.FreeRecords.end());
    GivenBack.store(GivenBackRecords.size(), std::memory_order_relaxed);
    Cache.FreeRecords.clear();
  }

  /// Bytes of shadow pages resident in memory (mincore), for tests: what the leaves cost.
  size_t residentLeafBytes() const {
    size_t Page = size_t(sysconf(_SC_PAGESIZE)), Pages = sizeof(Leaf) / Page, Resident = 0;
    std::vector<unsigned char> InCore(Pages);
    for (auto &Top : Tops)
      if (Mid *M = Top.load(std::memory_order_acquire))
        for (size_t I = 0; I < (size_t(1) << MidBits); ++I)
          if (Leaf *L = M[I].load(std::memory_order_acquire);
              L && mincore(L, sizeof(Leaf), InCore.data()) == 0)
            for (unsigned char P : InCore)
              Resident += (P & 1) * Page;
    return Resident;
  }

private:
  // Gives byte I of [Addr, Addr+N) the origin Origins[I]: runs of one origin as store() does,
  // and each whole word of mixed origins at once (a misaligned memcpy of bytes from several
  // writes, zlib's window updates), its record written in one go rather than split byte by byte.
  void storeOrigins(uintptr_t Addr, const uint32_t *Origins, size_t N, LeafCache &Cache) {
    for (size_t I = 0, J; I < N; I = J) {
      uintptr_t At = Addr + I;
      if ((At & (WordSize - 1)) == 0 && N - I >= WordSize &&
          !(Origins[I] == Origins[I + 1] && Origins[I] == Origins[I + 2] &&
            Origins[I] == Origins[I + 3])) {
        Leaf *L = cachedLeaf(At, /*Create=*/true, Cache);
        assignWordBytes(L->Words[(At & (LeafSize - 1)) >> WordBits], Origins + I, Cache);
        J = I + WordSize;
        continue;
      }
      for (J = I + 1; J < N && Origins[J] == Origins[I] && ((Addr + J) & (WordSize - 1)) != 0;)
        ++J;
      if (((Addr + J) & (WordSize - 1)) == 0) // a run up to a word's end goes on whole words
        while (J < N && Origins[J] == Origins[I])
          ++J;
      store(At, J - I, Origins[I], Cache);
    }
  }

  // The word's four bytes take the origins Bytes (not all one): in its record if it has one,
  // in its entry if that can hold them (one origin and none), else in a fresh record.
  void assignWordBytes(std::atomic<uint32_t> &Entry, const uint32_t *Bytes, LeafCache &Cache) {
    uint32_t Old = Entry.load(std::memory_order_acquire);
    if (isRecord(Old)) {
      SplitRecord &R = record(Old);
      for (size_t J = 0; J < WordSize; ++J)
        R.Bytes[J].store(Bytes[J], std::memory_order_relaxed);
      return;
    }
    uint32_t Origin = 0, Mask = 0;
    bool Part = true;
    for (size_t J = 0; J < WordSize; ++J)
      if (Bytes[J] != 0) {
        Part = Part && (Origin == 0 || Origin == Bytes[J]) && Bytes[J] < PartOriginLimit;
        Origin = Bytes[J];
        Mask |= uint32_t(1) << J;
      }
    if (Part) {
      Entry.store(PartTag | (Mask << PartMaskShift) | Origin, std::memory_order_release);
      return;
    }
    uint32_t Index = allocateRecord(Cache);
    SplitRecord &R = record(RecordTag | Index);
    for (size_t J = 0; J < WordSize; ++J)
      R.Bytes[J].store(Bytes[J], std::memory_order_relaxed);
    // As splitBytes: a word split by two threads at once must not lose a record.
    if (!Entry.compare_exchange_strong(Old, RecordTag | Index, std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
      Cache.FreeRecords.push_back(Index);
      assignWordBytes(Entry, Bytes, Cache); // the word changed meanwhile: again
    }
  }

  // Makes Value (0, or 1 + a node) the origin of [Addr, Addr+Size); with 0, only where a leaf
  // exists.
  void store(uintptr_t Addr, unsigned long Size, uint32_t Value, LeafCache &Cache) {
    while (Size > 0) {
      Leaf *L = cachedLeaf(Addr, /*Create=*/Value != 0, Cache);
      size_t Offset = Addr & (LeafSize - 1);
      size_t N = LeafSize - Offset < Size ? LeafSize - Offset : Size;
      for (size_t I = Offset, End = Offset + N; L && I < End;) {
        size_t Word = I >> WordBits, WordBegin = Word << WordBits;
        size_t Stop = End < WordBegin + WordSize ? End : WordBegin + WordSize;
        if (I == WordBegin && Stop == WordBegin + WordSize)
          assignWord(L->Words[Word], Value, Cache);
        else
          assignBytes(L->Words[Word], I - WordBegin, Stop - WordBegin, Value, Cache);
        I = Stop;
      }
      Addr += N;
      Size -= N;
    }
  }

public:
  /// Appends the distinct origins of [Addr, Addr+Size) to Out.
  template <class Reads>
  void collect(uintptr_t Addr, unsigned long Size, Reads &Out, LeafCache &Cache) const {
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
      // A leaf is made for a read too: reads of memory no instrumented code wrote (a buffer
      // filled by read() or memcpy) then find their leaf in the thread's cache, inline, instead
      // of calling the runtime each time. Its pages stay the kernel's zero page until written.
      if (const Leaf *L = cachedLeaf(Addr, /*Create=*/true, Cache)) {
        for (size_t I = Offset, End = Offset + N; I < End;) {
          size_t Word = I >> WordBits, WordBegin = Word << WordBits;
          size_t Stop = End < WordBegin + WordSize ? End : WordBegin + WordSize;
          uint32_t V = L->Words[Word].load(std::memory_order_acquire);
          if (!(V & SplitBit)) {
            Add(V);
          } else if (isRecord(V)) {
            const SplitRecord &R = record(V);
            for (size_t J = I; J < Stop; ++J)
              Add(R.Bytes[J - WordBegin].load(std::memory_order_relaxed));
          } else {
            for (size_t J = I; J < Stop; ++J)
              if ((V >> (PartMaskShift + J - WordBegin)) & 1)
                Add(V & (PartOriginLimit - 1));
          }
          I = Stop;
        }
      }
      Addr += N;
      Size -= N;
    }
  }

  /// Split records taken from the pool so far, those on free lists included (its high-water
  /// mark): for tests and statistics.
  size_t splitRecordsAllocated() const {
    size_t N = NextRecord.load(std::memory_order_relaxed);
    return N < MaxRecords ? N : MaxRecords;
  }

  /// One leaf: an entry per word (see SplitBit).
  struct Leaf {
    std::atomic<uint32_t> Words[WordsPerLeaf];
  };

private:
  using Mid = std::atomic<Leaf *>;

  /// The origins (0 or 1 + a node) of the bytes of one split word.
  struct SplitRecord {
    std::atomic<uint32_t> Bytes[WordSize];
  };
  // The pool: chunks of 65,536 records (1 MiB, mmap'd when the first of them is taken, paid
  // per touched page), as many as the 30 bits of an entry can index (16 GiB).
  static constexpr unsigned ChunkBits = 16;
  static constexpr size_t RecordsPerChunk = size_t(1) << ChunkBits;
  static constexpr size_t ChunkBytes = sizeof(SplitRecord) * RecordsPerChunk;
  static constexpr size_t MaxRecords = size_t(1) << 30;
  static constexpr size_t MaxChunks = MaxRecords >> ChunkBits;
  static constexpr size_t ChunkTableBytes = sizeof(std::atomic<SplitRecord *>) * MaxChunks;
  static_assert(sizeof(SplitRecord) == 16);
#ifdef SLEUTH_INLINE_WRITES
  static_assert(ChunkBits == 16 && MaxRecords == size_t(1) << SLEUTH_RECORD_BITS &&
                    sizeof(std::atomic<SplitRecord *>) == sizeof(unsigned *),
                "the inline probes of runtime.h find records this way (sleuth_record_byte)");
#endif

  // The whole word now originates at Value. The common case, a word without a record, is a
  // load and a store (no locked instruction); a record is released by the thread whose
  // compare-exchange takes its reference out of the entry, so no two threads release it.
  static void assignWord(std::atomic<uint32_t> &Entry, uint32_t Value, LeafCache &Cache) {
    uint32_t Old = Entry.load(std::memory_order_relaxed);
    if (__builtin_expect(!isRecord(Old), 1)) {
      Entry.store(Value, std::memory_order_release);
      return;
    }
    // A plain store racing with another thread's split of this word may drop that split's
    // record (a leak, never a double release); only a record's reference is claimed by
    // exchange.
    while (!Entry.compare_exchange_weak(Old, Value, std::memory_order_acq_rel,
                                        std::memory_order_relaxed))
      if (!isRecord(Old)) {
        Entry.store(Value, std::memory_order_release);
        return;
      }
    Cache.FreeRecords.push_back(Old & (MaxRecords - 1));
  }

  // Bytes [First, Stop) of the word (a part of it) now originate at Value, its other bytes
  // keeping the origins they had. The common cases, where the entry keeps one origin (a char
  // stored into never-written memory, or next to chars from the same write), are a few bit
  // operations on the entry; the others, where the word is or becomes split, go to splitBytes.
  void assignBytes(std::atomic<uint32_t> &Entry, size_t First, size_t Stop, uint32_t Value,
                   LeafCache &Cache) {
    uint32_t Old = Entry.load(std::memory_order_acquire);
    if (Old == Value)
      return;
    constexpr uint32_t AllBytes = 15u << PartMaskShift;
    uint32_t Written = (((1u << Stop) - 1) & ~((1u << First) - 1)) << PartMaskShift;
    if (Value == 0 && !isRecord(Old)) { // bytes cleared (memset, free): the others keep theirs
      uint32_t Origin = Old & SplitBit ? Old & (PartOriginLimit - 1) : Old;
      uint32_t Kept = (Old & SplitBit ? Old & AllBytes : AllBytes) & ~Written;
      if (Origin < PartOriginLimit) {
        Entry.store(Kept ? PartTag | Kept | Origin : 0, std::memory_order_release);
        return;
      }
    }
    if (Value < PartOriginLimit && (Old == 0 || (Old & PartTag) == PartTag)) {
      uint32_t New = NeedsRecord;
      if ((Old & AllBytes & ~Written) == 0) // no byte from another write is left
        New = PartTag | Written | Value;
      else if ((Old & (PartOriginLimit - 1)) == Value) // more bytes from the same write
        New = ((Old & AllBytes) | Written) == AllBytes ? Value : Old | Written;
      if (New != NeedsRecord) {
        if (New != Old)
          Entry.store(New, std::memory_order_release);
        return;
      }
    }
    splitBytes(Entry, Old, First, Stop, Value, Cache);
  }

  // assignBytes where the entry cannot hold the word's origins (Old): the word is split, or
  // becomes split. A word split already is changed in its own record, and gives it back when
  // its entry can hold its origins again (a string copied char by char over other data).
  void splitBytes(std::atomic<uint32_t> &Entry, uint32_t Old, size_t First, size_t Stop,
                  uint32_t Value, LeafCache &Cache) {
    if (isRecord(Old)) {
      SplitRecord &R = record(Old);
      uint32_t Mask = 0;  // the bytes from Value
      bool Other = false; // a byte from another write is left
      for (size_t J = 0; J < WordSize; ++J) {
        if (J >= First && J < Stop) {
          R.Bytes[J].store(Value, std::memory_order_relaxed);
          Mask |= uint32_t(1) << J;
        } else if (uint32_t Byte = R.Bytes[J].load(std::memory_order_relaxed); Byte == Value) {
          Mask |= uint32_t(1) << J;
        } else {
          Other |= Byte != 0;
        }
      }
      if (Other)
        return;
      uint32_t New = Mask == 15                ? Value
                     : Value < PartOriginLimit ? PartTag | (Mask << PartMaskShift) | Value
                                               : NeedsRecord;
      if (New != NeedsRecord && Entry.compare_exchange_strong(Old, New, std::memory_order_acq_rel,
                                                              std::memory_order_relaxed))
        Cache.FreeRecords.push_back(Old & (MaxRecords - 1));
      return;
    }
    uint32_t Index = allocateRecord(Cache);
    SplitRecord &R = record(RecordTag | Index);
    for (size_t J = 0; J < WordSize; ++J)
      R.Bytes[J].store(J >= First && J < Stop ? Value : originOf(Old, J),
                       std::memory_order_relaxed);
    // Not a plain store: a word split by two threads at once must not lose a record.
    if (Entry.compare_exchange_strong(Old, RecordTag | Index, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      return;
    Cache.FreeRecords.push_back(Index); // the word changed meanwhile: again with its new value
    assignBytes(Entry, First, Stop, Value, Cache);
  }

  // copy() of N bytes (at most a chunk of 1 KiB, at least two words) from Src to Dst, both at
  // the same offset in their words: all read before any is written (the ranges may overlap).
  void copyWords(uintptr_t Dst, uintptr_t Src, size_t N, LeafCache &Cache) {
    constexpr size_t MaxWords = 1024 / WordSize + 1;
    uint32_t Entries[MaxWords];
    bool Split[MaxWords]; // the word's entry refers to a split record: copied by bytes
    uint32_t SplitOrigins[MaxWords][WordSize];
    uintptr_t Head = (WordSize - (Src & (WordSize - 1))) & (WordSize - 1);
    uintptr_t Words = (N - Head) >> WordBits, Tail = N - Head - (Words << WordBits);
    uint32_t HeadOrigins[WordSize], TailOrigins[WordSize];
    for (size_t I = 0; I < Head; ++I)
      HeadOrigins[I] = originAt(Src + I, Cache);
    for (size_t I = 0; I < Tail; ++I)
      TailOrigins[I] = originAt(Src + N - Tail + I, Cache);
    for (size_t W = 0; W < Words; ++W) {
      uintptr_t From = Src + Head + (W << WordBits);
      const Leaf *L = cachedLeaf(From, /*Create=*/false, Cache);
      uint32_t V =
          L ? L->Words[(From & (LeafSize - 1)) >> WordBits].load(std::memory_order_acquire) : 0;
      // A split word's bytes are copied, not its record's reference (a record has one word): the
      // destination word takes the four at once (storeOrigins).
      Split[W] = isRecord(V);
      Entries[W] = Split[W] ? 0 : V;
      if (Split[W])
        for (size_t J = 0; J < WordSize; ++J)
          SplitOrigins[W][J] = record(V).Bytes[J].load(std::memory_order_relaxed);
    }
    for (size_t I = 0; I < Head; ++I)
      store(Dst + I, 1, HeadOrigins[I], Cache);
    for (size_t W = 0; W < Words; ++W) {
      uintptr_t To = Dst + Head + (W << WordBits);
      if (Split[W]) {
        storeOrigins(To, SplitOrigins[W], WordSize, Cache);
        continue;
      }
      Leaf *L = cachedLeaf(To, /*Create=*/Entries[W] != 0, Cache);
      if (L)
        assignWord(L->Words[(To & (LeafSize - 1)) >> WordBits], Entries[W], Cache);
    }
    for (size_t I = 0; I < Tail; ++I)
      store(Dst + N - Tail + I, 1, TailOrigins[I], Cache);
  }

  // forget() of whole words [Begin, End) of leaf L: entries made 0, records released; with
  // Release, the pages covered whole and holding any entry are given back to the kernel, which
  // makes them zero again (a run of such pages in one madvise).
  void forgetWords(Leaf &L, size_t Begin, size_t End, bool Release, LeafCache &Cache) {
    constexpr size_t WordsPerPage = 4096 / sizeof(std::atomic<uint32_t>);
    size_t RunBegin = 0, RunEnd = 0; // a run of pages to release, in words
    auto Flush = [&] {
      if (RunEnd > RunBegin)
        madvise(&L.Words[RunBegin], (RunEnd - RunBegin) * sizeof(L.Words[0]), MADV_DONTNEED);
      RunBegin = RunEnd = 0;
    };
    for (size_t W = Begin; W < End;) {
      size_t PageEnd = (W / WordsPerPage + 1) * WordsPerPage;
      if (PageEnd > End)
        PageEnd = End;
      bool WholePage = Release && W % WordsPerPage == 0 && PageEnd - W == WordsPerPage;
      bool Any = false;
      for (size_t I = W; I < PageEnd; ++I) {
        uint32_t V = L.Words[I].load(std::memory_order_relaxed);
        if (V == 0)
          continue;
        Any = true;
        if (isRecord(V))
          assignWord(L.Words[I], 0, Cache); // releases the record
        else if (!WholePage)
          L.Words[I].store(0, std::memory_order_release);
      }
      if (WholePage && Any) {
        if (RunEnd != W)
          Flush();
        if (RunEnd == RunBegin)
          RunBegin = W;
        RunEnd = PageEnd;
      }
      W = PageEnd;
    }
    Flush();
  }

  // Not an entry: it would be PartTag with all four bytes, which is a whole word's entry.
  static constexpr uint32_t NeedsRecord = ~uint32_t(0);

  static bool isRecord(uint32_t Entry) { return (Entry & PartTag) == RecordTag; }

  // The origin of byte J of a word whose entry is not a record's.
  static uint32_t originOf(uint32_t Entry, size_t J) {
    if (!(Entry & SplitBit))
      return Entry;
    return (Entry >> (PartMaskShift + J)) & 1 ? Entry & (PartOriginLimit - 1) : 0;
  }

  uint32_t allocateRecord(LeafCache &Cache) {
    if (Cache.FreeRecords.empty() && GivenBack.load(std::memory_order_relaxed) != 0)
      adoptGivenBack(Cache);
    if (!Cache.FreeRecords.empty()) {
      uint32_t Index = Cache.FreeRecords.back();
      Cache.FreeRecords.pop_back();
      return Index;
    }
    size_t Index = NextRecord.fetch_add(1, std::memory_order_relaxed);
    if (Index >= MaxRecords)
      __builtin_trap(); // 2^30 split words (16 GiB of records) at once
    std::atomic<SplitRecord *> &Chunk = Chunks[Index >> ChunkBits];
    if (!Chunk.load(std::memory_order_acquire)) {
      auto *Fresh = static_cast<SplitRecord *>(allocateZeroed(ChunkBytes));
      SplitRecord *Expected = nullptr;
      if (!Chunk.compare_exchange_strong(Expected, Fresh, std::memory_order_acq_rel))
        munmap(Fresh, ChunkBytes);
    }
    return static_cast<uint32_t>(Index);
  }

  // The record of an entry that refers to one (or of RecordTag + an index from a free list): its
  // chunk was published before the entry.
  SplitRecord &record(uint32_t Entry) const {
    uint32_t Index = Entry & (MaxRecords - 1);
    return Chunks[Index >> ChunkBits].load(
        std::memory_order_acquire)[Index & (RecordsPerChunk - 1)];
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
      if (Cache.Published) {
        Cache.Published->leaf_keys[Way] = Key;
        Cache.Published->leaves[Way] = reinterpret_cast<unsigned *>(L->Words);
      }
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

  // Takes the records given back (giveBack) onto Cache's free list. Nothing allocates under the
  // lock: a free from here may run the heap hooks, which give records back.
  void adoptGivenBack(LeafCache &Cache) {
    std::vector<uint32_t> Taken;
    {
      std::lock_guard<std::mutex> Lock(GivenBackMutex);
      Taken.swap(GivenBackRecords);
      GivenBack.store(0, std::memory_order_relaxed);
    }
    Cache.FreeRecords.insert(Cache.FreeRecords.end(), Taken.begin(), Taken.end());
  }

  mutable std::atomic<Mid *> Tops[size_t(1) << 16] = {};
  std::mutex GivenBackMutex;
  std::vector<uint32_t> GivenBackRecords; // see giveBack
  std::atomic<size_t> GivenBack{0};       // their number, checked without the lock
  std::atomic<SplitRecord *> *Chunks;     // MaxChunks entries, mmap'd (untouched pages are free)
  std::atomic<size_t> NextRecord{0};
};

} // namespace sleuth::rt
