// glFlush/glFinish, fence syncs (GL 4.6 §4.1) on the device's timeline semaphore, and timer queries (§4.3)
// through the backend's GPU timestamps.
#include <chrono>

#include "gl_internal.hpp"

namespace bismuth::gl {
namespace {

int64_t host_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::shared_ptr<SyncObject> sync_object(Context* ctx, GLsync sync) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->syncs.find(sync);
  return it == ctx->share->syncs.end() ? nullptr : it->second;
}

// Submits what the context recorded; the returned timeline value completes with it.
Expected<uint64_t> flush(Context* ctx) { return ctx->stream->flush(); }

// Computes a query's result when it is available (wait: block until it is).
bool resolve(Context* ctx, QueryObject& q, bool wait) {
  if (q.has_result) return true;
  if (q.target == GL_TIME_ELAPSED) {
    if (q.active) return false;
    if (!wait) {
      // Available once the End timestamp was written: the batch holding it is submitted and done.
      auto value = ctx->stream->flush();
      if (!value || !ctx->device_state.device->is_complete(*value)) return false;
    }
    q.result = 0;
    if (q.begin.batch != 0 && q.end.batch != 0) {  // 0: the queue has no timestamps (GL_QUERY_COUNTER_BITS 0)
      auto begin = ctx->stream->timestamp_ns(q.begin);
      auto end = begin ? ctx->stream->timestamp_ns(q.end) : begin;
      if (!end) {
        ctx->backend_error("glGetQueryObject", end.error());
      } else if (*end > *begin) {
        q.result = static_cast<uint64_t>(*end - *begin);
      }
    }
    q.has_result = true;
    return true;
  }
  // GL_TIMESTAMP: the host clock (the same as glGetInteger64v(GL_TIMESTAMP)) when the preceding commands are seen
  // complete.
  auto& device = *ctx->device_state.device;
  if (!device.is_complete(q.timeline)) {
    if (!wait) return false;
    if (Status ok = device.wait(q.timeline); !ok) ctx->backend_error("glGetQueryObject", ok.error());
  }
  q.result = static_cast<uint64_t>(host_ns());
  q.has_result = true;
  return true;
}

std::shared_ptr<QueryObject> query_object(Context* ctx, GLuint id) {
  auto it = ctx->queries.find(id);
  return it == ctx->queries.end() ? nullptr : it->second;
}

template <class T>
void get_query_object(const char* func, GLuint id, GLenum pname, T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto q = query_object(ctx, id);
  if (!q || q->target == 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(id) + " is not a query object");
    return;
  }
  if (q->active) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the query is active");
    return;
  }
  switch (pname) {
    case GL_QUERY_RESULT_AVAILABLE: {
      const bool available = resolve(ctx, *q, false);
      if (params) *params = available ? T(GL_TRUE) : T(GL_FALSE);
      return;
    }
    case GL_QUERY_RESULT:
      resolve(ctx, *q, true);
      if (params) *params = static_cast<T>(q->result);
      return;
    case GL_QUERY_RESULT_NO_WAIT:
      if (resolve(ctx, *q, false) && params) *params = static_cast<T>(q->result);
      return;
    case GL_QUERY_TARGET:
      if (params) *params = static_cast<T>(q->target);
      return;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glFlush(void) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto v = flush(ctx); !v) ctx->backend_error("glFlush", v.error());
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFinish(void) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (Status ok = ctx->stream->finish(); !ok) ctx->backend_error("glFinish", ok.error());
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLsync APIENTRY glFenceSync(GLenum condition, GLbitfield flags) {
  BISMUTH_GL_BEGIN(nullptr)
  if (condition != GL_SYNC_GPU_COMMANDS_COMPLETE) {
    ctx->set_error(GL_INVALID_ENUM, "glFenceSync: condition must be GL_SYNC_GPU_COMMANDS_COMPLETE");
    return nullptr;
  }
  if (flags != 0) {
    ctx->set_error(GL_INVALID_VALUE, "glFenceSync: flags must be zero");
    return nullptr;
  }
  // The fence signals with the submission of everything recorded so far (a fence implies a flush here, which
  // GL allows: it only requires that the fence eventually signals).
  auto value = flush(ctx);
  if (!value) {
    ctx->backend_error("glFenceSync", value.error());
    return nullptr;
  }
  auto s = std::make_shared<SyncObject>();
  s->value = *value;
  s->device = ctx->share->device_state;
  GLsync handle = reinterpret_cast<GLsync>(s.get());
  std::lock_guard lock(ctx->share->mutex);
  ctx->share->syncs[handle] = std::move(s);
  return handle;
  BISMUTH_GL_END(nullptr)
}

