#include "source_edits.hpp"

#include <algorithm>

namespace bismuth::translator {

void apply_source_edits(std::string& source, std::vector<SourceEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const SourceEdit& a, const SourceEdit& b) { return a.offset > b.offset; });
  for (const SourceEdit& e : edits) source.replace(e.offset, e.length, e.text);
}

void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
}

}  // namespace bismuth::translator
