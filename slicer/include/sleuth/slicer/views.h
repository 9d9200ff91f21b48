// Presentations of a slice: annotated source, a dependence listing, Graphviz
// and JSON. Each returns the complete text so callers can write it atomically.
#pragma once

#include "sleuth/slicer/dependences.h"

#include <optional>
#include <string>
#include <vector>

namespace sleuth {

/// The slice's functions as source, lines with slice nodes marked `*` and
/// annotated with `<=` / `<-` (backward) or `=>` / `->` (forward). Sources
/// that cannot be read are reported in Warnings (one line each, no prefix) and
/// shown as annotations only.
std::string codeView(const DependenceGraph &G, const Slice &S,
                     std::vector<std::string> *Warnings = nullptr);

/// One warning (no prefix) per source file of the slice whose text is not the one that ran (its
/// content hash differs from the recorded one): `warning: src/foo.c changed since the run; lines
/// may not match`. Every view shows lines by number, so each is preceded by these.
std::vector<std::string> changedSourceWarnings(const DependenceGraph &G, const Slice &S);

/// One line per slice node with dependences inside the slice, per function.
std::string depsView(const DependenceGraph &G, const Slice &S);

/// A Graphviz digraph; edges go from origin to dependent.
std::string dotView(const DependenceGraph &G, const Slice &S);

/// dotView() laid out by Graphviz's `dot -Tsvg`. On failure returns nullopt
/// and sets Error to one line.
std::optional<std::string> svgView(const DependenceGraph &G, const Slice &S, std::string &Error);

/// `{"version":1,"criterion":...,"direction":...,"nodes":[...],"edges":[...]}`
std::string jsonView(const DependenceGraph &G, const Slice &S);

} // namespace sleuth
