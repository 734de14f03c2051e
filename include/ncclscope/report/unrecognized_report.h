// `ncclscope events --unrecognized`: the lines that mention NCCL and that nothing understood,
// grouped by shape, with the line coverage of the inputs. Text for people, JSON for scripts.
#ifndef NCCLSCOPE_REPORT_UNRECOGNIZED_REPORT_H_
#define NCCLSCOPE_REPORT_UNRECOGNIZED_REPORT_H_

#include <ostream>
#include <vector>

#include "ncclscope/analysis/unrecognized_shapes.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/line_coverage.h"

namespace ncclscope {

void WriteUnrecognizedText(const std::vector<UnrecognizedGroup>& groups,
                           const LineCoverage& coverage, const std::vector<SourceInfo>& sources,
                           std::ostream& out);
void WriteUnrecognizedJson(const std::vector<UnrecognizedGroup>& groups,
                           const LineCoverage& coverage, const std::vector<SourceInfo>& sources,
                           std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_UNRECOGNIZED_REPORT_H_
