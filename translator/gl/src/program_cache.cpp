// The program cache's keys and records (program_cache.hpp says what they hold and when they are used).
#include "program_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include "bismuth/backend/disk_cache.hpp"
#include "byte_codec.hpp"
#include "device_state.hpp"
#include "program_binary_format.hpp"
#include "program_link.hpp"

namespace bismuth::gl {

namespace {

// KHR_debug ids of the cache's messages (GL_DEBUG_SOURCE_SHADER_COMPILER).
constexpr GLuint kLinkRecordUsedId = 0x7B10;
constexpr GLuint kCompileRecordUsedId = 0x7B11;
constexpr GLuint kRecordIgnoredId = 0x7B12;

// The store's settings as the environment gives them now: BISMUTH_PROGRAM_CACHE=0 (off), the cache folder
// (disk_cache.hpp), BISMUTH_PROGRAM_CACHE_MEMORY_KB and BISMUTH_PROGRAM_CACHE_DISK_KB (the bounds; 0 KiB of memory
// sends every lookup to the folder).
struct CacheSettings {
  bool enabled = true;
  ProgramCacheStoreOptions options;
  bool operator==(const CacheSettings& o) const {
    return enabled == o.enabled && options.dir == o.options.dir &&
           options.max_memory_bytes == o.options.max_memory_bytes && options.max_disk_bytes == o.options.max_disk_bytes;
  }
};

uint64_t kib_from_environment(const char* name, uint64_t fallback_bytes) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback_bytes;
  char* end = nullptr;
  const unsigned long long kib = std::strtoull(v, &end, 10);
  if (*end != '\0' || kib > (UINT64_MAX >> 10)) return fallback_bytes;
  return uint64_t(kib) << 10;
}

CacheSettings settings_from_environment() {
  CacheSettings s;
  const char* enabled = std::getenv("BISMUTH_PROGRAM_CACHE");
  s.enabled = enabled == nullptr || std::string_view(enabled) != "0";
  if (!s.enabled) return s;
  s.options.dir = backend::cache_dir_from_environment();
  s.options.max_memory_bytes = kib_from_environment("BISMUTH_PROGRAM_CACHE_MEMORY_KB", s.options.max_memory_bytes);
  s.options.max_disk_bytes = kib_from_environment("BISMUTH_PROGRAM_CACHE_DISK_KB", s.options.max_disk_bytes);
  return s;
}

void print_stats(const ProgramCacheStore& store) {
  const char* stats = std::getenv("BISMUTH_STATS");
  if (stats == nullptr || std::string_view(stats) == "0") return;
  const ProgramCacheStats s = store.stats();
  std::fprintf(stderr,
               "bismuth: program cache (%s): %llu memory hits, %llu disk hits, %llu misses, %llu records stored, "
               "%llu files written, %llu ignored, %llu evicted, %llu write failures\n",
               store.folder() ? store.folder()->c_str() : "memory only", (unsigned long long)s.memory_hits,
               (unsigned long long)s.disk_hits, (unsigned long long)s.misses, (unsigned long long)s.stores,
               (unsigned long long)s.files_written, (unsigned long long)s.files_ignored,
               (unsigned long long)s.files_evicted, (unsigned long long)s.write_failures);
}

// The process's store for the current settings: a change of the environment (a test, or a program that sets
// BISMUTH_CACHE_DIR before its first context) starts a new one. BISMUTH_STATS=1 reports each when it is replaced
// and when the process ends.
struct ProcessCache {
  std::mutex mutex;
  CacheSettings settings;
  std::shared_ptr<ProgramCacheStore> store;
  bool made = false;
  ~ProcessCache() {
    if (store) print_stats(*store);
  }
};

void put_fingerprint(Writer& w, const BinaryFingerprint& f) {
  w.bytes(f.device_uuid.data(), f.device_uuid.size());
  w.bytes(f.driver_uuid.data(), f.driver_uuid.size());
  w.u32(f.driver_version);
  w.bytes(f.bismuth_version.data(), f.bismuth_version.size());
  w.bytes(f.target.data(), f.target.size());
}

backend::Hash128 compile_key(const BinaryFingerprint& fingerprint, std::string_view source,
                             const translator::GlCompileOptions& options) {
  Writer w;
  w.str("compile record 1");
  put_fingerprint(w, fingerprint);
  w.u32(static_cast<uint32_t>(options.target));
  w.u32(static_cast<uint32_t>(options.language));
  w.str(options.language == translator::GlShaderLanguage::Hlsl ? options.entry_point : std::string());
  w.u64(source.size());
  w.bytes(source.data(), source.size());
  return backend::hash128(w.out().data(), w.out().size());
}

// The link record's key, or nullopt for a program the cache does not take: one with graphics stages, a SPIR-V
// shader, a shader that is not (successfully) compiled, or transform feedback varyings (whose link fails).
std::optional<backend::Hash128> link_key(const BinaryFingerprint& fingerprint, const ProgramObject& program) {
  if (!program.transform_feedback_varyings.empty() || program.attached.empty()) return std::nullopt;
  Writer w;
  w.str("link record 1");
  put_fingerprint(w, fingerprint);
  for (const auto& s : program.attached) {
    if (s->type != GL_COMPUTE_SHADER || s->spirv_binary || !s->compile_status || !s->compiled_source)
      return std::nullopt;
    const auto k = hash_bytes<16>(s->compiled_source->key);
    w.bytes(k.data(), k.size());
  }
  w.u8(program.separable ? 1 : 0);
  w.u32(program.wave_size_hint);
  return backend::hash128(w.out().data(), w.out().size());
}

std::vector<std::byte> encode_compile_record(bool ok, const std::string& info_log) {
  Writer w;
  w.u8(ok ? 1 : 0);
  w.str(info_log);
  return std::move(w.out());
}

struct CompileRecord {
  bool ok = false;
  std::string info_log;
};

std::optional<CompileRecord> decode_compile_record(std::span<const std::byte> bytes) {
  Reader r(bytes);
  CompileRecord record;
  const uint8_t ok = r.u8();
  record.info_log = r.str();
  if (r.failed() || !r.at_end() || ok > 1) return std::nullopt;
  record.ok = ok == 1;
  return record;
}

void note_ignored(std::vector<DeferredMessage>& messages, const std::string& why) {
  if (why.empty()) return;
  messages.push_back({kRecordIgnoredId, GL_DEBUG_SEVERITY_MEDIUM, "program cache: ignoring " + why, false});
}

}  // namespace

