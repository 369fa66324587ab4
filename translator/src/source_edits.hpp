// What every token-level rewrite of the fronts (version_rewrite, variable_group_size_rewrite, num_waves_rewrite,
// hlsl_num_waves_rewrite) does the same way: replace token ranges of the user's source without moving the others,
// and report diagnostics in source order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace bismuth::translator {

// `length` characters at `offset` of the original source become `text`.
struct SourceEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
};

// Applies non-overlapping edits given in any order: back to front, so each offset still means the original's.
void apply_source_edits(std::string& source, std::vector<SourceEdit> edits);

// By line, then column; diagnostics at one position keep their order.
void sort_by_position(std::vector<Diagnostic>& diagnostics);

}  // namespace bismuth::translator
