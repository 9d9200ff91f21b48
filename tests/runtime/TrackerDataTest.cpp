// Tracker scenarios (TrackerSupport.h): the dependence file's records, data dependences through
// memory, and pending reads.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

// --- The file -------------------------------------------------------------

TEST_F(TrackerTest, TheOutputFilesDirectoriesAreCreated) {
  std::string Out = (Dir / "runs" / "today" / "x.deps").string();
  Recording R = record(
      [](Program &P) {
        Unit &U = P.unit();
        unsigned A = U.site(VarSite, "a");
        U.enter(0);
        int a = 1;
        U.decl(A, a);
        leave();
      },
      Out);
  ASSERT_TRUE(R.Graph.has_value());
  EXPECT_EQ(hits(*R.Graph, "a"), 1u);
}

// Version 2 of the format: each file record carries the unit's content hash.
TEST_F(TrackerTest, FileRecordsCarryTheUnitsContentHash) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a");
    U.enter(0);
    int a = 1;
    U.decl(A, a);
    leave();
  });
  ASSERT_TRUE(R.Graph.has_value());
  EXPECT_EQ(R.Text.substr(0, 14), "sleuth-deps 2\n");
  ASSERT_EQ(R.Graph->files().size(), 1u);
  EXPECT_EQ(R.Graph->files()[0].Hash, "0123456789abcdef");
}

// --- Data dependences ------------------------------------------------------

TEST_F(TrackerTest, AssignmentDependsOnTheOriginsOfWhatItReads) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z");
    U.enter(0);
    int x = 1, y = 2;
    U.decl(X, x);
    U.decl(Y, y);
    get(x);
    get(y);
    int z = x + y;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "z"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(G, "x"), Names{});
  EXPECT_EQ(ctrlOf(G, "z"), Names{});
  EXPECT_TRUE(G.status().Running);
}

TEST_F(TrackerTest, WriteThroughPointerIsSeenUnderAnotherName) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Deref = U.site(VarSite, "*p"), W = U.site(VarSite, "w"),
             Elem = U.site(VarSite, "q[1]"), H = U.site(VarSite, "h");
    U.enter(0);
    int v = 0;
    int *p = &v;
    *p = 42;
    U.set(Deref, *p);
    int &r = v; // a reference: yet another name of the same bytes
    get(r);
    int w = r;
    U.set(W, w);
    // Heap memory written under one pointer, read under another.
    int *q = static_cast<int *>(std::malloc(4 * sizeof(int)));
    q[1] = w;
    get(w);
    U.set(Elem, q[1]);
    int *Alias = q + 1;
    get(*Alias);
    int h = *Alias;
    U.set(H, h);
    std::free(q);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"*p"});
  EXPECT_EQ(dataOf(*R.Graph, "q[1]"), Names{"w"});
  EXPECT_EQ(dataOf(*R.Graph, "h"), Names{"q[1]"});
}

TEST_F(TrackerTest, ArrayElementsAndStructFieldsHaveTheirOwnOrigins) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A0 = U.site(VarSite, "a[0]"), A1 = U.site(VarSite, "a[1]"),
             A1Again = U.site(VarSite, "a[1] again"), R0 = U.site(VarSite, "r0"),
             R1 = U.site(VarSite, "r1"), SC = U.site(VarSite, "s.c"), SI = U.site(VarSite, "s.i"),
             SD = U.site(VarSite, "s.d"), RI = U.site(VarSite, "ri"),
             Whole = U.site(VarSite, "copy");
    U.enter(0);
    int a[3] = {};
    U.set(A0, a[0]);
    U.set(A1, a[1]);
    U.set(A1Again, a[1]); // must not touch a[0]'s origin
    get(a[0]);
    int r0 = a[0];
    U.set(R0, r0);
    get(a[1]);
    int r1 = a[1];
    U.set(R1, r1);
    struct S {
      char c;
      int i;
      double d;
    } s{};
    U.set(SC, s.c);
    U.set(SI, s.i);
    U.set(SD, s.d);
    get(s.i);
    int ri = s.i;
    U.set(RI, ri);
    get(s); // a struct copy reads every field (padding has no origin)
    S copy = s;
    U.set(Whole, copy);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "r0"), Names{"a[0]"});
  EXPECT_EQ(dataOf(G, "r1"), Names{"a[1] again"});
  EXPECT_EQ(dataOf(G, "ri"), Names{"s.i"});
  EXPECT_EQ(dataOf(G, "copy"), (Names{"s.c", "s.i", "s.d"}));
}