std::shared_ptr<ProgramCacheStore> program_cache() {
  static ProcessCache cache;
  CacheSettings now = settings_from_environment();
  std::lock_guard lock(cache.mutex);
  if (!cache.made || !(now == cache.settings)) {
    if (cache.store) print_stats(*cache.store);
    cache.store = now.enabled ? std::make_shared<ProgramCacheStore>(now.options) : nullptr;
    cache.settings = std::move(now);
    cache.made = true;
  }
  return cache.store;
}

void emit_deferred_messages(Context* ctx, const std::vector<DeferredMessage>& messages) {
  for (const DeferredMessage& m : messages) {
    if (m.debug_context_only && !ctx->debug_context) continue;
    ctx->debug(m.source, m.type, m.id, m.severity, m.text);
  }
}

CompileLookup find_compile(const LinkTarget& target, GLuint shader_name, const std::string& source,
                           const translator::GlCompileOptions& options) {
  CompileLookup lookup;
  lookup.store = program_cache();
  lookup.key = compile_key(binary_fingerprint(*target.device_state), source, options);
  if (lookup.store == nullptr) return lookup;
  ProgramCacheStore::Found found = lookup.store->find(ProgramCacheRecordKind::Compile, lookup.key);
  note_ignored(lookup.messages, found.ignored);
  if (!found.payload) return lookup;
  auto record = decode_compile_record(*found.payload);
  if (!record) {
    lookup.store->erase(lookup.key);
    return lookup;
  }
  CompileOutcome hit;
  hit.ok = record->ok;
  hit.info_log = std::move(record->info_log);
  hit.compiled_source = record->ok ? std::make_shared<const ShaderObject::CompiledSource>(
                                         ShaderObject::CompiledSource{lookup.key, source, options})
                                   : nullptr;
  hit.messages = std::move(lookup.messages);
  hit.messages.push_back({kCompileRecordUsedId, GL_DEBUG_SEVERITY_LOW,
                          "program cache: shader " + std::to_string(shader_name) + " compiled from a compile record",
                          true});
  lookup.hit = std::move(hit);
  return lookup;
}

