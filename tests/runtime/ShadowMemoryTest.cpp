// Tests of the shadow memory's split words (runtime/src/shadow_memory.h) on a ShadowMemory of
// their own: addresses are only keys of the shadow, so the scenarios use made-up ones.
#include "shadow_memory.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using sleuth::rt::ShadowMemory;
using Cache = ShadowMemory::LeafCache;
using Origins = std::vector<uint32_t>;

constexpr uintptr_t Base = uintptr_t(0x5a5a) << 32; // word-aligned, far from real memory

Origins origins(const ShadowMemory &S, uintptr_t Addr, unsigned long Size, Cache &C) {
  Origins Out;
  S.collect(Addr, Size, Out, C);
  return Out;
}

/// The origin of each byte of the word at Addr (NoNode: never written).
std::array<uint32_t, 4> bytesOf(const ShadowMemory &S, uintptr_t Addr, Cache &C) {
  std::array<uint32_t, 4> Bytes;
  for (unsigned I = 0; I < 4; ++I) {
    Origins O = origins(S, Addr + I, 1, C);
    Bytes[I] = O.empty() ? sleuth::rt::NoNode : O.at(0);
  }
  return Bytes;
}

size_t residentBytes() {
  std::ifstream Statm("/proc/self/statm");
  size_t Size = 0, Resident = 0;
  Statm >> Size >> Resident;
  return Resident * size_t(sysconf(_SC_PAGESIZE));
}

TEST(ShadowMemoryTest, SparseSplitWordsCostARecordEachNotAPage) {
  // One split word per KiB of memory: a per-leaf byte table would touch a 4 KiB page for each
  // (32 MiB here), records take 16 bytes each (128 KiB; a few times that under sanitizers,
  // which shadow memory of their own).
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr size_t Words = 8192, Stride = 1024;
  for (size_t I = 0; I < Words; ++I)
    S->assign(Base + I * Stride, 4, /*Node=*/1, C); // leaves and their word pages
  size_t Before = residentBytes();
  for (size_t I = 0; I < Words; ++I)
    S->assign(Base + I * Stride + 3, 1, /*Node=*/2, C);
  size_t Grown = residentBytes() - Before;
  EXPECT_EQ(S->splitRecordsAllocated(), Words);
  EXPECT_LT(Grown, size_t(4) << 20) << "bytes made resident by " << Words << " splits";
  for (size_t I = 0; I < Words; I += 997)
    EXPECT_EQ(bytesOf(*S, Base + I * Stride, C), (std::array<uint32_t, 4>{1, 1, 1, 2}));
}

TEST(ShadowMemoryTest, WordWrittenWholeReleasesItsRecordForTheNextSplit) {
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  const uintptr_t A = Base, B = Base + 4096;
  S->assign(A, 4, 1, C);
  S->assign(A + 1, 1, 2, C); // A splits: {1, 2, 1, 1}
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  EXPECT_EQ(origins(*S, A, 4, C), (Origins{1, 2, 1}));
  S->assign(A, 4, 3, C); // A whole again
  EXPECT_EQ(C.FreeRecords.size(), 1u);
  EXPECT_EQ(origins(*S, A, 4, C), Origins{3});
  // B splits with the released record, which must not keep A's byte origins.
  S->assign(B, 4, 4, C);
  S->assign(B + 3, 1, 5, C);
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  EXPECT_TRUE(C.FreeRecords.empty());
  EXPECT_EQ(bytesOf(*S, B, C), (std::array<uint32_t, 4>{4, 4, 4, 5}));
  EXPECT_EQ(bytesOf(*S, A, C), (std::array<uint32_t, 4>{3, 3, 3, 3}));
  // Never-written bytes of a reused record stay without origin.
  S->assign(A, 4, 6, C);
  S->assign(B, 4, 7, C);
  EXPECT_EQ(C.FreeRecords.size(), 1u);
  const uintptr_t Fresh = Base + 8192;
  S->assign(Fresh + 2, 2, 8, C); // a half word into never-written memory: no record yet
  EXPECT_EQ(C.FreeRecords.size(), 1u);
  S->assign(Fresh, 1, 9, C); // a second origin: a record
  EXPECT_TRUE(C.FreeRecords.empty());
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  constexpr uint32_t None = sleuth::rt::NoNode;
  EXPECT_EQ(bytesOf(*S, Fresh, C), (std::array<uint32_t, 4>{9, None, 8, 8}));
}

