// COLL lines: "<Op>: opCount ..." (hot) and TUNING "<Op>: N Bytes -> Algo A proto P ...".
// Hand-parsed, no allocation.
#include <cstring>
#include <string_view>

#include "ncclscope/base/byte_words.h"

#include "body_parsers.h"
#include "ncclscope/parse/collective_args.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// Parses "key value key value ..." pairs of an opCount line into *coll.
void ReadCollFields(TextCursor* c, CollectiveArgs* coll) {
  while (!c->done()) {
    c->SkipSpaces();
    std::string_view key = c->ReadToken();
    if (key.empty()) break;
    c->SkipSpaces();
    if (StartsWith(key, "[nranks=")) {
      std::string_view v = key.substr(8);
      if (!v.empty() && v.back() == ']') v.remove_suffix(1);
      ParseWhole(v, &coll->nranks);
      continue;
    }
    std::string_view value = c->ReadToken();
    // Dispatch on the key's length first: one comparison per pair instead of a chain.
    switch (key.size()) {
      case 2:
        if (Equals(key, "op")) ParseWhole(value, &coll->red_op);
        break;
      case 4:
        if (Equals(key, "root")) ParseWhole(value, &coll->root);
        break;
      case 5:
        if (Equals(key, "count")) ParseWhole(value, &coll->count);
        break;
      case 8:
        if (Equals(key, "datatype")) ParseWhole(value, &coll->datatype);
        break;
      default:
        break;
    }
  }
}

/// Skips a token (a pointer: 10-18 bytes) up to the next space.
bool SkipToken(TextCursor* c) {
  std::string_view r = c->rest();
  const size_t sp = byte_words::FindByte(r.data(), r.size(), ' ');
  if (sp == r.size()) return false;
  c->Skip(sp);
  return true;
}

/// The fixed layout NCCL has printed since 2.x: "sendbuff P recvbuff P count N datatype N op N
/// root N comm P [nranks=N] stream P". Returns false (and the caller falls back to the generic
/// key/value reader) as soon as anything differs.
bool ReadCollFieldsFast(TextCursor c, CollectiveArgs* coll) {
  if (!c.Eat("sendbuff ") || !SkipToken(&c) || !c.Eat(" recvbuff ") || !SkipToken(&c) ||
      !c.Eat(" count ") || !c.ReadInt(&coll->count) || !c.Eat(" datatype ") ||
      !c.ReadInt(&coll->datatype) || !c.Eat(" op ") || !c.ReadInt(&coll->red_op) ||
      !c.Eat(" root ") || !c.ReadInt(&coll->root) || !c.Eat(" comm ") || !SkipToken(&c) ||
      !c.Eat(" [nranks=") || !c.ReadInt(&coll->nranks) || !c.Eat(']'))
    return false;
  return true;
}

/// The token after the first "comm " key of `args` (at its start or after a blank; more blanks
/// allowed before the value), or "". Found by the letter 'm', which a COLL line holds only in
/// "comm" and "stream": one vectorised memchr usually lands on it, where looking for the blank
/// or 'c' would stop at every token or pointer.
std::string_view FindComm(std::string_view args) {
  const char* const p = args.data();
  const size_t n = args.size();
  size_t from = 0;
  while (from < n) {
    const void* hit = std::memchr(p + from, 'm', n - from);
    if (hit == nullptr) return {};
    const size_t m = static_cast<size_t>(static_cast<const char*>(hit) - p);  // " com|m| "
    if (m >= 2 && m + 2 < n && (m == 2 || p[m - 3] == ' ') && p[m - 2] == 'c' &&
        p[m - 1] == 'o' && p[m + 1] == 'm' && p[m + 2] == ' ') {
      size_t start = m + 3;
      while (start < n && p[start] == ' ') ++start;
      const size_t end = start + byte_words::FindByte(p + start, n - start, ' ');
      return args.substr(start, end - start);
    }
    from = m + 1;
  }
  return {};
}

