// JobBuilder: folds the event stream of all inputs into a Job, then (Finish) groups hosts,
// resolves P2P paths and classifies every link.
//
// Connection lines carry communicator-local ranks and no communicator; the builder attributes
// each one from the printing process, its rank in each of its communicators and its most recent
// communicator activity (Init START/COMPLETE, the comm summary line, COLL lines), and records how
// sure it is (Link::attribution).
//
// Not thread-safe; one builder per job. Events may come from several sources interleaved.
#ifndef NCCLSCOPE_MODEL_JOB_BUILDER_H_
#define NCCLSCOPE_MODEL_JOB_BUILDER_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "ncclscope/model/job.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// GPU-pair paths from an `nvidia-smi topo -m` matrix: (gpu index a, gpu index b) with a < b →
/// the matrix entry ("NV18", "PIX", "SYS", ...). Applies to every host of the job.
struct TopoPaths {
  std::map<std::pair<int, int>, std::string> pairs;
  std::string name;  ///< File name, for evidence text.
};

struct BuildOptions {
  const TopoPaths* topo = nullptr;
};

/// Tuning of the builder's indexes. The defaults suit every input; tests change them to check
/// that the index shortcuts give the same model as plain walks.
struct BuilderTuning {
  /// A process's open memberships with one rank are walked for connection attribution until
  /// there are this many; from then on held-connection counts shortcut the walk.
  int count_from = 8;
  /// Once the job holds this many communicators, one that ended on every rank and repeats the
  /// shape of an earlier ended one is folded into it (Communicator::repeats) and its memory
  /// reused: a job that creates communicators again and again stays bounded. 0: never fold.
  size_t fold_from = 1024;
  /// A process remembers the memberships its last comm pointers named (COLL lines cycle through
  /// a few communicators). Off: every pointer is looked up again (the same model, slower; tests
  /// compare the two).
  bool remember_pointers = true;
};

class JobBuilder {
 public:
  explicit JobBuilder(Job* job, BuilderTuning tuning = {});
  ~JobBuilder();
  JobBuilder(const JobBuilder&) = delete;
  JobBuilder& operator=(const JobBuilder&) = delete;

  /// Registers an input; returns its index for Event contexts.
  uint32_t AddSource(std::string name, std::string pod = {});
  /// Folds one event into the model. The event's texts are copied where the model keeps them,
  /// except a line's text marked EventContext::text_kept, which is viewed until KeepLineTexts.
  void Add(const Event& event);
  /// The texts of the events added so far (those marked text_kept) are about to expire: copies
  /// what the model still views. Needed before Finish and Snapshot when such events were added.
  void KeepLineTexts();
  /// Counts `count` events of the type `type` (an EventTypeName, e.g. "collective") printed in
  /// `source` that were folded away before reaching Add because they change nothing but counters
  /// (condensed inputs). Returns false, counting nothing, for an unknown type name.
  bool AddFoldedEvents(uint32_t source, std::string_view type, uint64_t count);
  /// Groups hosts, resolves paths, classifies links. Call once, after the last Add: it frees the
  /// builder's indexes (process caches, membership and link indexes), so the rules and the
  /// report that follow run without them in memory; Add and Snapshot must not follow.
  void Finish(const BuildOptions& options);
  /// The job as Finish would leave it if the input ended now: copies the job and the builder
  /// state and finishes the copy. This builder keeps accumulating (live analysis, --follow).
  /// Costs a copy of the model, so call it sparingly (about once a second).
  Job Snapshot(const BuildOptions& options) const;

  /// Internal state; defined in src/model/builder_state.h only.
  struct State;

 private:
  Job* job_;
  std::unique_ptr<State> state_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_JOB_BUILDER_H_