TEST(ShadowMemoryTest, OneWriteIntoNeverWrittenMemoryTakesNoRecord) {
  // A parser storing a '\0' after each token of a buffer that read() filled: each word has one
  // origin for some bytes and none for the others, which its entry holds.
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr uint32_t None = sleuth::rt::NoNode;
  for (uintptr_t I = 3; I < 40000; I += 7)
    S->assign(Base + I, 1, 5, C);
  S->assign(Base + 40000, 2, 6, C);
  EXPECT_EQ(S->splitRecordsAllocated(), 0u);
  EXPECT_EQ(bytesOf(*S, Base, C), (std::array<uint32_t, 4>{None, None, None, 5}));
  EXPECT_EQ(bytesOf(*S, Base + 8, C), (std::array<uint32_t, 4>{None, None, 5, None}));
  EXPECT_EQ(origins(*S, Base + 4, 4, C), Origins{});
  EXPECT_EQ(origins(*S, Base + 40000, 4, C), Origins{6});
  // More bytes from the same write, then all of them: still no record.
  S->assign(Base + 1, 1, 5, C);
  EXPECT_EQ(bytesOf(*S, Base, C), (std::array<uint32_t, 4>{None, 5, None, 5}));
  S->assign(Base, 1, 5, C);
  S->assign(Base + 2, 1, 5, C);
  EXPECT_EQ(bytesOf(*S, Base, C), (std::array<uint32_t, 4>{5, 5, 5, 5}));
  EXPECT_EQ(S->splitRecordsAllocated(), 0u);
  // A node too large for the entry's part form takes a record.
  const uint32_t Large = (uint32_t(1) << 26) + 1;
  S->assign(Base + 8000, 1, Large, C);
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  EXPECT_EQ(bytesOf(*S, Base + 8000, C), (std::array<uint32_t, 4>{Large, None, None, None}));
  S->assign(Base + 8000, 4, ShadowMemory::MaxNodes - 1, C); // the largest node, whole
  EXPECT_EQ(origins(*S, Base + 8000, 4, C), Origins{ShadowMemory::MaxNodes - 1});
  EXPECT_EQ(C.FreeRecords.size(), 1u);
}

TEST(ShadowMemoryTest, WordSplitAgainKeepsItsRecordUntilItsEntryCanHoldItsOrigins) {
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  const uintptr_t A = Base + 16;
  S->assign(A, 1, 1, C); // {1, -, -, -}: in the entry
  EXPECT_EQ(S->splitRecordsAllocated(), 0u);
  S->assign(A + 2, 1, 2, C); // a record
  S->assign(A + 3, 1, 3, C); // the same record
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  constexpr uint32_t None = sleuth::rt::NoNode;
  EXPECT_EQ(bytesOf(*S, A, C), (std::array<uint32_t, 4>{1, None, 2, 3}));
  // A string copied char by char: once one write has given every byte, the word is whole.
  for (unsigned I = 0; I < 4; ++I)
    S->assign(A + I, 1, 9, C);
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  EXPECT_EQ(C.FreeRecords.size(), 1u);
  EXPECT_EQ(bytesOf(*S, A, C), (std::array<uint32_t, 4>{9, 9, 9, 9}));
  // An unaligned write across two words: the first splits with the released record, the second
  // (never written) holds its origin in the entry.
  S->assign(A + 2, 4, 10, C);
  EXPECT_EQ(S->splitRecordsAllocated(), 1u);
  EXPECT_TRUE(C.FreeRecords.empty());
  EXPECT_EQ(bytesOf(*S, A, C), (std::array<uint32_t, 4>{9, 9, 10, 10}));
  EXPECT_EQ(origins(*S, A, 8, C), (Origins{9, 10}));
  EXPECT_EQ(bytesOf(*S, A + 4, C), (std::array<uint32_t, 4>{10, 10, None, None}));
}