CompileOutcome compile_from_source(const CompileLookup& lookup, const std::string& source,
                                   const translator::GlCompileOptions& options) {
  auto compiled = translator::GlShader::compile(source, options);
  CompileOutcome out;
  out.ok = compiled->ok();
  out.info_log = compiled->info_log();
  out.compiled = compiled->ok() ? compiled : nullptr;
  out.compiled_source = compiled->ok() ? std::make_shared<const ShaderObject::CompiledSource>(
                                             ShaderObject::CompiledSource{lookup.key, source, options})
                                       : nullptr;
  out.messages = lookup.messages;
  if (lookup.store != nullptr) {
    lookup.store->insert(ProgramCacheRecordKind::Compile, lookup.key,
                         encode_compile_record(compiled->ok(), compiled->info_log()));
  }
  return out;
}

Expected<std::shared_ptr<const translator::GlShader>> front_shader(ShaderObject& s) {
  if (s.compiled) return s.compiled;
  if (!s.compile_status || !s.compiled_source)
    return fail("error: shader " + std::to_string(s.name) + " has not been compiled");
  // The compile record said this source compiles; the front decides again (a record can only be wrong if its hash
  // collided, and then the link fails with the front's log rather than with someone else's program).
  auto compiled = translator::GlShader::compile(s.compiled_source->source, s.compiled_source->options);
  if (!compiled->ok())
    return fail("error: shader " + std::to_string(s.name) + " failed to compile: " + compiled->info_log());
  s.compiled = compiled;
  return s.compiled;
}

LinkLookup find_link(const LinkTarget& target, const ProgramObject& program) {
  LinkLookup lookup;
  lookup.store = program_cache();
  if (lookup.store == nullptr) return lookup;
  lookup.fingerprint = binary_fingerprint(*target.device_state);
  lookup.key = link_key(lookup.fingerprint, program);
  if (!lookup.key) return lookup;
  ProgramCacheStore::Found found = lookup.store->find(ProgramCacheRecordKind::Link, *lookup.key);
  note_ignored(lookup.messages, found.ignored);
  if (!found.payload) return lookup;
  const SpirvCheck check = validation_requested() ? SpirvCheck::Validate : SpirvCheck::Skip;
  auto loaded = parse_program_binary(*found.payload, lookup.fingerprint, target.caps(),
                                     target.device_state->device->info(), check);
  if (loaded && loaded->linked_separable == program.separable) {
    if (Status made = instantiate(target, program.name, *loaded->exe); made) {
      lookup.messages.push_back(
          {kLinkRecordUsedId, GL_DEBUG_SEVERITY_LOW,
           "program cache: program " + std::to_string(program.name) + " linked from a link record", true});
      lookup.hit = std::move(loaded->exe);
      return lookup;
    }
  } else {
    note_ignored(lookup.messages,
                 "a link record: " + (loaded ? std::string("its PROGRAM_SEPARABLE differs") : loaded.error().message));
  }
  lookup.store->erase(*lookup.key);  // the link from source writes a good one
  return lookup;
}

Expected<std::shared_ptr<Executable>> link_from_source(const LinkTarget& target, ProgramObject& program,
                                                       const LinkLookup& lookup) {
  auto exe = link(target, program);
  if (lookup.store != nullptr && lookup.key && exe && !(*exe)->graphics && (*exe)->shader) {
    lookup.store->insert(ProgramCacheRecordKind::Link, *lookup.key,
                         serialize_program_binary(**exe, program.separable, lookup.fingerprint));
  }
  return exe;
}

}  // namespace bismuth::gl
