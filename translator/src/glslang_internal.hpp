// glslang's internal classes as Debian's glslang 12.0.0 installs them, for the files that drive its parse directly
// (glslang_cached_parse.cpp, glslang_predefined_macros.cpp, glslang_extension_behavior.cpp). Include it first:
// the define below must precede every glslang header.
//
// Debian's glslang 12.0.0 is built with HLSL; its TIntermediate keeps setSource and the HLSL settings behind
// ENABLE_HLSL (methods only, the members are always there), so these files see them as the library does.
#pragma once

#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif

#include <glslang/Include/ShHandle.h>
#include <glslang/MachineIndependent/ParseHelper.h>
#include <glslang/MachineIndependent/Scan.h>
#include <glslang/MachineIndependent/ScanContext.h>
#include <glslang/MachineIndependent/SymbolTable.h>
#include <glslang/MachineIndependent/localintermediate.h>

namespace glslang {
// libOGLCompiler's per-thread set-up (InitializeDll.h is not installed); TShader::parse calls it first too, and the
// thread's pool allocator comes from it.
bool InitThread();
}  // namespace glslang