TEST_F(TrackerTest, BytesKeepTheirOriginsAcrossWholeAndPartialWrites) {
  // The shadow keeps one origin per 4-byte word until a part of a word is written: then per
  // byte, until the whole word is written again.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Fill = U.site(VarSite, "fill"), Second = U.site(VarSite, "second byte"),
             Again = U.site(VarSite, "again"), Third = U.site(VarSite, "third byte"),
             ReadSplit = U.site(VarSite, "read split"), ReadByte0 = U.site(VarSite, "read 0"),
             ReadAgain = U.site(VarSite, "read again"), ReadLater = U.site(VarSite, "read later"),
             Across = U.site(VarSite, "across"), Tail = U.site(VarSite, "tail");
    U.enter(0);
    alignas(8) unsigned char buffer[12] = {};
    U.set(Fill, buffer, 8); // two whole words
    buffer[1] = 1;
    U.set(Second, &buffer[1], 1); // word 0 splits
    int v = 0;
    sleuth_get(buffer, 4);
    U.set(ReadSplit, v);
    sleuth_get(&buffer[0], 1);
    U.set(ReadByte0, v);
    U.set(Again, buffer, 4); // word 0 whole again
    sleuth_get(buffer, 4);
    U.set(ReadAgain, v);
    U.set(Third, &buffer[2], 1); // splits again, from "again"
    sleuth_get(&buffer[1], 2);
    U.set(ReadLater, v);
    sleuth_get(&buffer[3], 3); // unaligned, across words 0 and 1
    U.set(Across, v);
    U.set(Tail, &buffer[6], 6); // half of word 1, all of word 2
    sleuth_get(&buffer[4], 8);
    U.set(Tail, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read split"), (Names{"fill", "second byte"}));
  EXPECT_EQ(dataOf(G, "read 0"), Names{"fill"});
  EXPECT_EQ(dataOf(G, "read again"), Names{"again"});
  EXPECT_EQ(dataOf(G, "read later"), (Names{"again", "third byte"}));
  EXPECT_EQ(dataOf(G, "across"), (Names{"again", "fill"}));
  EXPECT_EQ(dataOf(G, "tail"), (Names{"fill", "tail"}));
}

TEST_F(TrackerTest, BytesWrittenIntoNeverWrittenMemoryKeepTheirOrigins) {
  // Bytes stored into memory no instrumented code wrote before (a buffer filled by memcpy or
  // read): the bytes not written keep no origin, also after a second writer splits the word.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Nul = U.site(VarSite, "nul"), Other = U.site(VarSite, "other"),
             Over = U.site(VarSite, "over"), ReadWord = U.site(VarSite, "read word"),
             ReadMixed = U.site(VarSite, "read mixed"), ReadUntouched = U.site(VarSite, "read 3"),
             ReadOther = U.site(VarSite, "read 2"), ReadOver = U.site(VarSite, "read over"),
             ReadRest = U.site(VarSite, "read rest");
    U.enter(0);
    alignas(8) unsigned char buffer[8] = {};
    U.set(Nul, &buffer[0], 1);
    U.set(Nul, &buffer[1], 1);
    int v = 0;
    sleuth_get(buffer, 4);
    U.set(ReadWord, v);
    U.set(Other, &buffer[2], 1); // a second writer: per byte from now on
    sleuth_get(buffer, 4);
    U.set(ReadMixed, v);
    sleuth_get(&buffer[3], 1);
    U.set(ReadUntouched, v);
    sleuth_get(&buffer[2], 1);
    U.set(ReadOther, v);
    U.set(Nul, &buffer[4], 1);  // word 1: nul's byte 4 ...
    U.set(Over, &buffer[4], 2); // ... overwritten whole by over's bytes 4-5
    sleuth_get(&buffer[4], 1);
    U.set(ReadOver, v);
    sleuth_get(&buffer[6], 2);
    U.set(ReadRest, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read word"), Names{"nul"});
  EXPECT_EQ(dataOf(G, "read mixed"), (Names{"nul", "other"}));
  EXPECT_EQ(dataOf(G, "read 3"), Names{});
  EXPECT_EQ(dataOf(G, "read 2"), Names{"other"});
  EXPECT_EQ(dataOf(G, "read over"), Names{"over"});
  EXPECT_EQ(dataOf(G, "read rest"), Names{});
}

TEST_F(TrackerTest, InlineReadsFindTheOriginsOfWholeWords) {
  // An 8-byte value written as two halves, read whole, by halves and by parts of a half: once
  // the thread has looked up its leaf, such reads run inline (runtime.h), and find the same
  // origins as the runtime; a split word still goes to the runtime.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Low = U.site(VarSite, "low"), High = U.site(VarSite, "high"),
             Byte = U.site(VarSite, "byte"), ReadAll = U.site(VarSite, "read all"),
             ReadLow = U.site(VarSite, "read low"), ReadHigh = U.site(VarSite, "read high part"),
             ReadSplit = U.site(VarSite, "read split");
    U.enter(0);
    alignas(8) static unsigned Halves[2];
    int v = 0;
    U.set(Low, &Halves[0], 4);
    U.set(High, &Halves[1], 4);
    unsigned long Key = reinterpret_cast<unsigned long>(Halves) >> 16;
    require(sleuth_pending_reads.leaf_keys[Key & (SLEUTH_LEAF_WAYS - 1)] == Key,
            "the leaf is published");
    sleuth_get(&Halves[0], 4); // (in the runtime: the thread has no stack of reads yet)
    U.set(ReadLow, v);
    sleuth_get(Halves, 8);
    require(sleuth_pending_reads.top - sleuth_pending_reads.frame == 2, "two origins");
    U.set(ReadAll, v);
    sleuth_get(reinterpret_cast<char *>(&Halves[1]) + 2, 2);
    U.set(ReadHigh, v);
    U.set(Byte, reinterpret_cast<char *>(&Halves[1]) + 3, 1);
    sleuth_get(Halves, 8);
    U.set(ReadSplit, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read all"), (Names{"low", "high"}));
  EXPECT_EQ(dataOf(G, "read low"), Names{"low"});
  EXPECT_EQ(dataOf(G, "read high part"), Names{"high"});
  EXPECT_EQ(dataOf(G, "read split"), (Names{"low", "high", "byte"}));
}

TEST_F(TrackerTest, PartialOverwriteGivesBothOrigins) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Low = U.site(VarSite, "low byte"),
             Whole = U.site(VarSite, "whole"), High = U.site(VarSite, "high");
    U.enter(0);
    unsigned x = 0x01020304;
    U.decl(X, x);
    unsigned char *Bytes = reinterpret_cast<unsigned char *>(&x);
    Bytes[1] = 7;
    U.set(Low, Bytes[1]);
    get(x);
    unsigned whole = x;
    U.set(Whole, whole);
    get(Bytes[3]);
    unsigned char high = Bytes[3];
    U.set(High, high);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "whole"), (Names{"x", "low byte"}));
  EXPECT_EQ(dataOf(*R.Graph, "high"), Names{"x"});
}

