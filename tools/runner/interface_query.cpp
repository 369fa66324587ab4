#include "interface_query.hpp"

#include <climits>
#include <vector>

#include "bismuth/gl/bismuth_gl.h"
#include "gl_enum_names.hpp"
#include "gl_session.hpp"

namespace bismuth::tools::runner {

namespace {

// An integer (decimal, 0x hex, negative) or a GL enum name (GL_FLOAT_VEC4; GL_INVALID_INDEX, which glcorearb.h
// writes as 0xFFFFFFFFu).
std::optional<int64_t> value_of(const std::string& text) {
  if (text == "GL_INVALID_INDEX") return 0xFFFFFFFFll;
  if (text.rfind("GL_", 0) == 0) {
    const auto v = gl_enum_value(text);
    if (!v) return std::nullopt;
    return *v;
  }
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used, 0);
    if (used != text.size() || v < INT32_MIN || v > 0xFFFFFFFFll) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<int> int_of(const std::string& text) {
  const auto v = value_of(text);
  if (!v || *v > INT_MAX) return std::nullopt;
  return static_cast<int>(*v);
}

GLint resource_property(GLuint program, GLenum interface, GLuint index, GLenum prop) {
  GLint value = 0;
  glGetProgramResourceiv(program, interface, index, 1, &prop, 1, nullptr, &value);
  return value;
}

// shader_runner's resource_info_get_index: the active resource of `interface` that the "(data)" words describe.
// (location component) for program inputs and outputs; (binding) for blocks and buffers; (binding offset) for
// block members, buffer variables and, after "atomic", atomic counters; (var location) for plain uniforms.
std::optional<GLuint> find_by_data(GLuint program, GLenum interface, const std::vector<std::string>& data,
                                   std::string* error) {
  std::vector<std::string> words = data;
  const bool atomic = !words.empty() && words[0] == "atomic";
  const bool var = !words.empty() && words[0] == "var";
  if (atomic || var) words.erase(words.begin());
  std::vector<int> numbers;
  for (const auto& w : words) {
    const auto v = int_of(w);
    if (!v) {
      *error = "bad resource data \"" + w + "\"";
      return std::nullopt;
    }
    numbers.push_back(*v);
  }
  GLint count = 0;
  glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &count);
  const bool block = interface == GL_UNIFORM_BLOCK || interface == GL_SHADER_STORAGE_BLOCK ||
                     interface == GL_ATOMIC_COUNTER_BUFFER || interface == GL_TRANSFORM_FEEDBACK_BUFFER;
  const bool in_out = interface == GL_PROGRAM_INPUT || interface == GL_PROGRAM_OUTPUT;
  const size_t want = block || var ? 1 : 2;
  if (numbers.size() != want) {
    *error = "expected " + std::to_string(want) + " number(s) of resource data";
    return std::nullopt;
  }
  for (GLint i = 0; i < count; ++i) {
    const GLuint index = static_cast<GLuint>(i);
    if (block) {
      if (resource_property(program, interface, index, GL_BUFFER_BINDING) == numbers[0]) return index;
    } else if (in_out) {
      if (resource_property(program, interface, index, GL_LOCATION) == numbers[0] &&
          resource_property(program, interface, index, GL_LOCATION_COMPONENT) == numbers[1]) {
        return index;
      }
    } else if (var) {
      if (resource_property(program, interface, index, GL_LOCATION) == numbers[0]) return index;
    } else {
      // A member of a block or an atomic counter: its buffer (found by binding) and its offset.
      const GLenum buffers = interface == GL_BUFFER_VARIABLE ? GL_SHADER_STORAGE_BLOCK
                             : atomic                        ? GL_ATOMIC_COUNTER_BUFFER
                                                             : GL_UNIFORM_BLOCK;
      const GLenum buffer_index_prop = atomic ? GL_ATOMIC_COUNTER_BUFFER_INDEX : GL_BLOCK_INDEX;
      std::string ignored;
      const auto buffer = find_by_data(program, buffers, {words[0]}, &ignored);
      if (buffer && resource_property(program, interface, index, buffer_index_prop) == static_cast<GLint>(*buffer) &&
          resource_property(program, interface, index, GL_OFFSET) == numbers[1]) {
        return index;
      }
    }
  }
  *error = "no active resource with that data";
  return std::nullopt;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

QueryResult run_interface_query(const Command& c, GLuint program) {
  QueryResult result;
  const auto interface = gl_enum_value(c.interface_name);
  if (!interface) return {c.interface_name + " is not a GL enum", std::nullopt};
  const std::optional<int64_t> value = value_of(c.expected[0]);
  if (!value) return {"bad expected value \"" + c.expected[0] + "\"", std::nullopt};
  while (glGetError() != GL_NO_ERROR) {
  }
  std::string call;
  int64_t got = 0;
  if (c.query == "interface" || c.query == "resourceByName" || c.query == "resourceByData") {
    const auto pname = gl_enum_value(c.type_name);
    if (!pname) return {c.type_name + " is not a GL enum", std::nullopt};
    GLint v = static_cast<GLint>(~*value);
    if (c.query == "interface") {
      call = "glGetProgramInterfaceiv(" + c.interface_name + ", " + c.type_name + ")";
      glGetProgramInterfaceiv(program, *interface, *pname, &v);
    } else {
      GLuint index = GL_INVALID_INDEX;
      if (c.query == "resourceByName") {
        index = glGetProgramResourceIndex(program, *interface, c.resource_name.c_str());
        if (index == GL_INVALID_INDEX) {
          return {"no active resource named \"" + c.resource_name + "\" in " + c.interface_name, std::nullopt};
        }
        call = "glGetProgramResourceiv(" + c.interface_name + ", " + c.resource_name + ", " + c.type_name + ")";
      } else {
        std::string error;
        const auto found = find_by_data(program, *interface, c.resource_data, &error);
        if (!found) return {c.interface_name + " (" + joined(c.resource_data) + "): " + error, std::nullopt};
        index = *found;
        call = "glGetProgramResourceiv(" + c.interface_name + ", " + std::to_string(index) + ", " + c.type_name + ")";
      }
      glGetProgramResourceiv(program, *interface, index, 1, &*pname, 1, nullptr, &v);
    }
    got = v;
  } else if (c.query == "resourceIndex") {
    call = "glGetProgramResourceIndex(" + c.interface_name + ", \"" + c.resource_name + "\")";
    got = glGetProgramResourceIndex(program, *interface, c.resource_name.c_str());
  } else if (c.query == "resourceLocation") {
    call = "glGetProgramResourceLocation(" + c.interface_name + ", \"" + c.resource_name + "\")";
    got = glGetProgramResourceLocation(program, *interface, c.resource_name.c_str());
  } else if (c.query == "resourceLocationIndex") {
    using Proc = GLint(APIENTRY*)(GLuint, GLenum, const GLchar*);
    const auto proc = reinterpret_cast<Proc>(bismuthGetProcAddress("glGetProgramResourceLocationIndex"));
    if (proc == nullptr) {
      return {std::nullopt, std::string("verify program_interface_query resourceLocationIndex needs "
                                        "glGetProgramResourceLocationIndex, which this libbismuth-gl lacks")};
    }
    call = "glGetProgramResourceLocationIndex(" + c.interface_name + ", \"" + c.resource_name + "\")";
    got = proc(program, *interface, c.resource_name.c_str());
  } else {  // resourceName
    std::string error;
    const auto found = find_by_data(program, *interface, c.resource_data, &error);
    if (!found) return {c.interface_name + " (" + joined(c.resource_data) + "): " + error, std::nullopt};
    char name[512] = {};
    GLsizei length = -1;
    glGetProgramResourceName(program, *interface, *found, sizeof name, &length, name);
    call = "glGetProgramResourceName(" + c.interface_name + ", " + std::to_string(*found) + ")";
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) return {call + " raised " + gl_error_name(e), std::nullopt};
    if (length != *value || c.expected[1] != name) {
      return {call + ": expected length " + c.expected[0] + " and name \"" + c.expected[1] + "\", got length " +
                  std::to_string(length) + " and name \"" + name + "\"",
              std::nullopt};
    }
    return result;
  }
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) return {call + " raised " + gl_error_name(e), std::nullopt};
  // Indices are GLuint: compare them as such (GL_INVALID_INDEX is 0xFFFFFFFF).
  if (c.query == "resourceIndex" ? static_cast<uint32_t>(got) != static_cast<uint32_t>(*value) : got != *value) {
    return {call + ": expected " + c.expected[0] + ", got " + std::to_string(got), std::nullopt};
  }
  return result;
}

}  // namespace bismuth::tools::runner