TEST(ShadowMemoryTest, ThreadsSplittingAndWritingDistinctWordsKeepExactOriginsAndRecords) {
  // Threads own interleaved words of the same leaves and share the record pool; each writes its
  // words whole or in parts at random. Afterwards every byte has the origin of its last write,
  // and every record taken from the pool is either in a word with bytes from two writes or on a
  // free list (none lost, none released twice). Also run under ThreadSanitizer
  // (runtime.shadow.tsan).
  constexpr unsigned Threads = 4, WordsPerThread = 3000, Rounds = 40000;
  auto S = std::make_unique<ShadowMemory>();
  std::vector<Cache> Caches(Threads);
  std::vector<std::vector<std::array<uint32_t, 4>>> Expected(
      Threads, std::vector<std::array<uint32_t, 4>>(WordsPerThread, {0, 0, 0, 0}));
  auto Address = [](unsigned T, unsigned W) { return Base + (uintptr_t(W) * Threads + T) * 4; };
  auto Worker = [&](unsigned T) {
    std::mt19937 Random(T);
    for (unsigned R = 0; R < Rounds; ++R) {
      unsigned W = Random() % WordsPerThread;
      uint32_t Node = Random() % 7;
      unsigned First = Random() % 4, Size = 1 + Random() % (4 - First);
      if (Random() % 3 == 0)
        First = 0, Size = 4;
      S->assign(Address(T, W) + First, Size, Node, Caches[T]);
      for (unsigned I = First; I < First + Size; ++I)
        Expected[T][W][I] = Node + 1;
    }
  };
  std::vector<std::thread> Running;
  for (unsigned T = 0; T < Threads; ++T)
    Running.emplace_back(Worker, T);
  for (std::thread &T : Running)
    T.join();
  size_t SplitWords = 0, Free = 0;
  std::set<uint32_t> FreeRecords;
  for (unsigned T = 0; T < Threads; ++T) {
    Free += Caches[T].FreeRecords.size();
    FreeRecords.insert(Caches[T].FreeRecords.begin(), Caches[T].FreeRecords.end());
    for (unsigned W = 0; W < WordsPerThread; ++W) {
      const std::array<uint32_t, 4> &E = Expected[T][W];
      std::array<uint32_t, 4> Want;
      for (unsigned I = 0; I < 4; ++I)
        Want[I] = E[I] == 0 ? sleuth::rt::NoNode : E[I] - 1;
      ASSERT_EQ(bytesOf(*S, Address(T, W), Caches[0]), Want) << "thread " << T << " word " << W;
      std::set<uint32_t> Writes(E.begin(), E.end());
      Writes.erase(0);
      SplitWords += Writes.size() > 1;
    }
  }
  EXPECT_EQ(FreeRecords.size(), Free) << "a record released twice";
  EXPECT_EQ(S->splitRecordsAllocated(), SplitWords + Free);
  EXPECT_GT(SplitWords, 0u);
}

} // namespace

TEST(ShadowMemoryTest, CopyCarriesEachBytesOriginEvenWhenTheRangesOverlap) {
  // memcpy/memmove (sleuth_copy_origins): byte i of a 3000-byte range has node 1 + i % 7, so
  // every word is split; copies by one byte up (memmove's backward case, across its 1 KiB
  // chunks) and back down must give every byte its source byte's origin.
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr uintptr_t From = Base + (1u << 20);
  constexpr size_t Size = 3000;
  auto Node = [](size_t I) { return uint32_t(1 + I % 7); };
  for (size_t I = 0; I < Size; ++I)
    S->assign(From + I, 1, Node(I), C);
  S->copy(From + 1, From, Size, C);
  EXPECT_EQ(S->originAt(From, C), Node(0) + 1); // not written by the copy
  for (size_t I = 0; I < Size; ++I)
    ASSERT_EQ(S->originAt(From + 1 + I, C), Node(I) + 1) << "byte " << I << " after the move up";
  S->copy(From, From + 1, Size, C);
  for (size_t I = 0; I < Size; ++I)
    ASSERT_EQ(S->originAt(From + I, C), Node(I) + 1) << "byte " << I << " after the move down";
  // Bytes without an origin copied over bytes with one leave them without.
  constexpr uintptr_t Fresh = Base + (2u << 20);
  S->copy(From + 5, Fresh, 6, C);
  EXPECT_EQ(bytesOf(*S, From + 4, C),
            (std::array<uint32_t, 4>{Node(4), sleuth::rt::NoNode, sleuth::rt::NoNode,
                                     sleuth::rt::NoNode}));
  EXPECT_EQ(bytesOf(*S, From + 8, C),
            (std::array<uint32_t, 4>{sleuth::rt::NoNode, sleuth::rt::NoNode, sleuth::rt::NoNode,
                                     Node(11)}));
}