// Reads whose origin the instrumenter knew have no probe: their edges are written for the
// nodes that ran, the reading node's or, for a read right after its write, the write's.
TEST_F(TrackerTest, StaticDataEdgesAreWrittenForTheNodesThatShowTheyHeld) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c"),
             D = U.site(VarSite, "d"), E = U.site(VarSite, "e");
    U.staticData(B, A);       // b ran: written
    U.staticData(C, A);       // c never ran: not written
    U.staticData(D, B, true); // b ran, d did not: written, as the read right after b's write ran
    U.staticData(E, C, true); // c never ran: not written
    U.enter(0);
    int a = 1, b = 2;
    U.decl(A, a);
    U.decl(B, b);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "b"), Names{"a"});
  EXPECT_EQ(dataOf(G, "c"), Names{});
  EXPECT_EQ(dataOf(G, "d"), Names{"b"});
  EXPECT_EQ(dataOf(G, "e"), Names{});
}

TEST_F(TrackerTest, CompoundWriteDependsOnTheOldValue) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"),
             PlusEq = U.site(VarSite, "x += y", 0, {}, SLEUTH_FLAG_COMPOUND),
             Plain = U.site(VarSite, "x = y"), Z = U.site(VarSite, "z");
    U.enter(0);
    int x = 1, y = 2;
    U.decl(X, x);
    U.decl(Y, y);
    get(y);
    x += y;
    U.set(PlusEq, x);
    get(y);
    x = y; // not compound: the old value is overwritten, not read
    U.set(Plain, x);
    get(x);
    int z = x;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "x += y"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(*R.Graph, "x = y"), Names{"y"});
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{"x = y"});
}

