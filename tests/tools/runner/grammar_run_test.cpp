// The shader_runner grammar end to end (`bismuth run` with BISMUTH_VALIDATION=1): the conformance files of
// tests/conformance/runner_grammar, and the failure paths of the new forms in small files written here.
#include <catch2/catch.hpp>

#include "runner_test_support.hpp"

using namespace bismuth::runnertest;

namespace {

const std::string kHead =
    "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { float f; vec3 v[2]; };\n"
    "void main() { f = 1.0 / 3.0; v[0] = vec3(1.0, 2.0, 3.0); }\n\n[test]\nssbo 0 64\n";

}  // namespace

TEST_CASE("tests/conformance/runner_grammar: every form runs, or skips naming what the context lacks", "[vulkan]") {
  const auto r = run_json({(source_dir() / "tests/conformance/runner_grammar").string()});
  for (const char* name :
       {"text_before_first_section", "compute_indirect", "probe_types_tolerance", "uniform_by_location",
        "spirv_specializations", "verify_program_query", "program_interface_query"}) {
    INFO(name << ": " << message(r, name));
    CHECK(status(r, name) == "Pass");
  }
  // Pass where the context has the feature, otherwise Skip naming the missing piece.
  const std::string subgroup = status(r, "subgroup_size_limit");
  if (subgroup == "Skip") {
    CHECK_THAT(message(r, "subgroup_size_limit"),
               Catch::Contains("GL_KHR_shader_subgroup") || Catch::Contains("GL_SUBGROUP_SIZE_KHR"));
  } else {
    CHECK(subgroup == "Pass");
  }
  const std::string es = status(r, "gles31_compute");
  if (es == "Skip") {
    CHECK_THAT(message(r, "gles31_compute"), Catch::Contains("an OpenGL ES 3.1 context: egl"));
  } else {
    CHECK(es == "Pass");
  }
  const std::string active = status(r, "active_uniform_query");
  if (active == "Skip") {
    CHECK_THAT(message(r, "active_uniform_query"),
               Catch::Contains("needs glGetActiveUniform and glGetActiveUniformsiv"));
  } else {
    CHECK(active == "Pass");
  }
  CHECK(status(r, "link_vertex_fragment") == "Skip");
  CHECK_THAT(message(r, "link_vertex_fragment"), Catch::Contains("glCreateShader(GL_VERTEX_SHADER) returned 0") ||
                                                     Catch::Contains("\"draw rect -1 -1 2 2\" at "));
  CHECK(status(r, "missing_limit_enum") == "Skip");
  CHECK_THAT(message(r, "missing_limit_enum"),
             Catch::Contains("GL_MAX_VIEWPORTS") || Catch::Contains("GL_NOT_A_REAL_LIMIT is not a GL enum"));
}

