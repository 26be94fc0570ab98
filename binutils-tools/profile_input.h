// Loading one input file, raw or indexed, into a ContextTable: raw
// profiles are symbolized on the way in.
#ifndef MEMPROF_TOOLS_PROFILE_INPUT_H
#define MEMPROF_TOOLS_PROFILE_INPUT_H

#include "context_table.h"
#include "raw_reader.h"
#include "symbolizer.h"

#include <string>
#include <vector>

namespace memprof {

enum class InputKind { RAW, INDEXED };

// Which kind of profile the bytes hold (the first 8 decide); throws
// FormatError when neither.
InputKind detect_kind (const uint8_t *data, size_t size);

// The bytes of one input profile, checked from its first bytes before
// the rest is touched: a regular file is mapped (its pages stay the page
// cache's, and are read as the parse reaches them), a pipe or another
// stream is read to its end.  The readers parse the bytes in place, so
// they live as long as anything read from them.  Throws FormatError
// without the path.
class ProfileBytes
{
public:
  explicit ProfileBytes (const std::string &path);
  ~ProfileBytes ();
  ProfileBytes (const ProfileBytes &) = delete;
  ProfileBytes &operator= (const ProfileBytes &) = delete;

  const uint8_t *data () const { return data_; }
  size_t size () const { return size_; }
  InputKind kind () const { return kind_; }

private:
  const uint8_t *data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::vector<uint8_t> read_;
  InputKind kind_;
};

// Symbolize every stack of PROF and add its records to TABLE.
void add_raw_profile (const RawProfile &prof, Symbolizer &sym,
                      ContextTable &table,
                      std::vector<ModuleProblem> &problems);

} // namespace memprof

#endif