TEST_F(TrackerTest, CompoundMemoryWriteDependsOnEachNewOldValue) {
  // x = a; x += 1; x += 1; x = b; x += 1; x += 1; ... and the same on a 64-bit l whose halves
  // came from l low and l high: the compound site reads the old value through the shadow. The
  // inline path finds the old value's origin among the latest data origins of the node's state
  // (whose edges are recorded), and goes to the runtime for any other, also once the site's
  // control is long known.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b");
    unsigned Inc = U.site(VarSite, "x += 1", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned LowA = U.site(VarSite, "l low"), HighB = U.site(VarSite, "l high");
    unsigned LInc = U.site(VarSite, "l += 1", 0, {}, SLEUTH_FLAG_COMPOUND);
    U.enter(0);
    alignas(8) int x = 0;
    // The two latest data origins of Site's state, which the inline path looks at.
    auto Latest = [&](unsigned Site, unsigned First, unsigned Second) {
      return U.state(Site).data[0] == First && U.state(Site).data[1] == Second;
    };
    U.set(A, x);
    U.set(Inc, x); // old value from a
    require(Latest(Inc, U.origin(A), 0), "a's edge recorded");
    U.set(Inc, x); // old value from x += 1 itself
    require(Latest(Inc, U.origin(Inc), U.origin(A)), "its own edge recorded");
    for (unsigned K = 0; K < 10; ++K) {
      require(quiet(U, Inc), "inline: no reads, no control");
      U.set(Inc, x);
    }
    U.set(B, x);
    U.set(Inc, x); // old value from b: to the runtime, though its control is known
    require(Latest(Inc, U.origin(B), U.origin(Inc)), "b's edge recorded");
    U.set(Inc, x);
    alignas(8) long l = 0;
    int *Halves = reinterpret_cast<int *>(&l);
    U.set(LowA, Halves[0]);
    U.set(HighB, Halves[1]);
    U.set(LInc, l); // two old origins at once
    require(Latest(LInc, U.origin(HighB), U.origin(LowA)) ||
                Latest(LInc, U.origin(LowA), U.origin(HighB)),
            "both halves' origins");
    U.set(LInc, l);
    U.set(LInc, l);
    U.set(LowA, Halves[0]); // from l low again: an edge known, but not among the latest
    U.set(LInc, l);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "x += 1"), (Names{"a", "x += 1", "b"}));
  EXPECT_EQ(hits(G, "x += 1"), 14u);
  EXPECT_EQ(dataOf(G, "l += 1"), (Names{"l low", "l high", "l += 1"}));
  EXPECT_EQ(hits(G, "l += 1"), 4u);
}

TEST_F(TrackerTest, SetNowRecordsTheWriteBeforeTheStore) {
  // z = x++: the instrumenter records the increment before the store, while
  // the shadow still holds x's old origin; z reads the value of `x++`.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Inc = U.site(VarSite, "x++", 0, {}, SLEUTH_FLAG_COMPOUND),
             Z = U.site(VarSite, "z"), W = U.site(VarSite, "w");
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    int *Target = static_cast<int *>(U.setnow(Inc, &x, sizeof x));
    require(Target == &x, "sleuth_setnow returns its address");
    int z = (*Target)++;
    U.set(Z, z);
    get(x);
    int w = x;
    U.set(W, w);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "x++"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{"x++"});
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"x++"});
}

TEST_F(TrackerTest, SetpAndCommitCompleteTheInnermostWriteAfterTheStore) {
  // a[i] = (b[j] = y): two writes with side-effecting lvalues, the inner one
  // completed first.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Y = U.site(VarSite, "y"), A = U.site(VarSite, "a[i]"), B = U.site(VarSite, "b[j]"),
             RA = U.site(VarSite, "ra");
    U.enter(0);
    int y = 5, a[2] = {}, b[2] = {};
    U.decl(Y, y);
    int *PA = static_cast<int *>(U.setp(A, &a[1], sizeof(int)));
    int *PB = static_cast<int *>(U.setp(B, &b[0], sizeof(int)));
    require(PA == &a[1] && PB == &b[0], "sleuth_setp returns its address");
    get(y);
    *PB = y;
    require(sleuth_commit() == &b[0], "commit completes the inner write");
    get(b[0]);
    *PA = b[0];
    require(sleuth_commit() == &a[1], "then the outer write");
    require(sleuth_commit() == nullptr, "nothing left to commit");
    get(a[1]);
    int ra = a[1];
    U.set(RA, ra);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "b[j]"), Names{"y"});
  EXPECT_EQ(dataOf(*R.Graph, "a[i]"), Names{"b[j]"});
  EXPECT_EQ(dataOf(*R.Graph, "ra"), Names{"a[i]"});
}