TEST(ShadowMemoryTest, MisalignedCopyWritesEachWordOfMixedBytesAtOnce) {
  // A copy between ranges at different offsets in their words takes a whole destination word
  // of mixed origins at once: into its record if it has one, into its entry if one origin and
  // none fit there (no record taken), else into a fresh record. Every byte ends with its
  // source byte's origin, over destinations that held whole words, parts and records.
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr uintptr_t From = Base + (7u << 20), To = Base + (8u << 20) + 3;
  constexpr size_t Size = 2048;
  // Source: blocks of 16 bytes, in turn mixed origins, one origin and none, and one origin.
  auto Node = [](size_t I) -> uint32_t {
    switch (I / 16 % 3) {
    case 0:
      return 1 + I % 5;
    case 1:
      return I % 16 < 6 ? 9 : sleuth::rt::NoNode;
    default:
      return 20;
    }
  };
  for (size_t I = 0; I < Size; ++I)
    if (Node(I) != sleuth::rt::NoNode)
      S->assign(From + I, 1, Node(I), C);
  auto Check = [&](const char *When) {
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(S->originAt(To + I, C), Node(I) == sleuth::rt::NoNode ? 0 : Node(I) + 1)
          << "byte " << I << " " << When;
  };
  S->assign(To - 3, Size + 8, /*Node=*/30, C); // whole words before
  S->copy(To, From, Size, C);
  Check("over whole words");
  size_t Records = S->splitRecordsAllocated();
  S->copy(To, From, Size, C); // again: the words that took records write into them
  Check("over its own copy");
  EXPECT_EQ(S->splitRecordsAllocated(), Records);
  EXPECT_EQ(S->originAt(To - 1, C), 31u); // the bytes around it keep theirs
  EXPECT_EQ(S->originAt(To + Size, C), 31u);
  // A destination word that held a part of one origin and none takes no record for another.
  constexpr uintptr_t Lone = Base + (9u << 20);
  constexpr uint32_t No = sleuth::rt::NoNode;
  S->assign(Lone + 4, 1, /*Node=*/9, C); // word at Lone + 4: a part
  S->copy(Lone + 5, From + 16 + 4, 3, C); // from the 'one origin and none' block: 9, 9, none
  S->copy(Lone + 3, From + 16 + 5, 3, C); // 9 (into the word before), none, none
  EXPECT_EQ(bytesOf(*S, Lone + 4, C), (std::array<uint32_t, 4>{No, No, 9, No}));
  S->copy(Lone + 4, From + 16 + 4, 4, C); // the whole word at once: 9, 9, none, none
  EXPECT_EQ(bytesOf(*S, Lone + 4, C), (std::array<uint32_t, 4>{9, 9, No, No}));
  EXPECT_EQ(S->splitRecordsAllocated(), Records);
}

TEST(ShadowMemoryTest, ClearLeavesNoOriginAndMakesNoLeafForMemoryWithout) {
  // memset (sleuth_clear_origins) on memory that has shadow entries clears them; on 64 MiB that
  // has none it makes no leaf, so a program clearing large buffers pays nothing for them.
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr uintptr_t Written = Base + (3u << 20), Untouched = Base + (uintptr_t(1) << 30);
  S->assign(Written, 64, /*Node=*/5, C);
  S->assign(Written + 70, 1, /*Node=*/6, C); // a part of a word
  S->clear(Written + 8, 64, C);
  EXPECT_EQ(origins(*S, Written, 8, C), Origins{5});
  EXPECT_EQ(origins(*S, Written + 8, 64, C), Origins{});
  EXPECT_EQ(origins(*S, Written + 72, 4, C), Origins{});
  size_t Before = residentBytes();
  S->clear(Untouched, size_t(64) << 20, C);
  EXPECT_LT(residentBytes() - Before, size_t(1) << 20);
  EXPECT_EQ(origins(*S, Untouched, 4096, C), Origins{});
}

