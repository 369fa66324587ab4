#include "worker.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "corpus_executor.hpp"
#include "gl_session.hpp"
#include "input_file.hpp"
#include "shader_test.hpp"
#include "shader_test_executor.hpp"

namespace bismuth::tools::runner {

namespace {

// BISMUTH_RUNNER_FAULT="ACTION:SUBSTRING" names this action and this test.
bool fault_matches(const TestSpec& test, const std::string& action) {
  const char* fault = std::getenv("BISMUTH_RUNNER_FAULT");
  if (fault == nullptr) return false;
  const std::string spec = fault;
  const std::string prefix = action + ":";
  if (spec.rfind(prefix, 0) != 0 || spec.size() == prefix.size()) return false;
  return test.name.find(spec.substr(prefix.size())) != std::string::npos;
}

}  // namespace

Outcome run_test_in_process(const TestSpec& test, const std::string& device) {
  // Parse before creating a context: a malformed file fails without touching the device.
  std::optional<ShaderTest> shader_test;
  std::optional<CorpusCase> corpus_case;
  if (test.kind == TestSpec::Kind::ShaderTest) {
    const auto text = read_input_file(test.path);
    if (!text) return {Status::Fail, text.error().message, {}};
    auto parsed = parse_shader_test(*text, test.path);
    if (!parsed) return {Status::Fail, parsed.error().message, {}};
    shader_test = std::move(*parsed);
    if (shader_test->unsupported) return {Status::Skip, *shader_test->unsupported, {}};
  } else {
    auto loaded = load_corpus_case(test.path);
    if (!loaded) return {Status::Fail, loaded.error().message, {}};
    corpus_case = std::move(*loaded);
  }
  // A test that requires GL ES gets an ES context, as shader_runner picks the context from [require]; a
  // libbismuth-gl that has none makes it a Skip saying which EGL call refused.
  const int es_version = shader_test ? shader_test->es_context_version : 0;
  auto session = es_version != 0 ? GlSession::create_es(device, es_version) : GlSession::create(device);
  if (!session) return {es_version != 0 ? Status::Skip : Status::Fail, session.error().message, {}};
  if (fault_matches(test, "validation")) {
    // Through KHR_debug with the validation-message id, the path a real validation-layer message takes.
    glDebugMessageInsert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_ERROR, kValidationMessageId, GL_DEBUG_SEVERITY_HIGH,
                         -1, "injected validation message");
  }
  Outcome outcome =
      shader_test ? execute_shader_test(*shader_test, **session)
                  : execute_corpus_case(*corpus_case, front_named(test.front), **session);
  outcome.device = (*session)->device_name();
  return outcome;
}

void inject_fault_if_requested(const TestSpec& test) {
  const char* fault = std::getenv("BISMUTH_RUNNER_FAULT");
  if (fault == nullptr) return;
  const std::string spec = fault;
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return;
  const std::string action = spec.substr(0, colon);
  std::string rest = spec.substr(colon + 1);
  std::string marker;
  if (action == "flaky") {
    const size_t second = rest.find(':');
    if (second == std::string::npos) return;
    marker = rest.substr(second + 1);
    rest = rest.substr(0, second);
  }
  if (rest.empty() || test.name.find(rest) == std::string::npos) return;
  if (action == "crash") raise(SIGSEGV);
  if (action == "abort") std::abort();
  if (action == "exit") std::_Exit(3);
  if (action == "hang") {
    for (;;) pause();
  }
  if (action == "flaky" && access(marker.c_str(), F_OK) != 0) {
    std::ofstream(marker) << "1\n";
    std::printf("%s%s\n", kResultPrefix, encode_result({Status::Fail, "injected flaky failure", {}}).c_str());
    std::fflush(stdout);
    std::_Exit(0);
  }
}

std::string encode_result(const Outcome& outcome) {
  nlohmann::json j;
  j["status"] = to_string(outcome.status);
  j["message"] = outcome.message;
  j["device"] = outcome.device;
  // Messages may hold bytes from a driver or a test file that are not UTF-8: replace rather than throw.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Outcome> decode_result(const std::string& stdout_text) {
  const std::string prefix = kResultPrefix;
  const size_t at = stdout_text.rfind(prefix);
  if (at == std::string::npos || (at > 0 && stdout_text[at - 1] != '\n')) return std::nullopt;
  const size_t end = stdout_text.find('\n', at);
  const std::string body =
      stdout_text.substr(at + prefix.size(), end == std::string::npos ? std::string::npos : end - at - prefix.size());
  try {
    const auto j = nlohmann::json::parse(body);
    const auto status = parse_status(j.at("status").get<std::string>());
    if (!status) return std::nullopt;
    return Outcome{*status, j.value("message", ""), j.value("device", "")};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace bismuth::tools::runner
