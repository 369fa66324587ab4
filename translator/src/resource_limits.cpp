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
    // The gl_Max* constants of the per-stage limits glGet* reports (GlStageLimits); the ES ones in vectors.
    using S = GlStageLimits;
    for (int* uniforms :
         {&r.maxVertexUniformComponents, &r.maxTessControlUniformComponents, &r.maxTessEvaluationUniformComponents,
          &r.maxGeometryUniformComponents, &r.maxFragmentUniformComponents, &r.maxComputeUniformComponents}) {
      *uniforms = S::kUniformComponents;
    }
    r.maxVertexUniformVectors = r.maxFragmentUniformVectors = S::kUniformComponents / 4;
    r.maxVertexAttribs = S::kVertexAttribs;
    r.maxVertexOutputComponents = S::kVertexOutputComponents;
    r.maxVertexOutputVectors = S::kVertexOutputComponents / 4;
    r.maxVaryingFloats = r.maxVaryingComponents = S::kVaryingComponents;
    r.maxVaryingVectors = S::kVaryingComponents / 4;
    r.maxTessControlInputComponents = S::kTessControlInputComponents;
    r.maxTessControlOutputComponents = S::kTessControlOutputComponents;
    r.maxTessPatchComponents = S::kTessPatchComponents;
    r.maxTessControlTotalOutputComponents = S::kTessControlTotalOutputComponents;
    r.maxTessEvaluationInputComponents = S::kTessEvaluationInputComponents;
    r.maxTessEvaluationOutputComponents = S::kTessEvaluationOutputComponents;
    r.maxGeometryInputComponents = S::kGeometryInputComponents;
    r.maxGeometryOutputComponents = S::kGeometryOutputComponents;
    r.maxGeometryOutputVertices = S::kGeometryOutputVertices;
    r.maxGeometryTotalOutputComponents = S::kGeometryTotalOutputComponents;
    r.maxFragmentInputComponents = S::kFragmentInputComponents;
    r.maxFragmentInputVectors = S::kFragmentInputComponents / 4;
    // xfb_buffer / xfb_stride are checked against these (GLSL 4.60 §4.4.2.1).
    r.maxTransformFeedbackBuffers = GlTransformFeedbackLimits::kBuffers;
    r.maxTransformFeedbackInterleavedComponents = GlTransformFeedbackLimits::kInterleavedComponents;
    // Texture and image units (GlTextureLimits): gl_MaxComputeTextureImageUnits, gl_MaxCombinedTextureImageUnits,
    // gl_MaxImageUnits, gl_MaxComputeImageUniforms, ...; glslang checks `binding` on samplers and images against
    // the combined texture units; the front holds images to the image units (opaque_uniforms.hpp).
    using T = GlTextureLimits;
    for (int* units :
         {&r.maxVertexTextureImageUnits, &r.maxTextureImageUnits, &r.maxComputeTextureImageUnits,
          &r.maxGeometryTextureImageUnits, &r.maxTessControlTextureImageUnits, &r.maxTessEvaluationTextureImageUnits}) {
      *units = T::kComputeTextureImageUnits;
    }
    r.maxCombinedTextureImageUnits = T::kCombinedTextureImageUnits;
    r.maxImageUnits = T::kImageUnits;
    r.maxCombinedImageUnitsAndFragmentOutputs = T::kImageUnits;
    for (int* images : {&r.maxVertexImageUniforms, &r.maxTessControlImageUniforms, &r.maxTessEvaluationImageUniforms,
                        &r.maxGeometryImageUniforms, &r.maxFragmentImageUniforms, &r.maxComputeImageUniforms}) {
      *images = T::kComputeImageUniforms;
    }
    r.maxCombinedImageUniforms = T::kCombinedImageUniforms;
    r.maxImageSamples = 0;
    return r;
  }();
  return &limits;
}

}  // namespace bismuth::translator
