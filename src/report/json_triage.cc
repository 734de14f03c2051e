#include "ncclscope/report/json_triage.h"

#include <cstdint>
#include <string_view>

#include "ncclscope/model/watchdog_table.h"

namespace ncclscope {

void WriteEvidenceJson(const Job& job, const Evidence& e, JsonStream* js) {
  js->BeginObject();
  js->Key("line");
  js->Uint(e.line);
  js->Key("source");
  js->String(job.SourceName(e.source, ""));
  js->Key("text");
  js->String(e.text);
  js->EndObject();
}

namespace {

/// `v` when positive, else null (pids: 0 and -1 mean unknown).
void PositiveOrNull(int64_t v, JsonStream* js) {
  if (v > 0) {
    js->Int(v);
  } else {
    js->Null();
  }
}

void WriteCulprit(const Culprit& k, JsonStream* js) {
  js->BeginObject();
  js->Key("host");
  js->StringOrNull(k.host);
  js->Key("pid");
  PositiveOrNull(k.pid, js);
  js->Key("rank");
  js->IntOrNull(k.rank);
  js->EndObject();
}

void WriteFallout(const Job& job, const Fallout& f, JsonStream* js) {
  js->BeginObject();
  js->Key("evidence");
  WriteEvidenceJson(job, f.evidence, js);
  js->Key("rank");
  js->Int(f.rank);
  js->Key("time");
  js->StringOrNull(f.time_text);
  js->Key("what");
  js->String(f.what);
  js->EndObject();
}

}  // namespace

void WriteRootCauseJson(const Job& job, const RootCause& c, JsonStream* js) {
  const Culprit* first = c.culprits.empty() ? nullptr : &c.culprits[0];
  js->BeginObject();
  js->Key("attempt");
  js->Int(c.attempt + 1);
  js->Key("class");
  js->String(CauseClassName(c.cls));
  js->Key("confidence");
  js->String(ConfidenceName(c.confidence));
  js->Key("culprits");
  js->BeginArray();
  for (const Culprit& k : c.culprits) WriteCulprit(k, js);
  js->EndArray();
  js->Key("evidence");
  js->BeginArray();
  for (const Evidence& e : c.evidence) WriteEvidenceJson(job, e, js);
  js->EndArray();
  js->Key("fallout");
  js->BeginArray();
  for (const Fallout& f : c.fallout) WriteFallout(job, f, js);
  js->EndArray();
  js->Key("host");
  js->StringOrNull(first ? std::string_view(first->host) : "");
  js->Key("job_failed");
  js->Bool(c.job_failed);
  js->Key("pid");
  PositiveOrNull(first ? first->pid : -1, js);
  js->Key("rank");
  js->IntOrNull(first ? first->rank : -1);
  js->Key("reasoning");
  js->StringOrNull(c.reasoning);
  js->Key("time");
  js->StringOrNull(c.time_text);
  js->Key("what");
  js->StringOrNull(c.what);
  js->EndObject();
}

void WriteAttemptsJson(const Job& job, const RootCauseReport& r, JsonStream* js) {
  js->BeginArray();
  for (const AttemptCause& a : r.attempts) {
    js->BeginObject();
    js->Key("attempt");
    js->Int(a.info.index + 1);
    js->Key("processes");
    js->BeginArray();
    for (const ProcessInstance& p : a.processes) {
      js->BeginObject();
      js->Key("host");
      js->String(p.host);
      js->Key("pid");
      js->Uint(p.pid);
      js->Key("rank");
      js->IntOrNull(p.rank);
      js->Key("world_comm");
      js->StringOrNull(p.world_comm);
      js->EndObject();
    }
    js->EndArray();
    js->Key("root_cause");
    WriteRootCauseJson(job, a.cause, js);
    js->EndObject();
  }
  js->EndArray();
}

namespace {

void WriteWatchdogRow(const Job& job, const WatchdogRow& r, JsonStream* js) {
  const Process* p = r.process >= 0 ? &job.processes[r.process] : nullptr;
  js->BeginObject();
  js->Key("host");
  if (p) {
    js->String(p->hostname);
  } else {
    js->Null();
  }
  js->Key("last_completed");
  js->IntOrNull(r.last_completed);
  js->Key("last_enqueued");
  js->IntOrNull(r.last_enqueued);
  js->Key("op_type");
  js->StringOrNull(r.op_type);
  js->Key("pid");
  if (p) {
    js->Uint(p->pid);
  } else {
    js->Null();
  }
  js->Key("rank");
  js->Int(r.rank);
  js->Key("reported");
  js->Bool(r.reported);
  js->Key("suspect");
  js->Bool(r.suspect);
  js->Key("timed_out");
  js->Bool(r.timed_out);
  js->Key("timeout_seq");
  js->IntOrNull(r.timeout_seq);
  js->Key("why");
  js->StringOrNull(r.why);
  js->EndObject();
}

}  // namespace

void WriteWatchdogJson(const Job& job, JsonStream* js) {
  js->BeginArray();
  for (const WatchdogGroup& g : BuildWatchdogGroups(job)) {
    js->BeginObject();
    js->Key("op_type");
    js->StringOrNull(g.op_type);
    js->Key("pg_desc");
    js->StringOrNull(g.pg_desc);
    js->Key("pg_id");
    js->Int(g.pg_id);
    js->Key("ranks");
    js->BeginArray();
    for (const WatchdogRow& r : g.rows) WriteWatchdogRow(job, r, js);
    js->EndArray();
    js->Key("silent");
    js->IntArray(g.silent);
    js->Key("suspects");
    js->IntArray(g.suspects);
    js->Key("timed_out");
    js->IntArray(g.timed_out);
    js->Key("timeout_seq");
    js->IntOrNull(g.timeout_seq);
    js->EndObject();
  }
  js->EndArray();
}

}  // namespace ncclscope
