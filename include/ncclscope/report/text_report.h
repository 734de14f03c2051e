// The human-readable report: header, per-communicator link summary and matrix, findings.
#ifndef NCCLSCOPE_REPORT_TEXT_REPORT_H_
#define NCCLSCOPE_REPORT_TEXT_REPORT_H_

#include "ncclscope/report/report.h"

namespace ncclscope {

void WriteTextReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

/// One-letter code of a class for matrices: N NVL, P P2P, S SHM, T NET/Socket (TCP), I NET/IB,
/// E NET/Libfabric (EFA), O NET/other, C CollNet, V NVLS, ? unknown.
char ClassLetter(TransportClass c);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_TEXT_REPORT_H_
