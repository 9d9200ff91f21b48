// Perturbed runs for the soundness oracle (tests/soundness): SLEUTH_PERTURB=NODE:OCCURRENCE:MODE
// changes the bytes that the OCCURRENCE-th execution of write node NODE (its id in the
// dependence file) stored, and SLEUTH_PERTURB=none only traces; either way the run's path (the
// sequence of its nodes, of its tests' outcomes and of the addresses its writes went to) is
// fingerprinted, and both go to the file $SLEUTH_PERTURB_REPORT at exit. A statement outside a
// criterion's slice cannot influence the criterion: if such a perturbation leaves the path as it
// was and still changes the criterion, the slice missed a dependence.
//
// Only the runtime's slow paths see writes and nodes, so while a run is perturbed the inline
// probes are told that the thread has a count for no node (ThreadState::hit publishes 0): every
// node takes the slow path. Without SLEUTH_PERTURB the inline probes are as they were, and the
// slow paths pay one predictable branch on a global.
#pragma once

#include <cstddef>

namespace sleuth::rt {

struct Registry;

namespace perturb {
/// Set at start-up when SLEUTH_PERTURB is (read only afterwards).
extern bool Active;
inline bool active() { return __builtin_expect(Active, false); }

/// Starts perturbing (or tracing) as SLEUTH_PERTURB=Spec asks, with the report written to
/// ReportPath (null: none); false if Spec is malformed. Read from the environment at start-up,
/// before any unit registers; the runtime's tests call it in a fresh process.
bool configure(const char *Spec, const char *ReportPath);
/// Registration gave runtime nodes [FirstNode, FirstNode + Count) their ids in the dependence
/// file (R.FileIds, under R.Mutex): finds the target node among them.
void unitRegistered(const Registry &R, unsigned FirstNode, unsigned Count);
/// Runtime node Node is being made (makeNode): a perturbation waiting for its store (below) is
/// applied first, then the node and the outcome of a test (-1: not a test) join the path.
void nodeMade(unsigned Node);
void testOutcome(int Outcome);
/// Node Node wrote [Addr, Addr + Size). StoreDone is false for a probe that runs before the
/// store it records (++/-- whose old value is used): the perturbation then waits for the next
/// node, which the store precedes.
void wrote(unsigned Node, const volatile void *Addr, unsigned long Size, bool StoreDone);
/// Writes $SLEUTH_PERTURB_REPORT (with the dependence file, at exit or on a fatal signal).
void writeReport();
} // namespace perturb
} // namespace sleuth::rt