GLAPI GLboolean APIENTRY glIsSync(GLsync sync) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  return sync_object(ctx, sync) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glDeleteSync(GLsync sync) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (sync == nullptr) return;  // silently ignored
  std::lock_guard lock(ctx->share->mutex);
  if (ctx->share->syncs.erase(sync) == 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteSync: not a sync object");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLenum APIENTRY glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  BISMUTH_GL_BEGIN(GL_WAIT_FAILED)
  auto s = sync_object(ctx, sync);
  if (!s) {
    ctx->set_error(GL_INVALID_VALUE, "glClientWaitSync: not a sync object");
    return GL_WAIT_FAILED;
  }
  if ((flags & ~GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)) != 0) {
    ctx->set_error(GL_INVALID_VALUE, "glClientWaitSync: flags has bits other than GL_SYNC_FLUSH_COMMANDS_BIT");
    return GL_WAIT_FAILED;
  }
  auto& device = *s->device->device;
  if (device.is_complete(s->value)) return GL_ALREADY_SIGNALED;
  if (timeout == 0) return GL_TIMEOUT_EXPIRED;
  if (Status ok = device.wait(s->value, timeout); !ok) {
    ctx->backend_error("glClientWaitSync", ok.error());
    return GL_WAIT_FAILED;
  }
  return device.is_complete(s->value) ? GL_CONDITION_SATISFIED : GL_TIMEOUT_EXPIRED;
  BISMUTH_GL_END(GL_WAIT_FAILED)
}

GLAPI void APIENTRY glWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!sync_object(ctx, sync)) {
    ctx->set_error(GL_INVALID_VALUE, "glWaitSync: not a sync object");
    return;
  }
  if (flags != 0 || timeout != GL_TIMEOUT_IGNORED) {
    ctx->set_error(GL_INVALID_VALUE, "glWaitSync: flags must be zero and timeout GL_TIMEOUT_IGNORED");
    return;
  }
  // One queue per device, and the fence's commands were submitted when it was created: every later submission
  // from any context already runs after them.
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetSynciv(GLsync sync, GLenum pname, GLsizei count, GLsizei* length, GLint* values) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = sync_object(ctx, sync);
  if (!s) {
    ctx->set_error(GL_INVALID_VALUE, "glGetSynciv: not a sync object");
    return;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetSynciv: count is negative");
    return;
  }
  GLint v = 0;
  switch (pname) {
    case GL_OBJECT_TYPE: v = GL_SYNC_FENCE; break;
    case GL_SYNC_STATUS: v = s->device->device->is_complete(s->value) ? GL_SIGNALED : GL_UNSIGNALED; break;
    case GL_SYNC_CONDITION: v = GL_SYNC_GPU_COMMANDS_COMPLETE; break;
    case GL_SYNC_FLAGS: v = 0; break;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetSynciv: invalid pname"); return;
  }
  if (count >= 1 && values) values[0] = v;
  if (length) *length = count >= 1 ? 1 : 0;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// ---- queries ----