TEST(ShadowMemoryTest, AlignedCopyMovesWholeEntriesAndSplitWordsByteForByte) {
  // Ranges at the same offset in their words copy entries whole (a byte mask included) and
  // split words byte by byte; moves up and down by whole words overlap their chunks.
  auto S = std::make_unique<ShadowMemory>();
  Cache C;
  constexpr uintptr_t From = Base + (5u << 20) + 2; // two bytes into a word: a head and a tail
  constexpr size_t Size = 5000;
  auto Node = [](size_t I) -> uint32_t {
    if (I % 64 < 8)
      return 1 + I % 3; // split words: three origins among their bytes
    return 100 + I / 256;
  };
  for (size_t I = 0; I < Size; ++I)
    if (I % 64 != 40 && I % 64 != 41) // a part of a word never written: a byte mask
      S->assign(From + I, 1, Node(I), C);
  auto Expected = [&](size_t I) {
    return I % 64 == 40 || I % 64 == 41 ? uint32_t(0) : Node(I) + 1;
  };
  for (long Shift : {4L, 4096L, -8L, -4100L}) {
    uintptr_t To = From + Shift;
    S->copy(To, From, Size, C);
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(S->originAt(To + I, C), Expected(I)) << "byte " << I << " moved by " << Shift;
    S->copy(From, To, Size, C); // back: the source as it was
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(S->originAt(From + I, C), Expected(I)) << "byte " << I << " back from " << Shift;
  }
  // A source without a leaf clears the destination and makes no leaf of its own.
  constexpr uintptr_t Nowhere = Base + (uintptr_t(3) << 30);
  S->copy(From, Nowhere, 64, C);
  EXPECT_EQ(origins(*S, From, 64, C), Origins{});
  EXPECT_EQ(S->originAt(From + 64, C), Expected(64));
}

TEST(ShadowMemoryTest, ForgetClearsAFreedBlockAndGivesALargeOnesShadowPagesBack) {
  // free (heap_hooks.cpp): a freed block's bytes have no origin, the bytes around it keep
  // theirs; its split records serve the next splits; a large block's shadow pages go back to
  // the kernel, a small block's stay (the allocator reuses its addresses).
  auto S = std::make_unique<ShadowMemory>();
  Cache C, Hooks;
  constexpr uintptr_t Small = Base + (7u << 20), Large = Base + (8u << 20);
  S->assign(Small, 64, /*Node=*/1, C);
  S->assign(Small + 8, 1, /*Node=*/2, C); // split words inside the block
  S->assign(Small + 21, 1, /*Node=*/3, C);
  size_t Records = S->splitRecordsAllocated();
  ASSERT_EQ(Records, 2u);
  S->forget(Small + 2, 60, Hooks); // partial words at either end
  EXPECT_EQ(origins(*S, Small, 2, C), Origins{1});
  EXPECT_EQ(origins(*S, Small + 2, 60, C), Origins{});
  EXPECT_EQ(origins(*S, Small + 62, 2, C), Origins{1});
  S->giveBack(Hooks);
  S->assign(Small + 4096, 64, /*Node=*/1, C);
  S->assign(Small + 4096 + 33, 1, /*Node=*/4, C); // two new splits take the records given back
  S->assign(Small + 4096 + 45, 1, /*Node=*/4, C);
  EXPECT_EQ(S->splitRecordsAllocated(), Records);

  constexpr size_t Block = size_t(1) << 20;
  S->assign(Large, Block, /*Node=*/6, C);
  size_t Resident = S->residentLeafBytes();
  ASSERT_GE(Resident, Block);
  S->forget(Large + 16, Block - 32, Hooks);
  // (Before any read: mincore counts a page read after its release, the kernel's zero page.)
  EXPECT_LE(S->residentLeafBytes(), Resident - Block + 2 * 4096);
  EXPECT_EQ(origins(*S, Large + 16, Block - 32, C), Origins{});
  EXPECT_EQ(origins(*S, Large, 16, C), Origins{6});
  EXPECT_EQ(origins(*S, Large + Block - 16, 16, C), Origins{6});
  size_t Before = S->residentLeafBytes();
  S->forget(Small, 64, Hooks); // below ShadowMemory::ReleaseAtLeast: cleared in place
  EXPECT_EQ(S->residentLeafBytes(), Before);
  EXPECT_EQ(origins(*S, Small, 64, C), Origins{});
}