TEST_CASE("Failure paths of the new forms: fuzzy probes, skips after failures, unknown enums, indirect buffers",
          "[vulkan]") {
  TempDir dir;
  // 1/3 is 0.333333343 in float: off by 1e-8 from 0.33333333, by 3e-4 from 0.3333.
  dir.write("fuzzy_fails.shader_test", kHead + "compute 1 1 1\ntolerance 1e-6\nprobe ssbo float 0 0 ~= 0.3333\n");
  dir.write("fuzzy_relative.shader_test",
            kHead +
                "compute 1 1 1\ntolerance 0.1%\nprobe ssbo float 0 0 ~= 0.3333\ntolerance 0.01%\n"
                "probe ssbo float 0 0 ~= 0.3333\n");
  // vec3 v[2] starts at byte 16 (std430: vec3 aligns to 16); the padding word after v[0] is left alone.
  dir.write("vec3_layout.shader_test", kHead +
                                           "ssbo 0 subdata uint 28 77\ncompute 1 1 1\nprobe ssbo vec3 0 16 == 1 2 3\n"
                                           "probe ssbo uint 0 28 == 77\n");
  dir.write("fail_then_draw.shader_test", kHead + "compute 1 1 1\nprobe ssbo float 0 0 == 5\ndraw rect -1 -1 2 2\n");
  dir.write("draw_after_pass.shader_test", kHead + "compute 1 1 1\nprobe ssbo float 0 0 ~= 0.33333\nclear\n");
  dir.write("no_such_enum.shader_test",
            "[require]\nGL >= 4.3\nGL_NOT_A_REAL_LIMIT >= 1\n[compute shader]\n#version 430\n"
            "layout(local_size_x = 1) in;\nvoid main() {}\n");
  dir.write("indirect_without_buffer.shader_test", kHead + "compute indirect 3 0\n");
  // No device has 4096-lane subgroups (Vulkan: subgroupSize is at most 128): Skip, saying what the context has or
  // that it does not answer the query.
  dir.write("subgroup_too_large.shader_test",
            "[require]\nGL >= 4.3\nGL_SUBGROUP_SIZE_KHR >= 4096\n[compute shader]\n#version 430\n"
            "layout(local_size_x = 1) in;\nvoid main() {}\n");
  dir.write("ignore_missing.shader_test",
            "[require]\nGL >= 4.3\nignore_missing_uniforms\n[compute shader]\n#version 430\n"
            "layout(local_size_x = 1) in;\nvoid main() {}\n[test]\nuniform int nowhere 1\ncompute 1 1 1\n");
  dir.write("missing_uniform.shader_test",
            "[require]\nGL >= 4.3\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n"
            "[test]\nuniform int nowhere 1\n");
  // No #version: "#version 430" is prepended, so the error on the section's second line is still reported at
  // its line of the file (line 7).
  dir.write("inserted_version_error.shader_test",
            "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\nlayout(local_size_x = 1) in;\n"
            "void main() { undeclared_thing = 1; }\n");
  dir.write("query_mismatch.shader_test",
            "[require]\nGL >= 4.3\n[compute shader]\n#version 430\nlayout(local_size_x = 8) in;\nvoid main() {}\n"
            "[test]\nverify program_query GL_COMPUTE_WORK_GROUP_SIZE 8 1 1\n"
            "verify program_query GL_COMPUTE_WORK_GROUP_SIZE 4 1 1\n");
  dir.write("query_bad_enum.shader_test",
            "[require]\nGL >= 4.3\n[compute shader]\n#version 430\nlayout(local_size_x = 8) in;\nvoid main() {}\n"
            "[test]\nverify program_query GL_NO_SUCH_PNAME 1\n");
  const std::string interface_head =
      "[require]\nGL >= 4.3\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 3) buffer Data { uint v[]; };\nvoid main() { v[0] = 1u; }\n[test]\n";
  dir.write("interface_wrong_binding.shader_test",
            interface_head + "verify program_interface_query GL_SHADER_STORAGE_BLOCK Data GL_BUFFER_BINDING 4\n");
  dir.write(
      "interface_no_resource.shader_test",
      interface_head + "verify program_interface_query resourceByData GL_SHADER_STORAGE_BLOCK (5) GL_NAME_LENGTH 5\n");
  dir.write("interface_wrong_name.shader_test",
            interface_head + "verify program_interface_query resourceName GL_SHADER_STORAGE_BLOCK (3) 4 Date\n");
  const auto r = run_json({dir.path().string()});
  CHECK(status(r, "interface_wrong_binding") == "Fail");
  CHECK_THAT(message(r, "interface_wrong_binding"),
             Catch::Contains("interface_wrong_binding.shader_test:9: glGetProgramResourceiv(GL_SHADER_STORAGE_BLOCK, "
                             "Data, GL_BUFFER_BINDING): expected 4, got 3"));
  CHECK(status(r, "interface_no_resource") == "Fail");
  CHECK_THAT(message(r, "interface_no_resource"), Catch::Contains("GL_SHADER_STORAGE_BLOCK (5): no active resource"));
  CHECK(status(r, "interface_wrong_name") == "Fail");
  CHECK_THAT(message(r, "interface_wrong_name"),
             Catch::Contains("expected length 4 and name \"Date\", got length 4 and name \"Data\""));
  CHECK(status(r, "query_mismatch") == "Fail");
  CHECK_THAT(
      message(r, "query_mismatch"),
      Catch::Contains("query_mismatch.shader_test:9: glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE): expected 4 1 1, "
                      "got 8 1 1"));
  CHECK(status(r, "query_bad_enum") == "Fail");
  CHECK_THAT(message(r, "query_bad_enum"),
             Catch::Contains("query_bad_enum.shader_test:8: GL_NO_SUCH_PNAME is not a GL enum"));
  CHECK(status(r, "fuzzy_fails") == "Fail");
  CHECK_THAT(message(r, "fuzzy_fails"),
             Catch::Contains("fuzzy_fails.shader_test:15: probe failed at byte offset 0: expected float ~= 0.3333 "
                             "(tolerance 1e-06), observed 0.333333343"));
  CHECK(status(r, "fuzzy_relative") == "Fail");
  CHECK_THAT(message(r, "fuzzy_relative"),
             Catch::Contains("fuzzy_relative.shader_test:17:") && Catch::Contains("(tolerance 0.01%)"));
  CHECK(status(r, "vec3_layout") == "Pass");
  CHECK(status(r, "fail_then_draw") == "Fail");
  CHECK_THAT(message(r, "fail_then_draw"), Catch::Contains("fail_then_draw.shader_test:14: probe failed"));
  CHECK(status(r, "draw_after_pass") == "Skip");
  // `clear` runs now (texture_commands.hpp), but with no `fb tex` before it, it would clear the window system
  // framebuffer, which a surfaceless runner context does not have: still a Skip naming the command.
  CHECK_THAT(message(r, "draw_after_pass"),
             Catch::Contains("draw_after_pass.shader_test:15: \"clear\" clears the window system framebuffer"));
  CHECK(status(r, "no_such_enum") == "Skip");
  CHECK_THAT(message(r, "no_such_enum"),
             Catch::Contains("GL_NOT_A_REAL_LIMIT is not a GL enum") && Catch::Contains("no_such_enum.shader_test:3"));
  CHECK(status(r, "subgroup_too_large") == "Skip");
  CHECK_THAT(message(r, "subgroup_too_large"),
             Catch::StartsWith("requires GL_SUBGROUP_SIZE_KHR >= 4096") &&
                 (Catch::Contains(", context has ") || Catch::Contains("does not answer glGetInteger64v")) &&
                 Catch::Contains("subgroup_too_large.shader_test:3"));
  CHECK(status(r, "indirect_without_buffer") == "Fail");
  CHECK_THAT(message(r, "indirect_without_buffer"), Catch::Contains("no ssbo at binding 3"));
  CHECK(status(r, "ignore_missing") == "Pass");
  CHECK(status(r, "missing_uniform") == "Fail");
  CHECK_THAT(message(r, "missing_uniform"), Catch::Contains("\"nowhere\" is not an active uniform"));
  CHECK(status(r, "inserted_version_error") == "Fail");
  CHECK_THAT(message(r, "inserted_version_error"), Catch::Contains("inserted_version_error.shader_test:7:"));
}
