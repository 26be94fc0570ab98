// Writing outputs without clobbering.
#include "output_file.h"

#include "diag.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memprof {

[[noreturn]] static void
fail_errno (const char *what, int e)
{
  throw FormatError (what ? format ("%s: %s", what, std::strerror (e))
                          : std::string (std::strerror (e)));
}

// PATH with every symlink of its last component followed, so a symlink
// to a profile replaces the profile and leaves the link.  A dangling
// link gives the path it points to, which is then created.
static std::string
follow_symlinks (std::string path)
{
  for (int hops = 0; hops < 40; hops++)
    {
      char buf[PATH_MAX];
      ssize_t n = readlink (path.c_str (), buf, sizeof buf);
      if (n < 0)
        {
          if (errno == EINVAL || errno == ENOENT)
            return path;        // Not a symlink, or nothing there.
          fail_errno (nullptr, errno);
        }
      if (static_cast<size_t> (n) == sizeof buf)
        fail_errno (nullptr, ENAMETOOLONG);
      std::string to (buf, static_cast<size_t> (n));
      size_t slash = path.rfind ('/');
      if (to[0] != '/' && slash != std::string::npos)
        to = path.substr (0, slash + 1) + to;
      path = to;
    }
  fail_errno (nullptr, ELOOP);
}

static bool
write_all (int fd, const std::vector<uint8_t> &bytes, int &err)
{
  size_t done = 0;
  while (done < bytes.size ())
    {
      ssize_t n = ::write (fd, bytes.data () + done, bytes.size () - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          err = errno;
          return false;
        }
      done += static_cast<size_t> (n);
    }
  return true;
}

static mode_t
new_file_mode ()
{
  mode_t mask = umask (022);
  umask (mask);
  return 0666 & ~mask;
}

std::string
output_name (const std::string &path)
{
  return path == "-" ? "standard output" : path;
}

OutputFile::OutputFile (const std::string &path)
{
  if (path == "-")
    {
      kind_ = Kind::STDOUT;
      struct stat st;
      if (fstat (STDOUT_FILENO, &st) != 0)
        fail_errno ("standard output", errno);
      exists_ = S_ISREG (st.st_mode);
      id_ = FileId{ st.st_dev, st.st_ino };
      return;
    }
  target_ = follow_symlinks (path);
  struct stat st;
  if (stat (target_.c_str (), &st) != 0)
    {
      if (errno != ENOENT)
        fail_errno (nullptr, errno);
      kind_ = Kind::REPLACE;
      mode_ = new_file_mode ();
      return;
    }
  exists_ = true;
  id_ = FileId{ st.st_dev, st.st_ino };
  if (S_ISDIR (st.st_mode))
    throw FormatError ("is a directory");
  if (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode))
    kind_ = Kind::THROUGH;
  else if (S_ISREG (st.st_mode))
    kind_ = Kind::REPLACE;
  else
    throw FormatError ("not a regular file, FIFO or character device");
  // Replacing by rename would get past a read-only file's mode, and root
  // passes access () whatever the mode: a file nobody may write is
  // refused to root too.
  if (faccessat (AT_FDCWD, target_.c_str (), W_OK, AT_EACCESS) != 0)
    fail_errno (nullptr, errno);
  if (kind_ == Kind::REPLACE && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
    fail_errno (nullptr, EACCES);
  mode_ = st.st_mode & 07777;
  uid_ = st.st_uid;
  gid_ = st.st_gid;
}

bool
OutputFile::existing (FileId &id) const
{
  id = id_;
  return exists_;
}

void
OutputFile::write (const std::vector<uint8_t> &bytes) const
{
  int err = 0;
  switch (kind_)
    {
    case Kind::STDOUT:
      if (!write_all (STDOUT_FILENO, bytes, err))
        fail_errno (nullptr, err);
      return;
    case Kind::THROUGH:
      {
        int fd = open (target_.c_str (), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
          fail_errno (nullptr, errno);
        bool ok = write_all (fd, bytes, err);
        if (close (fd) != 0 && ok)
          ok = false, err = errno;
        if (!ok)
          fail_errno (nullptr, err);
        return;
      }
    case Kind::REPLACE:
      replace (bytes);
      return;
    }
}

void
OutputFile::replace (const std::vector<uint8_t> &bytes) const
{
  std::string tmp = target_ + ".tmpXXXXXX";
  int fd = mkstemp (&tmp[0]);
  if (fd < 0)
    fail_errno ("cannot create output", errno);
  int err = 0;
  // fsync before the rename: a delayed allocation that finds the disk
  // full must fail here, not after the old file is gone.
  bool ok = write_all (fd, bytes, err);
  if (ok && fsync (fd) != 0)
    ok = false, err = errno;
  // Root replacing another user's file gives it back to its owner.
  if (ok && exists_ && geteuid () == 0)
    (void) !fchown (fd, uid_, gid_);
  if (ok && fchmod (fd, mode_) != 0)
    ok = false, err = errno;
  if (close (fd) != 0 && ok)
    ok = false, err = errno;
  if (ok && rename (tmp.c_str (), target_.c_str ()) != 0)
    ok = false, err = errno;
  if (!ok)
    {
      unlink (tmp.c_str ());
      fail_errno (nullptr, err);
    }
}

} // namespace memprof