TEST_F(TrackerTest, IncrementInsideAnExpressionKeepsTheExpressionsReads) {
  // y = a + i++;  g(n, i++);  the increment reads only i's old value; a and n
  // are read by the enclosing assignment and by g's first parameter.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned A = U.site(VarSite, "a"), N = U.site(VarSite, "n"), I = U.site(VarSite, "i");
    unsigned Inc1 = U.site(VarSite, "i++ (1)", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>");
    unsigned Inc2 = U.site(VarSite, "i++ (2)", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned Pa = U.site(ParamSite, "pa", G), Pb = U.site(ParamSite, "pb", G);
    U.enter(0);
    int a = 1, n = 2, i = 0;
    U.decl(A, a);
    U.decl(N, n);
    U.decl(I, i);
    get(a);
    int y = a + (*static_cast<int *>(U.setnow(Inc1, &i, sizeof i)))++;
    U.set(Y, y);
    U.call(C, 6);
    U.arg(C, 1);
    get(n);
    U.arg(C, 2);
    int b = (*static_cast<int *>(U.setnow(Inc2, &i, sizeof i)))++;
    U.enter(G, 6);
    int pa = n, pb = b;
    U.param(Pa, pa, 1);
    U.param(Pb, pb, 2);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "i++ (1)"), Names{"i"});
  EXPECT_EQ(dataOf(G, "y"), (Names{"a", "i++ (1)"}));
  EXPECT_EQ(dataOf(G, "i++ (2)"), Names{"i++ (1)"});
  EXPECT_EQ(dataOf(G, "pa"), Names{"n"});
  EXPECT_EQ(dataOf(G, "pb"), Names{"i++ (2)"});
}

TEST_F(TrackerTest, WriteInsideAnArgumentDoesNotInventReads) {
  // z = a + b + g(y, c = 2): the write of c consumes the reads pending before
  // it, so the call's argument marks point past the reads that are left. The
  // runtime must neither read past them nor invent reads of node 0.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Zero = U.site(VarSite, "site zero");
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), Y = U.site(VarSite, "y"),
             C = U.site(VarSite, "c");
    unsigned Cg = U.site(CallSite, "<call g>");
    unsigned P1 = U.site(ParamSite, "p1", G), P2 = U.site(ParamSite, "p2", G);
    unsigned Rv = U.site(RetSite, "<g() return value>", G);
    unsigned Z = U.site(VarSite, "z");
    U.enter(0);
    int zero = 0, a = 1, b = 2, y = 3, c = 0;
    U.decl(Zero, zero);
    U.decl(A, a);
    U.decl(B, b);
    U.decl(Y, y);
    get(a);
    get(b);
    U.call(Cg, 12);
    U.arg(Cg, 1);
    get(y);
    U.arg(Cg, 2);
    c = 2;
    U.set(C, c);
    get(c); // the assignment's value
    U.enter(G, 12);
    int p1 = y, p2 = c;
    U.param(P1, p1, 1);
    U.param(P2, p2, 2);
    U.ret(Rv);
    int z = a + b + p1;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  for (const char *Name : {"p1", "p2", "z", "<g() return value>"})
    EXPECT_EQ(dataOf(G, Name).count("site zero"), 0u) << Name;
  EXPECT_EQ(dataOf(G, "z").count("<g() return value>"), 1u);
}

// --- Pending reads ---------------------------------------------------------

TEST_F(TrackerTest, PendingReadsAreConsumedByTheNextNode) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z"),
             T = U.site(TestSite, "<test>"), W = U.site(VarSite, "w"),
             D = U.site(VarSite, "after discard");
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    get(x);
    int y = x;
    U.set(Y, y);
    int z = 3; // reads nothing: the read of x was consumed by y
    U.set(Z, z);
    get(z);
    U.test(T, z > 0);
    int w = 4; // the test consumed the read of z
    U.set(W, w);
    get(x);
    get(y);
    sleuth_discard(); // `x + y;` as an expression statement
    int d = 0;
    U.set(D, d);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "y"), Names{"x"});
  EXPECT_EQ(dataOf(G, "z"), Names{});
  EXPECT_EQ(dataOf(G, "<test>"), Names{"z"});
  EXPECT_EQ(dataOf(G, "w"), Names{});
  EXPECT_EQ(dataOf(G, "after discard"), Names{});
}

} // namespace
} // namespace sleuth::tracker_test
