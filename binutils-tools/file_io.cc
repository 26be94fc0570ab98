// Reading whole input files.
#include "file_io.h"

#include "diag.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memprof {

std::vector<uint8_t>
read_whole_file (const std::string &path)
{
  int fd = open (path.c_str (), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw FormatError (std::strerror (errno));
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      int e = errno;
      close (fd);
      throw FormatError (std::strerror (e));
    }
  if (S_ISDIR (st.st_mode))
    {
      close (fd);
      throw FormatError ("is a directory");
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      throw FormatError ("not a regular file");
    }
  // The size from fstat bounds the allocation; a file that grows while we
  // read it is cut at that size.
  std::vector<uint8_t> bytes (static_cast<size_t> (st.st_size));
  size_t done = 0;
  while (done < bytes.size ())
    {
      ssize_t n = read (fd, bytes.data () + done, bytes.size () - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          close (fd);
          throw FormatError (std::strerror (e));
        }
      if (n == 0)
        break;
      done += static_cast<size_t> (n);
    }
  close (fd);
  bytes.resize (done);
  return bytes;
}

} // namespace memprof