/// Length of the run of ASCII letters at the start of `s`, at most 32.
size_t LetterRun(std::string_view s) {
  size_t n = 0;
  while (n + 8 <= s.size() && n < 32) {  // eight at a time while they fit
    const int k = byte_words::LeadingLetters(byte_words::Load8(s.data() + n));
    n += static_cast<size_t>(k);
    if (k < 8) return n;
  }
  while (n < s.size() && n < 32 && IsAlpha(s[n])) ++n;
  return n < 32 ? n : 32;
}

}  // namespace

bool ParseCollective(std::string_view body, EventData* data) {
  // The operation name: letters only, then ": ".
  const size_t n = LetterRun(body);
  if (n == 0 || n + 2 > body.size()) return false;
  // 2.27+ symmetric-memory kernels: "AllReduce [Symmetric]: 2097152 Bytes -> Kernel
  // AllReduce_RSxLD_AGxST nchannels 7 nthreads 512 nWorks 1".
  constexpr std::string_view kSymmetric = " [Symmetric]: ";
  if (body[n] == ' ' && body.substr(n, kSymmetric.size()) == kSymmetric) {
    TextCursor c(body.substr(n + kSymmetric.size()));
    CollAlgo algo;
    algo.op = body.substr(0, n);
    if (!IsDigit(c.Peek()) || !c.ReadInt(&algo.bytes) || !c.Eat(" Bytes -> Kernel ")) return false;
    algo.algo = "Symmetric";
    algo.proto = c.ReadToken();  // the kernel
    *data = algo;
    return true;
  }
  if (body[n] != ':' || body[n + 1] != ' ') return false;
  std::string_view op = body.substr(0, n);
  TextCursor c(body.substr(n + 2));
  if (c.Eat("opCount ")) {
    TextCursor v(c.ReadToken());
    uint64_t op_count = 0;
    // opCount is printed as %lx: hex digits without 0x.
    if (!v.ReadHex(&op_count)) return false;
    c.SkipSpaces();
    Collective& coll = data->emplace<Collective>();
    coll.op = op;
    coll.op_count = op_count;
    coll.args = c.rest();
    coll.comm = FindComm(coll.args);
    return true;
  }
  CollAlgo algo;
  algo.op = op;
  if (!IsDigit(c.Peek()) || !c.ReadInt(&algo.bytes) || !c.Eat(" Bytes -> Algo ")) return false;
  algo.algo = c.ReadToken();
  c.SkipSpaces();
  if (c.Eat("proto ")) algo.proto = c.ReadToken();
  *data = algo;
  return true;
}

bool ParseNumericTuning(std::string_view body, EventData* data) {
  // NCCL's enum orders (src/include/devcomm.h): algorithms since 2.6 and later additions at the
  // end, protocols since 2.5.
  static constexpr std::string_view kAlgos[] = {"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN",
                                                "NVLS", "NVLS_TREE", "PAT"};
  static constexpr std::string_view kProtos[] = {"LL", "LL128", "SIMPLE"};
  TextCursor c(body);
  CollAlgo algo;
  int64_t a = -1, p = -1;
  if (!c.ReadInt(&algo.bytes) || !c.Eat(" Bytes -> Algo ")) return false;
  const std::string_view algo_text = c.ReadToken();
  if (!c.Eat(" proto ")) return false;
  const std::string_view proto_text = c.ReadToken();
  if (!TextCursor(algo_text).ReadInt(&a) || !TextCursor(proto_text).ReadInt(&p)) return false;
  algo.algo = a >= 0 && a < static_cast<int64_t>(std::size(kAlgos)) ? kAlgos[a] : algo_text;
  algo.proto = p >= 0 && p < static_cast<int64_t>(std::size(kProtos)) ? kProtos[p] : proto_text;
  *data = algo;
  return true;
}

}  // namespace ncclscope::parse_internal

namespace ncclscope {

CollectiveArgs DecodeCollectiveArgs(std::string_view args) {
  using parse_internal::TextCursor;
  CollectiveArgs a;
  if (parse_internal::ReadCollFieldsFast(TextCursor(args), &a)) return a;
  a = CollectiveArgs{};
  TextCursor c(args);
  parse_internal::ReadCollFields(&c, &a);
  return a;
}

}  // namespace ncclscope
