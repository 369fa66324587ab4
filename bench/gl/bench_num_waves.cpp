// bench_num_waves: the numWaves proposal's compaction example (examples/num_waves/compaction_4wave.comp: four
// waves, one atomic per work group, each group's output contiguous and in order) against the same filter written
// the usual way (compaction_per_wave_atomics.comp: local_size_x = 128, one atomic per wave), through libbismuth-gl
// on one EGL context. A 4096 x 4096 G-buffer, half of its pixels exported.
//
//   BM_Compaction/0   GL_BISMUTH_num_waves version
//   BM_Compaction/1   local_size_x + per-wave atomics version
//
// Iteration time is the GPU time of the dispatch (GL_TIME_ELAPSED, manual time). Counters: wave_size (committed or
// the device's), atomics (atomic operations issued per dispatch: work groups or waves), ordered_groups (the share
// of work groups whose items are contiguous and in the group's own order after the last run: 1 for the numWaves
// version by construction, lower when waves of a group interleave with other groups' atomics).
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/glcorearb.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bismuth/gl/glext_bismuth.h"

namespace {

constexpr uint32_t kWidth = 4096, kHeight = 4096, kTileWidth = 8;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_num_waves: %s\n", what.c_str());
  std::exit(1);
}

// The shaders of examples/num_waves: BISMUTH_NUM_WAVES_SHADER_DIR, else the folder the benchmark was built from.
std::string read_shader(const char* name) {
  const char* dir = std::getenv("BISMUTH_NUM_WAVES_SHADER_DIR");
  std::ifstream in(std::string(dir != nullptr ? dir : BENCH_NUM_WAVES_SHADER_DIR) + "/" + name);
  if (!in) die(std::string("cannot read ") + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

GLuint build(const char* name) {
  const std::string source = read_shader(name);
  const GLchar* text = source.c_str();
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glGetProgramInfoLog(program, sizeof log, nullptr, log + std::string(log).size());
    die(std::string(name) + ": " + log);
  }
  return program;
}

struct Bench {
  EGLDisplay display = EGL_NO_DISPLAY;
  GLuint num_waves = 0, per_wave = 0;
  GLuint gbuffer = 0, counter = 0, data = 0, query = 0;
  uint32_t wave_size = 0;  // the numWaves program's committed size
  uint32_t device_subgroup = 0;
  std::vector<uint32_t> pixels;

  Bench() {
    display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_API)) {
      die("no EGL display");
    }
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
    EGLContext context = eglCreateContext(display, EGLConfig{}, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      die("no GL 4.6 context");
    }
    num_waves = build("compaction_4wave.comp");
    per_wave = build("compaction_per_wave_atomics.comp");
    GLint w = 0;
    glGetProgramiv(num_waves, GL_COMPUTE_WAVE_SIZE_BISMUTH, &w);
    wave_size = static_cast<uint32_t>(w);
    GLint subgroup = 0;
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
    device_subgroup = static_cast<uint32_t>(subgroup);
    for (GLuint p : {num_waves, per_wave}) {
      glUseProgram(p);
      glUniform1ui(glGetUniformLocation(p, "image_width"), kWidth);
    }
    pixels.resize(size_t{kWidth} * kHeight);
    uint32_t state = 0x12345678u;
    for (uint32_t& p : pixels) {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      p = state;
    }
    auto make = [](GLuint binding, size_t bytes, const void* init) {
      GLuint b = 0;
      glGenBuffers(1, &b);
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
      glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), init, GL_DYNAMIC_COPY);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, b);
      return b;
    };
    gbuffer = make(0, pixels.size() * 4, pixels.data());
    counter = make(1, 4, nullptr);
    data = make(2, pixels.size() * 4, nullptr);
    glGenQueries(1, &query);
  }

  // Tile height of one work group of each version.
  uint32_t tile_height(bool numwaves) const { return numwaves ? wave_size / kTileWidth * 4 : 128 / kTileWidth; }

  // One dispatch over the image; returns its GPU nanoseconds.
  uint64_t run(bool numwaves) {
    const uint32_t zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, counter);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &zero);
    glUseProgram(numwaves ? num_waves : per_wave);
    glBeginQuery(GL_TIME_ELAPSED, query);
    glDispatchCompute(kWidth / kTileWidth, kHeight / tile_height(numwaves), 1);
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    return ns;
  }

  // The share of work groups whose items are contiguous and in row-major order in the output of the last run.
  double ordered_groups(bool numwaves) {
    const uint32_t th = tile_height(numwaves);
    const uint32_t groups_x = kWidth / kTileWidth, groups = groups_x * (kHeight / th);
    std::vector<uint32_t> out(pixels.size());
    uint32_t count = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, counter);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &count);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, data);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(count) * 4, out.data());
    // A group is ordered when its items form one run and each follows the previous in row-major order.
    std::vector<int64_t> last(groups, -1);
    std::vector<uint8_t> broken(groups, 0);
    std::vector<uint32_t> previous(groups, 0);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t x = out[i] & 0xffffu, y = out[i] >> 16;
      if (x >= kWidth || y >= kHeight) continue;
      const uint32_t g = (y / th) * groups_x + x / kTileWidth;
      const uint32_t order = y * kWidth + x;
      if (last[g] >= 0 && (last[g] != int64_t{i} - 1 || order <= previous[g])) broken[g] = 1;
      last[g] = i;
      previous[g] = order;
    }
    uint32_t ordered = 0;
    for (uint32_t g = 0; g < groups; ++g) ordered += broken[g] == 0;
    return double(ordered) / groups;
  }
};

Bench& bench() {
  static Bench* b = new Bench;  // one context for every benchmark, kept until exit
  return *b;
}

void BM_Compaction(benchmark::State& state) {
  Bench& b = bench();
  const bool numwaves = state.range(0) == 0;
  for (auto _ : state) state.SetIterationTime(double(b.run(numwaves)) * 1e-9);
  const uint32_t th = b.tile_height(numwaves);
  const double groups = double(kWidth / kTileWidth) * (kHeight / th);
  const uint32_t waves_per_group = numwaves ? 4 : 128 / std::max<uint32_t>(1, b.device_subgroup);
  state.counters["wave_size"] = numwaves ? b.wave_size : b.device_subgroup;
  state.counters["atomics"] = numwaves ? groups : groups * waves_per_group;
  state.counters["ordered_groups"] = b.ordered_groups(numwaves);
  state.SetLabel(numwaves ? "num_waves(4), one atomic per group" : "local_size_x=128, one atomic per wave");
}
BENCHMARK(BM_Compaction)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
