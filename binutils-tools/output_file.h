// Writing a tool's output without ever destroying what is there: "-" is
// standard output; a FIFO or a character device is written through; a
// regular file (also behind a symlink) is replaced by a temporary file
// renamed over it, keeping its mode, only once every byte is safely on
// disk.  A failed write leaves the old file as it was.
#ifndef MEMPROF_TOOLS_OUTPUT_FILE_H
#define MEMPROF_TOOLS_OUTPUT_FILE_H

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace memprof {

// Identity of a file: equal for every name of it (./a, a, hard links).
struct FileId
{
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator== (const FileId &o) const
  {
    return dev == o.dev && ino == o.ino;
  }
};

// How messages name output PATH ("-" is "standard output").
std::string output_name (const std::string &path);

class OutputFile
{
public:
  // Decide where PATH's bytes will go, before any work is done.  Throws
  // FormatError (without the path) when they cannot go there: a
  // directory, a socket or block device, a file the caller may not write
  // (root included: a file without any write permission bit is refused).
  explicit OutputFile (const std::string &path);

  // The existing file the output would overwrite, if any (for the "given
  // as both input and output" check).
  bool existing (FileId &id) const;

  // Write all of BYTES.  Throws FormatError; the old output is then intact
  // where it was a regular file.
  void write (const std::vector<uint8_t> &bytes) const;

private:
  enum class Kind { STDOUT, THROUGH, REPLACE };
  Kind kind_;
  std::string target_;          // The file itself, symlinks resolved.
  bool exists_ = false;
  FileId id_;
  mode_t mode_ = 0;
  uid_t uid_ = 0;
  gid_t gid_ = 0;

  void replace (const std::vector<uint8_t> &bytes) const;
};

} // namespace memprof

#endif
