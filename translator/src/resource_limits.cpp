#include "resource_limits.hpp"

#include <glslang/Public/ResourceLimits.h>

#include "bismuth/translator/gl_program.hpp"

namespace bismuth::translator {

const TBuiltInResource* gl_resource_limits() {
  static const TBuiltInResource limits = [] {
    TBuiltInResource r = *GetDefaultResources();
    using A = GlAtomicCounterLimits;
    r.maxAtomicCounterBindings = GlBindingMap::kMaxAtomicCounterBufferBindings;
    r.maxAtomicCounterBufferSize = 1 << 16;
    r.maxCombinedAtomicCounters = A::kCombinedCounters;
    r.maxCombinedAtomicCounterBuffers = A::kCombinedBuffers;
    for (int* counters :
         {&r.maxVertexAtomicCounters, &r.maxTessControlAtomicCounters, &r.maxTessEvaluationAtomicCounters,
          &r.maxGeometryAtomicCounters, &r.maxFragmentAtomicCounters, &r.maxComputeAtomicCounters}) {
      *counters = A::kPerStageCounters;
    }
    for (int* buffers : {&r.maxVertexAtomicCounterBuffers, &r.maxTessControlAtomicCounterBuffers,
                         &r.maxTessEvaluationAtomicCounterBuffers, &r.maxGeometryAtomicCounterBuffers,
                         &r.maxFragmentAtomicCounterBuffers, &r.maxComputeAtomicCounterBuffers}) {
      *buffers = A::kPerStageBuffers;
    }
    r.maxCombinedShaderOutputResources = GlBindingMap::kMaxShaderStorageBufferBindings;
    return r;
  }();
  return &limits;
}

}  // namespace bismuth::translator