GLAPI void APIENTRY glGenQueries(GLsizei n, GLuint* ids) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGenQueries: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n; ++i) {
    auto q = std::make_shared<QueryObject>();
    q->name = ctx->next_query++;
    ctx->queries[q->name] = q;
    if (ids) ids[i] = q->name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateQueries(GLenum target, GLsizei n, GLuint* ids) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_TIME_ELAPSED && target != GL_TIMESTAMP) {
    ctx->set_error(GL_INVALID_ENUM, "glCreateQueries: only GL_TIME_ELAPSED and GL_TIMESTAMP are supported");
    return;
  }
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glCreateQueries: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n; ++i) {
    auto q = std::make_shared<QueryObject>();
    q->name = ctx->next_query++;
    q->target = target;
    ctx->queries[q->name] = q;
    if (ids) ids[i] = q->name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteQueries(GLsizei n, const GLuint* ids) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteQueries: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && ids; ++i) {
    auto it = ctx->queries.find(ids[i]);
    if (it == ctx->queries.end()) continue;
    if (it->second == ctx->active_time_elapsed) ctx->active_time_elapsed.reset();  // ends the query
    ctx->queries.erase(it);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsQuery(GLuint id) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  auto q = query_object(ctx, id);
  return q && q->target != 0 ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBeginQuery(GLenum target, GLuint id) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_TIME_ELAPSED) {
    ctx->set_error(GL_INVALID_ENUM, "glBeginQuery: only GL_TIME_ELAPSED is supported by this compute shim");
    return;
  }
  if (ctx->active_time_elapsed) {
    ctx->set_error(GL_INVALID_OPERATION, "glBeginQuery: a GL_TIME_ELAPSED query is already active");
    return;
  }
  auto q = query_object(ctx, id);
  if (id == 0 || !q) {
    ctx->set_error(GL_INVALID_OPERATION, "glBeginQuery: id is not a name returned by glGenQueries");
    return;
  }
  if (q->target != 0 && q->target != target) {
    ctx->set_error(GL_INVALID_OPERATION, "glBeginQuery: the query object has another target");
    return;
  }
  q->target = target;
  q->active = true;
  q->has_result = false;
  q->result = 0;
  q->begin = q->end = backend::TimestampQuery{};
  // GL 4.6 §4.3.1: the GPU time from when the commands before Begin completed to when those before End did.
  if (Status ok = ctx->stream->write_timestamp(&q->begin); !ok) ctx->backend_error("glBeginQuery", ok.error());
  ctx->active_time_elapsed = q;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glEndQuery(GLenum target) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_TIME_ELAPSED) {
    ctx->set_error(GL_INVALID_ENUM, "glEndQuery: only GL_TIME_ELAPSED is supported by this compute shim");
    return;
  }
  if (!ctx->active_time_elapsed) {
    ctx->set_error(GL_INVALID_OPERATION, "glEndQuery: no GL_TIME_ELAPSED query is active");
    return;
  }
  if (Status ok = ctx->stream->write_timestamp(&ctx->active_time_elapsed->end); !ok) {
    ctx->backend_error("glEndQuery", ok.error());
  }
  ctx->active_time_elapsed->active = false;
  ctx->active_time_elapsed.reset();
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glQueryCounter(GLuint id, GLenum target) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_TIMESTAMP) {
    ctx->set_error(GL_INVALID_ENUM, "glQueryCounter: target must be GL_TIMESTAMP");
    return;
  }
  auto q = query_object(ctx, id);
  if (!q) {
    ctx->set_error(GL_INVALID_OPERATION, "glQueryCounter: id is not a name returned by glGenQueries");
    return;
  }
  if (q->active || (q->target != 0 && q->target != GL_TIMESTAMP)) {
    ctx->set_error(GL_INVALID_OPERATION, "glQueryCounter: the query object is active or has another target");
    return;
  }
  auto value = flush(ctx);
  if (!value) {
    ctx->backend_error("glQueryCounter", value.error());
    return;
  }
  q->target = GL_TIMESTAMP;
  q->timeline = *value;
  q->has_result = false;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetQueryiv(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_TIME_ELAPSED && target != GL_TIMESTAMP) {
    ctx->set_error(GL_INVALID_ENUM, "glGetQueryiv: only GL_TIME_ELAPSED and GL_TIMESTAMP are supported");
    return;
  }
  switch (pname) {
    case GL_CURRENT_QUERY:
      if (params) *params = target == GL_TIME_ELAPSED && ctx->active_time_elapsed ? static_cast<GLint>(ctx->active_time_elapsed->name) : 0;
      return;
    case GL_QUERY_COUNTER_BITS:
      if (params) *params = 64;
      return;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetQueryiv: invalid pname");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetQueryObjectiv(GLuint id, GLenum pname, GLint* params) {
  get_query_object("glGetQueryObjectiv", id, pname, params);
}
GLAPI void APIENTRY glGetQueryObjectuiv(GLuint id, GLenum pname, GLuint* params) {
  get_query_object("glGetQueryObjectuiv", id, pname, params);
}
GLAPI void APIENTRY glGetQueryObjecti64v(GLuint id, GLenum pname, GLint64* params) {
  get_query_object("glGetQueryObjecti64v", id, pname, params);
}
GLAPI void APIENTRY glGetQueryObjectui64v(GLuint id, GLenum pname, GLuint64* params) {
  get_query_object("glGetQueryObjectui64v", id, pname, params);
}

}  // extern "C"
