// The limits glslang checks GL shaders of every stage against (TBuiltInResource): glslang's defaults with GL's
// binding counts and the atomic-counter limits Bismuth reports (GlBindingMap, GlAtomicCounterLimits), so that the
// compute front and the graphics stages compile against one set of numbers, the ones glGet* reports.
#pragma once

#include <glslang/Include/ResourceLimits.h>

namespace bismuth::translator {

const TBuiltInResource* gl_resource_limits();

}  // namespace bismuth::translator
